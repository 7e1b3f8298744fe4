import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Indexer } from '../core/index/indexer';
import type { Snapshot } from '../core/index/snapshot';

/**
 * Owns the core indexer for the open workspace folders and publishes each new
 * snapshot. Everything in the editor (tree, Problems panel) renders these
 * snapshots; nothing here decides anything.
 */
export class SkillgateService implements vscode.Disposable {
  private indexer: Indexer | undefined;
  private current: Snapshot | undefined;
  private readonly changed = new vscode.EventEmitter<Snapshot>();
  readonly onDidChangeSnapshot = this.changed.event;

  get snapshot(): Snapshot | undefined {
    return this.current;
  }

  /** Re-reads every folder; runs after activation returns, with progress in the status bar. */
  async refreshAll(): Promise<Snapshot> {
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Skillgate: indexing' }, async () => {
      // Yield first so activation and the first paint are never blocked by indexing.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
      this.indexer = new Indexer({
        workspaces: folders,
        codewhaleHome: codewhaleHome(),
        rivumiHooksEnv: process.env.RIVUMI_ENABLE_PROJECT_HOOKS,
        workspaceTrusted: vscode.workspace.isTrusted,
      });
      return this.publish(this.indexer.indexAll());
    });
  }

  private publish(snapshot: Snapshot): Snapshot {
    this.current = snapshot;
    this.changed.fire(snapshot);
    return snapshot;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Codewhale's home comes from the process environment only, never from a workspace (codewhale.md §2.1). */
function codewhaleHome(): string {
  return process.env.CODEWHALE_HOME ?? path.join(os.homedir(), '.codewhale');
}
