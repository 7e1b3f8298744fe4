import * as path from 'node:path';
import * as vscode from 'vscode';
import { windowUi } from './windowUi';
import { WorkspaceWatcher } from './workspaceWatcher';
import { PublishedSnapshot, type SnapshotChange } from './publishedSnapshot';
import { fullIndexOptions } from './fullIndexOptions';
import { TrustStore } from '../core/trust/trustStore';
import { review } from '../core/trust/reviewBundle';
import { trustShown, type TrustPreview } from '../core/trust/grantTrust';
import { disable, enable, revoke } from '../core/trust/switches';
import { doctor } from '../core/trust/doctor';
import type { LifecycleContext } from '../core/trust/lifecycle';
import { stateDirectory, steadyRecheckInterval } from './settings';
import { pluginInstaller } from '../core/systems/registry';
import { FullIndexRuns, type ChangesDuringRun } from './flows/fullIndexRuns';
import type { RecheckPhase } from './flows/recheckSchedule';
import type { RecheckRun } from './flows/rechecks';
import { FullIndexRechecks } from './flows/fullIndexRechecks';
import { logRecheck } from './flows/recheckLog';
import { guardIndexAsync, indexFailureReason, type IndexFailureUi } from './flows/indexGuard';
import { loggedIndexRunAsync } from './flows/indexRunLog';
import { IndexEnded, InHostIndex, type IndexBackend } from './flows/indexBackend';
import { IndexStarter } from './flows/indexStarter';
import { CacheDirectory } from './flows/cacheDirectory';
import { FullIndexStalls, type FullIndexRun } from './flows/fullIndexStalls';
import { storeChange, type StoreChangeResult } from './flows/storeChange';
import { nextTurn } from './flows/turns';
import { safeLog } from './text/logText';
import type { Indexed, Watched } from './flows/snapshotTransfer';
import type { LogPort } from './flows/ports';
import type { Snapshot } from '../core/index/snapshot';
import type { Item } from '../core/model';

/** The index worker's bundle, beside the extension's (esbuild.mjs). */
const WORKER_SCRIPT = path.join(__dirname, 'indexWorker.js');

/**
 * Owns the core indexer and the shared trust store for this window, watches the disk
 * (workspaceWatcher.ts), and publishes each new snapshot. Everything in the editor
 * renders these snapshots; nothing here decides anything.
 */
export class SkillgateService implements vscode.Disposable {
  /** The index that the watchers' changes go to: the last full run's (none before it finishes). */
  private index: IndexBackend | undefined;
  /** Where each full index runs: a worker, or the extension host once workers failed here (flows/indexStarter.ts). */
  private readonly indexStarter: IndexStarter;
  /** Opened on first use, from the settings as they are then: reading the configuration is no part of activation (its first read in a window builds the whole configuration model). */
  private openedStore: TrustStore | undefined;
  /** The snapshot shown, and when what shows it is done (publishedSnapshot.ts). */
  private readonly shown: PublishedSnapshot;
  /** A new snapshot; what shows it may take several event-loop turns, and says when it is done with `waitUntil`. */
  readonly onDidChangeSnapshot: vscode.Event<SnapshotChange>;
  private readonly progress = new vscode.EventEmitter<{ done: number; total: number }>();
  /** Bundles loaded so far in a full index, for the view's "Indexing N / M bundles…". */
  readonly onIndexProgress = this.progress.event;
  private readonly fullRuns = new vscode.EventEmitter<FullIndexRun>();
  /** Each full index's timings, once its snapshot was published and the stall sampler stopped. */
  readonly onFullIndex = this.fullRuns.event;
  /** The disk's watchers: what they report comes back in batches (`flush`). */
  private readonly watcher: WorkspaceWatcher;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly fullIndexRuns = new FullIndexRuns();
  /** The re-checks of the last full index (flows/fullIndexRechecks.ts), until a newer one starts its own. */
  private readonly rechecks: FullIndexRechecks;
  /** An index failure: shown, and logged with the rest. */
  private readonly failureUi: IndexFailureUi;
  /** The parse cache's directory, unless a folder of this window holds it (flows/cacheDirectory.ts). */
  private readonly cacheDirectory: CacheDirectory;
  /** The window let the service go: nothing is read, watched or shown from then on. */
  private disposed = false;
  /** The indexes of full runs still reading everything: a worker among them is a thread, ended with the service or a newer run. */
  private readonly reading = new Set<IndexBackend>();
  /** The newest full run's result: what a run it overtook resolves to. */
  private newestRun: Promise<Snapshot> | undefined;

