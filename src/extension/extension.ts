import * as vscode from 'vscode';
import { ItemTreeProvider, type TreeNode } from './itemTree';
import { Problems } from './problems';
import { SkillgateService } from './skillgateService';
import type { Snapshot } from '../core/index/snapshot';

/** What other extensions (and our integration tests) get from `activate`. */
export interface SkillgateApi {
  readonly snapshot: () => Snapshot | undefined;
  readonly onDidChangeSnapshot: vscode.Event<Snapshot>;
  /** Resolves once the first index has been published. */
  readonly ready: Promise<Snapshot>;
  /** The tree's data, as the view shows it (for tests and tools). */
  readonly tree: vscode.TreeDataProvider<TreeNode>;
  readonly refresh: () => Promise<Snapshot>;
}

export function activate(context: vscode.ExtensionContext): SkillgateApi {
  // Register everything first; the first index runs after activation returns.
  const service = new SkillgateService();
  const tree = new ItemTreeProvider();
  const problems = new Problems();
  const view = vscode.window.createTreeView('skillgate.items', { treeDataProvider: tree, showCollapseAll: true });
  context.subscriptions.push(service, problems, view);
  context.subscriptions.push(
    service.onDidChangeSnapshot((s) => {
      tree.update(s);
      problems.update(s);
      void vscode.commands.executeCommand('setContext', 'skillgate.hasItems', s.items.length > 0);
    }),
    vscode.commands.registerCommand('skillgate.refresh', () => service.refreshAll()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => void service.refreshAll()),
  );
  const ready = service.refreshAll();
  return { snapshot: () => service.snapshot, onDidChangeSnapshot: service.onDidChangeSnapshot, ready, tree, refresh: () => service.refreshAll() };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
