import * as vscode from 'vscode';
import { fileUri } from './fileUri';
import { editorRange } from './editorRange';
import { childrenOf, diagnosticsOf, itemById, type Snapshot } from '../core/index/snapshot';
import { systemOf } from '../core/systems/registry';
import {
  childNodes,
  DEFAULT_TREE_MODE,
  GROUP_LABEL,
  type DecisionGroup,
  type TreeMode,
  type TreeNode,
} from './treeNodes';
import { contextValueOf } from './flows/driftNotice';
import {
  isLoadedUnreviewed,
  itemAriaLabel,
  itemDescription,
  itemLabel,
  itemTooltipMarkdown,
  kindIcon,
  TOOLTIP_COMMANDS,
  type TooltipContext,
} from './itemText';
import type { Decision, Item } from '../core/model';

export type { TreeNode } from './treeNodes';

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

const GROUP_ICON: Record<DecisionGroup, [string, string]> = {
  rejected: ['error', 'errorForeground'],
  loadedUnreviewed: ['warning', 'list.warningForeground'],
  needsReview: ['eye', 'list.warningForeground'],
  disabled: ['circle-slash', 'list.warningForeground'],
  active: ['pass-filled', 'testing.iconPassed'],
  displayOnly: ['eye-closed', 'descriptionForeground'],
  shadowed: ['layers', 'disabledForeground'],
};

export class ItemTreeProvider implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private snapshot: Snapshot | undefined;
  private mode: TreeMode = DEFAULT_TREE_MODE;

  update(snapshot: Snapshot): void {
    this.snapshot = snapshot;
    this.changed.fire(undefined);
  }

  /** The filter and grouping (remembered per workspace by the caller). */
  setMode(mode: TreeMode): void {
    this.mode = mode;
    this.changed.fire(undefined);
  }

  getChildren(node?: TreeNode): TreeNode[] {
    return this.snapshot ? childNodes(this.snapshot, node, this.mode) : [];
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    if (node.kind === 'folder') {
      const t = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      t.id = node.id;
      t.iconPath = new vscode.ThemeIcon(node.workspace ? 'root-folder' : 'account');
      t.contextValue = 'skillgate.folder';
      t.accessibilityInformation = { label: node.workspace ? `${node.label}, workspace folder` : 'User bundles' };
      return t;
    }
    if (node.kind === 'group') {
      const t = new vscode.TreeItem(GROUP_LABEL[node.group], vscode.TreeItemCollapsibleState.Expanded);
      t.id = node.id;
      t.description = String(node.count);
      const [icon, color] = GROUP_ICON[node.group];
      t.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(color));
      t.contextValue = 'skillgate.group';
      t.accessibilityInformation = {
        label: `${GROUP_LABEL[node.group]}: ${node.count} ${node.count === 1 ? 'bundle' : 'bundles'}`,
      };
      return t;
    }
    if (node.kind === 'system') {
      const system = systemOf(node.system);
      const t = new vscode.TreeItem(system.label, vscode.TreeItemCollapsibleState.Expanded);
      t.id = node.id;
      t.iconPath = new vscode.ThemeIcon(system.icon);
      t.contextValue = 'skillgate.system';
      t.accessibilityInformation = { label: `${system.label}, coding agent` };
      return t;
    }
    const item = node.item;
    const hasChildren = this.snapshot ? childrenOf(this.snapshot, item.id).length > 0 : false;
    const t = new vscode.TreeItem(
      itemLabel(item),
      hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    t.id = item.id;
    t.description = itemDescription(item, this.snapshot);
    t.accessibilityInformation = { label: itemAriaLabel(item, this.snapshot) };
    t.iconPath = new vscode.ThemeIcon(
      kindIcon(item),
      new vscode.ThemeColor(isLoadedUnreviewed(item) ? LOADED_UNREVIEWED_COLOR : DECISION_COLOR[item.decision]),
    );
    t.contextValue = contextValueOf(item);
    t.command = {
      command: 'vscode.open',
      title: 'Open',
      arguments: [fileUri(item.location.file), { selection: editorRange(item.location.range), preview: true }],
    };
    return t;
  }

  /**
   * The tooltip, when the workbench is about to show it (hover or focus): VS Code parses a
   * tooltip's Markdown when the row is handed over, and 2,000 rows' tooltips at once held
   * the extension host (docs/editor-performance.md).
   */
  resolveTreeItem(t: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    if (node.kind !== 'item') return t;
    const item = node.item;
    const winner = item.shadowedBy && this.snapshot ? itemById(this.snapshot, item.shadowedBy) : undefined;
    t.tooltip = tooltip(item, {
      diagnostics: this.snapshot ? diagnosticsOf(this.snapshot, item.id) : [],
      ...(winner ? { winner } : {}),
    });
    return t;
  }

  /** A row with everything the view shows of it, its tooltip too: what the extension's API hands out (extension.ts). */
  completeTreeItem(node: TreeNode): vscode.TreeItem {
    return this.resolveTreeItem(this.getTreeItem(node), node);
  }
}

/** Trusted for the Problems link only: bundle text never becomes a command link or HTML here. */
function tooltip(item: Item, context: TooltipContext): vscode.MarkdownString {
  const md = new vscode.MarkdownString(itemTooltipMarkdown(item, context), true);
  md.isTrusted = { enabledCommands: [...TOOLTIP_COMMANDS] };
  md.supportHtml = false;
  return md;
}
