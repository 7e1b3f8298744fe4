import { childrenOf, type Snapshot } from '../../core/index/snapshot';
import type { Item, System } from '../../core/model';
import { displayText } from '../../core/text/displayText';
import { folderName } from '../../core/report/folderPlace';
import { agentSystems, ofSystem } from '../../core/systems/registry';
import { isLoadedUnreviewed } from '../../core/decisions/loadedUnreviewed';
import { needsReview } from './needsReview';

/** Which top-level bundles the tree shows (remembered per workspace). */
export type TreeFilter = 'all' | 'needsReview' | 'rejected';

/** How the tree is laid out: by where bundles live, or by what Skillgate decided. */
export interface TreeMode {
  readonly filter: TreeFilter;
  readonly groupByDecision: boolean;
}

export const DEFAULT_TREE_MODE: TreeMode = { filter: 'all', groupByDecision: false };

/** A decision group, worst first; what the agent loads unreviewed and what needs review are groups of their own. */
export type DecisionGroup =
  'rejected' | 'loadedUnreviewed' | 'needsReview' | 'disabled' | 'active' | 'displayOnly' | 'shadowed';

const DECISION_GROUPS: readonly DecisionGroup[] = [
  'rejected',
  'loadedUnreviewed',
  'needsReview',
  'disabled',
  'active',
  'displayOnly',
  'shadowed',
];

export const GROUP_LABEL: Record<DecisionGroup, string> = {
  rejected: 'Rejected',
  loadedUnreviewed: 'Loaded · not reviewed',
  needsReview: 'Needs review',
  disabled: 'Disabled',
  active: 'Active',
  displayOnly: 'Shown only',
  shadowed: 'Shadowed',
};

export const TREE_FILTERS: readonly TreeFilter[] = ['all', 'needsReview', 'rejected'];

/** The stored mode, or the default when absent or not one we wrote (a workspace's state is not trusted input). */
export function readTreeMode(stored: unknown): TreeMode {
  if (typeof stored !== 'object' || stored === null) return DEFAULT_TREE_MODE;
  const { filter, groupByDecision } = stored as { filter?: unknown; groupByDecision?: unknown };
  return {
    filter: TREE_FILTERS.find((f) => f === filter) ?? DEFAULT_TREE_MODE.filter,
    groupByDecision: groupByDecision === true,
  };
}

export const FILTER_LABEL: Record<TreeFilter, string> = { all: '', needsReview: 'needs review', rejected: 'rejected' };

/**
 * A node with more items than this shows them in ranges of this many, each collapsed until
 * opened, as VS Code's debugger pages a large array: the workbench asks for every row of an
 * expanded node in one request and converts them in one turn of the extension host, about
 * 0.1 ms a row, so 2,000 bundles under one agent held it for a few hundred ms
 * (docs/editor-performance.md). Every item stays one click away, in the same order.
 */
export const ROWS_PER_RANGE = 250;

/** Nodes of the Skillgate tree: workspace folder (or user bundles) → system → item → parts; or decision group → item → parts. */
export type TreeNode =
  | { readonly kind: 'folder'; readonly id: string; readonly label: string; readonly workspace: string | null }
  | { readonly kind: 'system'; readonly id: string; readonly system: System; readonly workspace: string | null }
  | { readonly kind: 'group'; readonly id: string; readonly group: DecisionGroup; readonly count: number }
  | {
      readonly kind: 'range';
      readonly id: string;
      /** The items it holds, and where the first stands among all of its parent's (0-based) of `total`. */
      readonly items: readonly Item[];
      readonly start: number;
      readonly total: number;
    }
  | { readonly kind: 'item'; readonly id: string; readonly item: Item };

/** The decision group of a top-level item. */
function decisionGroup(item: Item, pending: ReadonlySet<string>): DecisionGroup {
  if (item.decision === 'rejected') return 'rejected';
  if (isLoadedUnreviewed(item)) return 'loadedUnreviewed';
  if (pending.has(item.id)) return 'needsReview';
  if (item.decision === 'registered') return 'active';
  if (item.decision === 'display_only') return 'displayOnly';
  if (item.decision === 'shadowed') return 'shadowed';
  return 'disabled';
}

