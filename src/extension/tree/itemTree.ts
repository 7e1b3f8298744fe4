import * as vscode from 'vscode';
import { diagnosticsOf, itemById, lookupsInSteps, type Snapshot } from '../../core/index/snapshot';
import { systemOf } from '../../core/systems/registry';
import {
  childNodes,
  DEFAULT_TREE_MODE,
  GROUP_LABEL,
  type DecisionGroup,
  type TreeMode,
  type TreeNode as BundleNode,
} from './treeNodes';
import { itemLabel, itemTooltipMarkdown, TOOLTIP_COMMANDS, type TooltipContext } from './itemText';
import { treeRowOf, type TreeRow } from './treeRow';
import { failureRows, type FailureRow } from './indexFailureText';
import { inTurns, stepsInTurns } from '../flows/turns';
import type { Item } from '../../core/model';

/** A node of the view: the snapshot's (treeNodes.ts), or while no index could be read, a row saying so (indexFailureText.ts). */
export type TreeNode = BundleNode | { readonly kind: 'failure'; readonly id: string; readonly row: FailureRow };

/** Rows computed per event-loop turn before the workbench is told of a new snapshot (a few ms each). */
const ROWS_PER_TURN = 100;
/** The snapshot's lookups (parts, diagnostics, ids; rows read them) are built this many entries per turn before the rows. */
const LOOKUPS_PER_TURN = 2000;

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
  /** The current snapshot's rows computed so far (top-level bundles ahead of time, parts when asked). */
  private rows = new Map<Item, TreeRow>();
  private mode: TreeMode = DEFAULT_TREE_MODE;
  /** Why no index could be read (the snapshot is then empty): its rows stand instead of the bundles. */
  private failure: TreeNode[] | undefined;

  /**
   * The snapshot the tree serves from now on (what the extension's API reads at once). The
   * workbench is told once the snapshot's lookups and then the top-level rows are computed,
   * a slice per event-loop turn: it then asks for all of an expanded node's rows in one
   * request (docs/editor-performance.md).
   * Resolves once it was told, or at once when a newer snapshot replaced this one meanwhile.
   * `failure`: why no index could be read (publishedSnapshot.ts `SnapshotChange`).
   */
  async update(snapshot: Snapshot, failure?: string): Promise<void> {
    this.snapshot = snapshot;
    this.failure =
      failure === undefined ? undefined : failureRows(failure).map((row) => ({ kind: 'failure', id: row.id, row }));
    const rows = new Map<Item, TreeRow>();
    this.rows = rows;
    const tops = snapshot.items.filter((i) => i.parent === null);
    const current = () => this.snapshot === snapshot;
    const lookups = lookupsInSteps(snapshot);
    if (!(await stepsInTurns(() => lookups.step(LOOKUPS_PER_TURN), current))) return;
    if (await inTurns(tops, ROWS_PER_TURN, (item) => rows.set(item, treeRowOf(item, snapshot)), current))
      this.changed.fire(undefined);
  }

  /** The filter and grouping (remembered per workspace by the caller). */
  setMode(mode: TreeMode): void {
    this.mode = mode;
    this.changed.fire(undefined);
  }

  getChildren(node?: TreeNode): TreeNode[] {
    if (this.failure) return node ? [] : this.failure;
    if (node?.kind === 'failure') return [];
    return this.snapshot ? childNodes(this.snapshot, node, this.mode) : [];
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    if (node.kind === 'failure') {
      const { row } = node;
      const t = new vscode.TreeItem(row.label, vscode.TreeItemCollapsibleState.None);
      t.id = row.id;
      if (row.description !== undefined) t.description = row.description;
      t.tooltip = row.tooltip;
      t.iconPath = new vscode.ThemeIcon(
        row.icon,
        row.color === undefined ? undefined : new vscode.ThemeColor(row.color),
      );
      if (row.command) t.command = { command: row.command.id, title: row.command.title };
      t.contextValue = 'skillgate.indexFailed';
      t.accessibilityInformation = { label: row.ariaLabel };
      return t;
    }
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
      t.description = count(node.count);
      const [icon, color] = GROUP_ICON[node.group];
      t.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(color));
      t.contextValue = 'skillgate.group';
      t.accessibilityInformation = {
        label: `${GROUP_LABEL[node.group]}: ${count(node.count)} ${node.count === 1 ? 'bundle' : 'bundles'}`,
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
    if (node.kind === 'range') {
      // Counted as the view's "Indexing 1,234 / 2,000 bundles…" counts (extension.ts): "1–250 of 2,000".
      const [from, to, total] = [node.start + 1, node.start + node.items.length, node.total].map(count);
      const first = itemLabel(node.items[0] as Item);
      const last = itemLabel(node.items[node.items.length - 1] as Item);
      const t = new vscode.TreeItem(`${first} … ${last}`, vscode.TreeItemCollapsibleState.Collapsed);
      t.id = node.id;
      t.description = `${from}–${to} of ${total}`;
      t.iconPath = new vscode.ThemeIcon('list-unordered');
      t.contextValue = 'skillgate.range';
      t.accessibilityInformation = { label: `${from} to ${to} of ${total}: ${first} to ${last}` };
      return t;
    }
    const row = this.rowOf(node.item);
    const t = new vscode.TreeItem(
      row.label,
      row.hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
    );
    t.id = node.item.id;
    t.description = row.description;
    t.accessibilityInformation = { label: row.ariaLabel };
    t.iconPath = new vscode.ThemeIcon(row.icon, new vscode.ThemeColor(row.color));
    t.contextValue = row.contextValue;
    return t;
  }

  private rowOf(item: Item): TreeRow {
    let row = this.rows.get(item);
    if (!row && this.snapshot) {
      row = treeRowOf(item, this.snapshot);
      this.rows.set(item, row);
    }
    // A node is only ever handed out from a snapshot, so the tree has one.
    return row as TreeRow;
  }

  /**
   * The tooltip, when the workbench is about to show it (hover or focus), and the command
   * that opens the item's file, when it is about to run it (click or Enter: VS Code resolves a
   * row without a command before it opens it). VS Code parses a tooltip's Markdown and
   * converts a command's arguments when the row is handed over, and 2,000 rows' worth at once
   * held the extension host (docs/editor-performance.md).
   */
  resolveTreeItem(t: vscode.TreeItem, node: TreeNode): vscode.TreeItem {
    if (node.kind !== 'item') return t;
    const item = node.item;
    // Open Manifest rather than `vscode.open` of a URI made now: it looks at the file when it opens
    // it, and a link (which the editor would show as its target's text) opens as a note (openableUri).
    t.command = { command: 'skillgate.openManifest', title: 'Open', arguments: [item.id] };
    const winner = item.shadowedBy && this.snapshot ? itemById(this.snapshot, item.shadowedBy) : undefined;
    t.tooltip = tooltip(item, {
      diagnostics: this.snapshot ? diagnosticsOf(this.snapshot, item.id) : [],
      ...(winner ? { winner } : {}),
      workspaces: this.snapshot?.workspaces ?? [],
    });
    return t;
  }

  /** A row with everything the view shows of it, its tooltip too: what the extension's API hands out (extension.ts). */
  completeTreeItem(node: TreeNode): vscode.TreeItem {
    return this.resolveTreeItem(this.getTreeItem(node), node);
  }
}

/** A count in a row's words, with the thousands separated as the view's other counts are. */
function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** Trusted for the Problems link only: bundle text never becomes a command link or HTML here. */
function tooltip(item: Item, context: TooltipContext): vscode.MarkdownString {
  const md = new vscode.MarkdownString(itemTooltipMarkdown(item, context), true);
  md.isTrusted = { enabledCommands: [...TOOLTIP_COMMANDS] };
  md.supportHtml = false;
  return md;
}