  /** What the service logs, every message escaped (text/logText.ts): errors name a repository's files. */
  private readonly log: LogPort;

  /** `cacheDir`: the parse cache's directory, in the extension's global storage (a window starts warm). */
  constructor(log: LogPort, cacheDir?: string) {
    this.log = safeLog(log);
    this.shown = new PublishedSnapshot(this.log);
    this.onDidChangeSnapshot = this.shown.onDidChange;
    this.cacheDirectory = new CacheDirectory(cacheDir, this.log);
    this.indexStarter = new IndexStarter(
      WORKER_SCRIPT,
      this.log,
      () => this.cacheDirectory.usableWith(fileFolders()),
      (worker) => {
        // The index the watchers feed is gone: read everything again, in-host.
        if (this.index === worker) {
          this.index = undefined;
          void this.refreshAll();
        }
      },
    );
    this.rechecks = new FullIndexRechecks(vscode.window.state.focused, steadyRecheckInterval, this.log);
    this.watcher = new WorkspaceWatcher(
      this.log,
      () => this.store,
      (paths, store) => this.flush(paths, store),
    );
    this.failureUi = {
      error: (message) => {
        this.log.error(message);
        // The error's text can name a repository's file (`ENOENT: …, open '<path>'`): shown escaped, as every notification.
        windowUi.error(message);
      },
      showsIndex: () => this.shown.showsIndex(),
    };
    this.disposables.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.refreshAll()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.refreshAll()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('skillgate')) {
          this.openedStore = undefined;
          void this.refreshAll();
        }
      }),
      vscode.window.onDidChangeWindowState((state) => this.rechecks.windowStateChanged(state.focused)),
    );
  }

  get snapshot(): Snapshot | undefined {
    return this.shown.current;
  }

  /**
   * The current snapshot, or the first one once the first full index publishes it. What
   * needs a snapshot before then (a review panel restored after a reload, a command run
   * while the window starts) waits for that index rather than starting one of its own:
   * each such run would overtake the first, which then publishes nothing, and read every
   * bundle again on the cores the window's start needs. Activation always starts the
   * first index, and even a failed one publishes.
   */
  published(): Promise<Snapshot> {
    return this.shown.published();
  }

  private get store(): TrustStore {
    // Refused inside a folder of this window (trust.md): the repository could commit receipts there.
    return (this.openedStore ??= new TrustStore(stateDirectory(), { workspaces: fileFolders }));
  }

  /** Re-reads every folder; runs after activation returns, with progress in the view (`viewId`). */
  async refreshAll(): Promise<Snapshot> {
    return vscode.window.withProgress({ location: { viewId: 'skillgate.items' } }, async () => {
      // Yield first so activation and the first paint are never held up by indexing.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const run = this.beginFullRun();
      const result = guardIndexAsync<Snapshot | Promise<Snapshot>>(
        () => this.fullRun(run),
        (error) => this.endFullRunUnread(run, error),
        this.failureUi,
      ).then((snapshot) => snapshot);
      // (`then`: an overtaken run's result is the newest run's promise, which it adopts.)
      this.newestRun = result;
      return result;
    });
  }

  /** A new full run's own state; the full runs still reading end now. */
  private beginFullRun(): FullRun {
    const stalls = new FullIndexStalls(this.progress.event, this.log, (timings) => this.fullRuns.fire(timings));
    const folders = fileFolders();
    const cacheDir = this.cacheDirectory.usableWith(folders);
    // Watch before reading: a change made while bundles load is replayed on the result.
    const number = this.fullIndexRuns.begin();
    // What older full runs still read is moot (a refresh, a settings change or a folder added meanwhile):
    // they end now, a worker's thread with them, rather than read everything on the cores this run needs.
    for (const older of [...this.reading]) older.dispose();
    return { number, folders, cacheDir, stalls };
  }

  /** Reads everything, then publishes it with the changes seen meanwhile replayed; runs inside `refreshAll`'s guard. */
  private async fullRun(run: FullRun): Promise<Snapshot> {
    // Inside the guard: a store location that cannot be resolved (no home, no
    // SKILLGATE_STATE_DIR) throws here, and must end in the fallback's published
    // snapshot and a message, not a first index that never publishes.
    const options = fullIndexOptions(run.folders, () => this.store.dir, run.cacheDir);
    const started = performance.now();
    let index = this.indexStarter.start(options);
    let loaded = await this.indexAllIn(index, run.folders);
    if (!loaded && !this.disposed && !this.fullIndexRuns.overtaken(run.number)) {
      // The worker failed: the same run, in the extension host (which never fails that way).
      index = new InHostIndex(options);
      loaded = await this.indexAllIn(index, run.folders);
    }
    if (!loaded || this.disposed) {
      // Disposed while it read (the window closed or reloaded, the extension deactivated).
      index.dispose();
      return this.endFullRunUnread(run);
    }
    const indexMs = performance.now() - started;
    run.stalls.loaded();
    const changed = this.fullIndexRuns.finish(run.number);
    if (!changed) {
      index.dispose();
      run.stalls.end();
      return this.overtaken(run) ?? this.shown.current ?? loaded.snapshot;
    }
    this.index?.dispose();
    this.index = index;
    const indexed = await workerFailureAside(this.replayed(index, changed, loaded));
    if (!indexed) {
      // The worker failed while the changes seen meanwhile were replayed (or a newer full index
      // replaced it): the index that replaced it publishes. Neither an error nor an empty snapshot.
      run.stalls.end();
      return this.disposed ? this.endFullRunUnread(run) : this.published();
    }
    const snapshot = this.shown.publish(indexed.snapshot);
    // The view, Problems and the status bar take their turns first; the full index's figures include them.
    await this.shown.presented;
    await nextTurn();
    this.watcher.watch(run.folders, indexed.watched);
    this.startRechecks(index);
    run.stalls.reportOnceShown(snapshot, indexMs, index);
    return snapshot;
  }

  /** A run a newer one overtook publishes nothing, not even an empty first snapshot: it resolves to the newest's. */
  private overtaken(run: FullRun): Promise<Snapshot> | undefined {
    return this.fullIndexRuns.overtaken(run.number) && !this.disposed ? this.newestRun : undefined;
  }

  /** A full run that ends with nothing read to show; `error`: why it failed (none: it was ended, not failed). */
  private endFullRunUnread(run: FullRun, error?: unknown): Snapshot | Promise<Snapshot> {
    // A failed run ends here, so later changes are not held for a result that never comes.
    this.fullIndexRuns.finish(run.number);
    run.stalls.end();
    const newest = this.overtaken(run);
    if (newest) return newest;
    const none: Snapshot = { generation: 0, workspaces: run.folders, items: [], diagnostics: [], trustProblem: null };
    // No complete index to keep showing: the view says that indexing failed, and why, not that nothing was found.
    if (error !== undefined && !this.shown.showsIndex()) return this.shown.publish(none, indexFailureReason(error));
    return this.shown.current ?? this.shown.publish(none);
  }

  /**
   * One full index on `index`, watchers first. Undefined when the worker failed (logged;
   * the caller runs it again in the extension host) or the service ended it (`dispose`);
   * the core's own failures are thrown, as in-host.
   */
  private async indexAllIn(index: IndexBackend, folders: string[]): Promise<Indexed | undefined> {
    this.reading.add(index);
    try {
      this.watcher.watch(folders, await index.watched());
      return await loggedIndexRunAsync(this.log, 'full index', () =>
        index.indexAll((done, total) => this.progress.fire({ done, total })),
      );
    } catch (e) {
      index.dispose();
      // A failed worker, or an index a newer full run ended (refreshAll).
      if (e instanceof IndexEnded) return undefined;
      throw e;
    } finally {
      this.reading.delete(index);
    }
  }

  /** Starts the first index's worker thread now, the turn after activation (flows/indexStarter.ts). */
  prestartIndex(): void {
    this.indexStarter.prestart();
  }

  /** Re-derives decisions after a trust change (ours or another window's), without reading bundles. */
  async rederive(): Promise<Snapshot | undefined> {
    // A full index reading now may have composed its snapshot before the change: it re-derives
    // on its result, as for a change the store's watcher reports (which may stay silent).
    this.fullIndexRuns.record([], true);
    const index = this.index;
    if (!index) return undefined;
    return guardIndexAsync(
      async () => {
        const snapshot = this.publishFrom(
          index,
          await workerFailureAside(loggedIndexRunAsync(this.log, 'decisions re-derived', () => index.snapshot())),
        );
        await this.shown.presented;
        return snapshot;
      },
      () => this.shown.current,
      this.failureUi,
    );
  }

  lifecycle(): LifecycleContext {
    return { store: this.store, workspaceTrusted: vscode.workspace.isTrusted };
  }

  review(item: Item) {
    return review(item, this.lifecycle());
  }

  /** Trusts the token shown to the user after `confirm` (trustFlow.ts), reading the bundle once. */
  trust(item: Item, token: string, confirm: (preview: TrustPreview) => Promise<boolean>) {
    return this.changeStore('trust', item, () => trustShown(item, token, this.lifecycle(), confirm));
  }

  enable(item: Item) {
    return this.changeStore('enable', item, () => enable(item, this.lifecycle()));
  }

  disable(item: Item) {
    return this.changeStore('disable', item, () => disable(item, this.lifecycle()));
  }

  revoke(item: Item) {
    return this.changeStore('revoke', item, () => revoke(item, this.lifecycle()));
  }

  /** A trust-store change, logged, then shown at once by re-deriving decisions (flows/storeChange.ts). */
  private changeStore<R extends StoreChangeResult>(
    operation: string,
    item: Item,
    change: () => Promise<R>,
  ): Promise<R> {
    return storeChange(this.log, operation, item, change, () => this.rederive());
  }

  doctor() {
    return doctor(this.store);
  }

  install(manifest: string, workspace: string) {
    return pluginInstaller().installPlugin(manifest, workspace, {});
  }

  /**
   * Publishes what `index` produced, unless a newer full run replaced it meanwhile (its
   * result would be older than what is shown); a failed worker's result is dropped too,
   * the in-host run that replaces it publishes.
   */
  private publishFrom(index: IndexBackend, indexed: Indexed | undefined): Snapshot | undefined {
    return indexed && this.index === index ? this.shown.publish(indexed.snapshot) : this.shown.current;
  }

  private flush(paths: string[], storeChanged: boolean): void {
    const index = this.index;
    const held = this.fullIndexRuns.record(paths, storeChanged);
    this.log.info(
      `watcher batch: ${paths.length} path(s)${storeChanged ? ', trust store changed' : ''}${held ? ' (replayed on the running full index)' : ''}`,
    );
    // Before the hold: a directory made while a full run reads needs its watcher now, not at the next batch.
    if (paths.length) this.watcher.watchNewDirectories(paths);
    if (held || !index) return;
    // Runs from a timer: nothing may escape into the extension host.
    void guardIndexAsync(
      async () => {
        // The same replay as on a full run's result, here on what `index` holds.
        await this.showReplayed(index, { paths, storeChanged }, undefined);
      },
      () => undefined,
      this.failureUi,
    ).catch(() => undefined);
  }

  /** Re-checks `index`'s full index from now on (flows/rechecks.ts), instead of any earlier index's. */
  private startRechecks(index: IndexBackend): void {
    // Disposed meanwhile: `dispose` has stopped the re-checks already.
    if (this.disposed) return;
    this.rechecks.start({
      run: (phase, first) => this.recheck(index, phase, first),
      current: () => this.index === index,
    });
  }

  /**
   * Reads everything once more (flows/recheckSchedule.ts), in the window after a full index
   * with the watchers set up again first; shows the result only when it differs from what
   * is shown. It is a full run: what the watchers report meanwhile is replayed on its
   * result, and a newer full index, running or done, makes it moot (that one has its own
   * re-checks). Resolves to the milliseconds it took and whether the disk differed from
   * what was shown, or undefined when it did not run. `first`: the full index's first.
   */
  private async recheck(index: IndexBackend, phase: RecheckPhase, first: boolean): Promise<RecheckRun | undefined> {
    if (this.index !== index || this.fullIndexRuns.running) return undefined;
    const run = this.fullIndexRuns.begin();
    const started = performance.now();
    let differed = false;
    await guardIndexAsync(
      async () => {
        const read = phase === 'window' ? this.watchAgainThenRead(index) : index.recheck();
        const outcome = await read.then(
          (indexed) => ({ indexed }),
          (e: unknown) => ({ failure: e }),
        );
        // A failed re-check ends the run too, so later changes are not held for a result that never comes.
        const changed = this.fullIndexRuns.finish(run);
        if ('failure' in outcome) {
          // A failed worker has already handed the index to the extension host, which reads everything again.
          if (outcome.failure instanceof IndexEnded) return;
          throw outcome.failure;
        }
        const { indexed } = outcome;
        if (!changed || this.index !== index) return;
        differed = indexed !== undefined;
        logRecheck(this.log, phase, first, indexed, performance.now() - started);
        await this.showReplayed(index, changed, indexed);
      },
      () => undefined,
      this.failureUi,
    ).catch(() => undefined);
    return { ms: performance.now() - started, differed };
  }

  /**
   * Shows `result` with the watchers' changes replayed on it (`replayed`), and watches what
   * it newly names; a worker that fails meanwhile leaves it to the in-host index that replaces it.
   */
  private async showReplayed(
    index: IndexBackend,
    changed: ChangesDuringRun,
    result: Indexed | undefined,
  ): Promise<void> {
    const replayed = await workerFailureAside(this.replayed(index, changed, result));
    if (!replayed) return;
    this.publishFrom(index, replayed);
    this.watchWhatItNames(index, replayed.watched);
  }

  /**
   * What a result becomes once the changes the watchers reported are replayed on it (during
   * a full run, flows/fullIndexRuns.ts, or in a batch since): the changed paths re-read, or
   * decisions re-derived after a trust-store change, or the result itself.
   */
  private replayed<T extends Indexed | undefined>(
    index: IndexBackend,
    changed: ChangesDuringRun,
    result: T,
  ): Promise<Indexed | T> {
    if (changed.paths.length > 0)
      return loggedIndexRunAsync(this.log, 'incremental index', () => index.refresh(changed.paths));
    if (changed.storeChanged) return loggedIndexRunAsync(this.log, 'decisions re-derived', () => index.snapshot());
    return Promise.resolve(result);
  }

  /** What `index`'s latest result names beyond the current watchers gets watchers too (`WorkspaceWatcher.watchWhatItNames`). */
  private watchWhatItNames(index: IndexBackend, watched: Watched): void {
    if (this.index === index) this.watcher.watchWhatItNames(watched);
  }

  /** New watchers first, so a change made while everything is read again is reported if the read misses it. */
  private async watchAgainThenRead(index: IndexBackend): Promise<Indexed | undefined> {
    const watched = await index.watched();
    if (this.index === index) this.watcher.watchAgain(watched);
    return index.recheck();
  }

  dispose(): void {
    this.disposed = true;
    this.rechecks.stop();
    // The pending batch, then the workbench's watchers, then the subtrees' (WorkspaceWatcher.dispose).
    this.watcher.dispose();
    for (const d of this.disposables) d.dispose();
    this.index?.dispose();
    this.index = undefined;
    for (const index of this.reading) index.dispose();
    this.indexStarter.dispose();
    this.shown.dispose();
    this.progress.dispose();
    this.fullRuns.dispose();
  }
}

/** One full run's own state, which its steps share. */
interface FullRun {
  /** Its number in `FullIndexRuns`: a newer run overtakes it. */
  readonly number: number;
  readonly folders: string[];
  /** The parse cache's directory for these folders (none: a folder holds it). */
  readonly cacheDir: string | undefined;
  /** The extension host's stalls while it reads, and its timings once shown. */
  readonly stalls: FullIndexStalls;
}

/** A step on the worker that failed gives nothing: the failure is logged once, and a full in-host index replaces the worker's. */
async function workerFailureAside<T>(step: Promise<T>): Promise<T | undefined> {
  try {
    return await step;
  } catch (e) {
    if (e instanceof IndexEnded) return undefined;
    throw e;
  }
}

/** The folders of this window that are on this disk: what is indexed. */
function fileFolders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}
