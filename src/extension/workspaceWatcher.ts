import * as path from 'node:path';
import * as vscode from 'vscode';
import { watchedUri } from './documents/fileUri';
import { literalGlob } from './literalGlob';
import { treeGlob } from './treeGlob';
import type { TrustStore } from '../core/trust/trustStore';
import { agentSystems } from '../core/systems/registry';
import { ChangeBatcher } from './flows/changeBatcher';
import { coveredByRootWatchers } from './flows/rootWatchers';
import { SubtreeWatchers } from './flows/subtreeWatchers';
import type { Watched } from './flows/snapshotTransfer';
import type { LogPort } from './flows/ports';
import { displayText } from '../core/text/displayText';

const DEBOUNCE_MS = 150;

/**
 * The file watchers of one window: the workbench's over what the agents read (and the
 * trust store), and Node's over directories created since (flows/subtreeWatchers.ts). It
 * hands the service each batch of changed paths (flows/changeBatcher.ts); what a batch
 * re-reads is the service's (skillgateService.ts `flush`).
 */
export class WorkspaceWatcher implements vscode.Disposable {
  private watchers: vscode.Disposable[] = [];
  /** Watchers of directories created while the window is open (see `watchNewDirectories`). */
  private readonly subtreeWatchers: SubtreeWatchers;
  /** The folders and the paths outside them the current watchers cover, to notice when that set grows. */
  private watching: { folders: string[]; paths: string } = { folders: [], paths: '' };
  private readonly batcher: ChangeBatcher;
  /** The service let the watchers go: none is made from then on. */
  private disposed = false;

  /**
   * `openStore`: the service's trust store, opened on first use and again after a settings
   * change (skillgateService.ts `store`). `batch`: the changed paths, and whether the store
   * changed, once the changes go quiet.
   */
  constructor(
    private readonly log: LogPort,
    private readonly openStore: () => TrustStore,
    batch: (paths: string[], storeChanged: boolean) => void,
  ) {
    this.batcher = new ChangeBatcher(DEBOUNCE_MS, batch);
    this.subtreeWatchers = new SubtreeWatchers(log, (changed) => this.batcher.path(changed));
  }

  /**
   * Watchers: each folder's agent roots (`.rivumi`, `.codewhale`, …), the user bundle root, the trust
   * store (so trust granted from the CLI or another window shows up), and the scripts
   * hooks run. Changes are debounced, then only the affected bundles are re-read.
   */
  watch(folders: string[], watched: Watched): void {
    if (this.disposed) return;
    // The new watchers exist before the old ones go, so no event falls between them.
    const previous = this.watchers;
    this.watchers = [];
    const onPath = (uri: vscode.Uri) => this.batcher.path(uri.fsPath);
    const add = (pattern: vscode.GlobPattern, handler: (uri: vscode.Uri) => void) => {
      const w = vscode.workspace.createFileSystemWatcher(pattern);
      w.onDidCreate(handler);
      w.onDidChange(handler);
      w.onDidDelete(handler);
      this.watchers.push(w);
    };
    const roots = agentSystems().flatMap((s) => s.workspaceRoots);
    for (const folder of folders)
      for (const root of roots) add(new vscode.RelativePattern(watchedUri(folder), `${root}/**`), onPath);
    for (const tree of watched.trees)
      add(new vscode.RelativePattern(watchedUri(tree.base), treeGlob(tree.pattern)), onPath);
    const store = this.openStore();
    try {
      // A watcher on a directory that does not exist yet never fires; the store's own directory is safe to create.
      store.ensureDirectory();
    } catch (e) {
      // an unusable location: the store reports it as unavailable
      this.log.warn(
        `trust store directory ${displayText(store.dir)} cannot be created: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    add(new vscode.RelativePattern(watchedUri(store.dir), 'state.json'), () => this.batcher.store());
    this.watching = { folders, paths: watchKey(watched) };
    for (const p of watched.paths) {
      if (coveredByRootWatchers(p, folders, roots)) continue;
      // By its name, read literally: the watcher's pattern is a glob (literalGlob.ts).
      add(new vscode.RelativePattern(watchedUri(path.dirname(p)), literalGlob(path.basename(p))), onPath);
    }
    for (const w of previous) w.dispose();
  }

  /** The watchers made again, over the same folders and what `watched` names now. */
  watchAgain(watched: Watched): void {
    this.watch(this.watching.folders, watched);
  }

  /**
   * Watches what an index's latest result names beyond the current watchers: a hooks file
   * written or edited since the last full index may name scripts no watcher covers yet; a
   * new Eva project, roots to watch.
   */
  watchWhatItNames(watched: Watched): void {
    if (watchKey(watched) !== this.watching.paths) this.watch(this.watching.folders, watched);
  }

  /** Directories a batch reported: each new one gets a watcher of its own (flows/subtreeWatchers.ts). */
  watchNewDirectories(paths: readonly string[]): void {
    this.subtreeWatchers.watchNewDirectories(paths);
  }

  /** A pending batch is dropped, then the workbench's watchers go, then Node's. */
  dispose(): void {
    this.disposed = true;
    this.batcher.dispose();
    for (const w of this.watchers) w.dispose();
    this.subtreeWatchers.dispose();
  }
}

/** What the watchers cover beyond the agents' workspace roots: the paths and trees the agents name now. */
function watchKey(watched: Watched): string {
  return [...watched.paths, ...watched.trees.map((t) => `${t.base}\0${t.pattern}`)].join('\0');
}
