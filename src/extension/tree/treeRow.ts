import { childrenOf, type Snapshot } from '../../core/index/snapshot';
import type { Decision, Item } from '../../core/model';
import { contextValueOf } from './contextValue';
import { isLoadedUnreviewed } from '../../core/decisions/loadedUnreviewed';
import { itemAriaLabel, itemDescription, itemLabel, kindIcon } from './itemText';

/** The decision is the icon's colour; its shape is the kind (itemText.ts `kindIcon`). */
const DECISION_COLOR: Record<Decision, string> = {
  registered: 'testing.iconPassed',
  rejected: 'errorForeground',
  display_only: 'descriptionForeground',
  disabled: 'list.warningForeground',
  shadowed: 'disabledForeground',
};

/** Loaded by its agent although not reviewed: a risk, in the warning colour (decisions.md `loaded_unreviewed`). */
const LOADED_UNREVIEWED_COLOR = 'list.warningForeground';

/**
 * An item's row in the tree, as plain data: what the tree's `getTreeItem` turns into a
 * TreeItem. Computed ahead, a slice of rows per event-loop turn, before the workbench is
 * told that the tree changed: it asks for every row of an expanded node in one request
 * (2,000 under one agent), and the rows' text was about half of that turn (docs/editor-performance.md).
 */
export interface TreeRow {
  readonly label: string;
  readonly description: string;
  readonly ariaLabel: string;
  /** A codicon's name. */
  readonly icon: string;
  /** A theme colour's id. */
  readonly color: string;
  readonly contextValue: string;
  /** It has parts (collapsed until opened). */
  readonly hasChildren: boolean;
}

export function treeRowOf(item: Item, snapshot: Snapshot): TreeRow {
  return {
    label: itemLabel(item),
    description: itemDescription(item, snapshot),
    ariaLabel: itemAriaLabel(item, snapshot),
    icon: kindIcon(item),
    color: isLoadedUnreviewed(item) ? LOADED_UNREVIEWED_COLOR : DECISION_COLOR[item.decision],
    contextValue: contextValueOf(item),
    hasChildren: childrenOf(snapshot, item.id).length > 0,
  };
}
