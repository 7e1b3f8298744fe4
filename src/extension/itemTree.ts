import * as vscode from 'vscode';
import { fileUri } from './fileUri';
import { childrenOf, type Snapshot } from '../core/index/snapshot';
import { childNodes, type TreeNode } from './treeNodes';
import { contextValueOf } from './flows/driftNotice';
import { isLoadedUnreviewed, itemDescription, itemLabel, itemTooltipMarkdown, TOOLTIP_COMMANDS, type TooltipContext } from './itemText';
import type { Decision, Item } from '../core/model';

export type { TreeNode } from './treeNodes';

const DECISION_ICON: Record<Decision, [string, string]> = {
  registered: ['pass-filled', 'testing.iconPassed'],
  rejected: ['error', 'errorForeground'],
  display_only: ['eye', 'descriptionForeground'],
  disabled: ['circle-slash', 'list.warningForeground'],
  shadowed: ['layers', 'disabledForeground'],
};

/** Loaded by its agent although not reviewed: a risk, in the warning colour (decisions.md `loaded_unreviewed`). */
const LOADED_UNREVIEWED_ICON: [string, string] = ['warning', 'list.warningForeground'];

export class ItemTreeProvider implements vscode.TreeDataProvider<TreeNode> {
  private readonly changed = new vscode.EventEmitter<TreeNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private snapshot: Snapshot | undefined;

  update(snapshot: Snapshot): void {
    this.snapshot = snapshot;
    this.changed.fire(undefined);
  }

  getChildren(node?: TreeNode): TreeNode[] {
    return this.snapshot ? childNodes(this.snapshot, node) : [];
  }

  getTreeItem(node: TreeNode): vscode.TreeItem {
    if (node.kind === 'folder') {
      const t = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      t.id = node.id;
      t.iconPath = new vscode.ThemeIcon(node.workspace ? 'root-folder' : 'account');
      t.contextValue = 'skillgate.folder';
      return t;
    }
    if (node.kind === 'system') {
      const t = new vscode.TreeItem(node.system === 'rivumi' ? 'Rivumi' : 'Codewhale', vscode.TreeItemCollapsibleState.Expanded);
      t.id = node.id;
      t.iconPath = new vscode.ThemeIcon(node.system === 'rivumi' ? 'book' : 'extensions');
      t.contextValue = 'skillgate.system';
      return t;
    }
    const item = node.item;
    const hasChildren = this.snapshot ? childrenOf(this.snapshot, item.id).length > 0 : false;
    const t = new vscode.TreeItem(itemLabel(item), hasChildren ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    t.id = item.id;
    t.description = itemDescription(item);
    const [icon, color] = isLoadedUnreviewed(item) ? LOADED_UNREVIEWED_ICON : DECISION_ICON[item.decision];
    t.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(color));
    const winner = item.shadowedBy ? this.snapshot?.items.find((i) => i.id === item.shadowedBy) : undefined;
    t.tooltip = tooltip(item, { diagnostics: this.snapshot?.diagnostics.filter((d) => d.itemId === item.id) ?? [], ...(winner ? { winner } : {}) });
    t.contextValue = contextValueOf(item);
    t.command = { command: 'vscode.open', title: 'Open', arguments: [fileUri(item.location.file), { selection: toRange(item.location.range), preview: true }] };
    return t;
  }
}

/** Trusted for the Problems link only: bundle text never becomes a command link or HTML here. */
function tooltip(item: Item, context: TooltipContext): vscode.MarkdownString {
  const md = new vscode.MarkdownString(itemTooltipMarkdown(item, context), true);
  md.isTrusted = { enabledCommands: [...TOOLTIP_COMMANDS] };
  md.supportHtml = false;
  return md;
}

export function toRange(r: Item['location']['range']): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}