/** The top-level items the filter keeps: "needs review" is the badge's list (what an agent loads unreviewed too), "rejected" the rejected ones. */
export function visibleTops(s: Snapshot, filter: TreeFilter): Item[] {
  const tops = s.items.filter((i) => i.parent === null);
  if (filter === 'rejected') return tops.filter((i) => i.decision === 'rejected');
  if (filter === 'needsReview') {
    const pending = new Set(needsReview(s).map((i) => i.id));
    return tops.filter((i) => pending.has(i.id));
  }
  return tops;
}

/**
 * The children of a node (the top level without one). VS Code refuses a tree with two
 * nodes of one id, so the ids of the kinds never meet: a folder is
 * `folder:<absolute path>` (or `folder:user`), a system `system:<system>\0<folder id>`
 * (a path holds no NUL; `<folder id>/<system>` would be the id of the folder
 * `<path>/<system>`), a group `group:<decision group>`, a range `range:<start>\0<parent id>`
 * (kept across snapshots by position, so an opened range stays open), an item its item id
 * (`workspace/…`, `user/…`, `rivumi:…`), unique in a snapshot.
 */
export function childNodes(s: Snapshot, node?: TreeNode, mode: TreeMode = DEFAULT_TREE_MODE): TreeNode[] {
  const tops = visibleTops(s, mode.filter);
  if (!node && mode.groupByDecision) {
    const pending = new Set(needsReview(s).map((i) => i.id));
    const counts = new Map<DecisionGroup, number>();
    for (const i of tops) counts.set(decisionGroup(i, pending), (counts.get(decisionGroup(i, pending)) ?? 0) + 1);
    return DECISION_GROUPS.filter((g) => counts.has(g)).map((group) => ({
      kind: 'group',
      id: `group:${group}`,
      group,
      count: counts.get(group) ?? 0,
    }));
  }
  if (!node) {
    const folders: TreeNode[] = s.workspaces
      .filter((ws) => tops.some((i) => i.workspace === ws))
      // Named among all the snapshot's folders, not only those shown: a filter must not rename a folder.
      .map((ws) => ({
        kind: 'folder',
        id: `folder:${ws}`,
        label: displayText(folderName(ws, s.workspaces)),
        workspace: ws,
      }));
    if (tops.some((i) => i.workspace === null))
      folders.push({ kind: 'folder', id: 'folder:user', label: 'User bundles', workspace: null });
    return folders;
  }
  if (node.kind === 'group') {
    const pending = new Set(needsReview(s).map((i) => i.id));
    return ranged(
      node.id,
      tops.filter((i) => decisionGroup(i, pending) === node.group),
    );
  }
  if (node.kind === 'range') return node.items.map(itemNode);
  if (node.kind === 'folder') {
    return agentSystems()
      .filter((system) => ofSystem(tops, system.id).some((i) => i.workspace === node.workspace))
      .map((system) => ({
        kind: 'system',
        id: `system:${system.id}\0${node.id}`,
        system: system.id,
        workspace: node.workspace,
      }));
  }
  if (node.kind === 'system') {
    return ranged(
      node.id,
      ofSystem(tops, node.system).filter((i) => i.workspace === node.workspace),
    );
  }
  return ranged(node.item.id, childrenOf(s, node.item.id));
}

function itemNode(item: Item): TreeNode {
  return { kind: 'item', id: item.id, item };
}

/** A parent's items as rows, or as ranges of ROWS_PER_RANGE when there are more. */
function ranged(parentId: string, items: readonly Item[]): TreeNode[] {
  if (items.length <= ROWS_PER_RANGE) return items.map(itemNode);
  const ranges: TreeNode[] = [];
  for (let start = 0; start < items.length; start += ROWS_PER_RANGE)
    ranges.push({
      kind: 'range',
      id: `range:${start}\0${parentId}`,
      items: items.slice(start, start + ROWS_PER_RANGE),
      start,
      total: items.length,
    });
  return ranges;
}
