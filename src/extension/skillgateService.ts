import * as path from 'node:path';
import * as vscode from 'vscode';
import { windowUi } from './windowUi';
import { WorkspaceWatcher } from './workspaceWatcher';
import { TrustStore } from '../core/trust/trustStore';
import { cacheRefusal } from '../core/cache/cacheInWorkspace';
import { review } from '../core/trust/reviewBundle';
import { trustShown, type TrustPreview } from '../core/trust/grantTrust';
import { disable, enable, revoke } from '../core/trust/switches';
import { doctor } from '../core/trust/doctor';
import type { LifecycleContext } from '../core/trust/lifecycle';
import { codewhaleHome, evaHome, evaRuntime, evaUserSkills, stateDirectory, steadyRecheckInterval } from './settings';
import { pluginInstaller } from '../core/systems/registry';
import { FullIndexRuns, type ChangesDuringRun } from './flows/fullIndexRuns';
import { RecheckSchedule, type RecheckPhase } from './flows/recheckSchedule';
import { Rechecks, type RecheckRun } from './flows/rechecks';
import { logRecheck, logRecheckWindow } from './flows/recheckLog';
import { guardIndexAsync, indexFailureReason, type IndexFailureUi } from './flows/indexGuard';
import { loggedIndexRunAsync } from './flows/indexRunLog';
import { IndexEnded, InHostIndex, type BackendOptions, type IndexBackend } from './flows/indexBackend';
import { WorkerIndex } from './flows/workerIndex';
import { StallSampler } from './flows/hostPerf';
import { nextTurn } from './flows/turns';
import { safeLog } from './text/logText';
import type { Indexed, Watched } from './flows/snapshotTransfer';
import type { LogPort } from './flows/ports';
import type { Snapshot } from '../core/index/snapshot';
import type { Item } from '../core/model';
import { displayText } from '../core/text/displayText';

/** How long after a full index's snapshot was shown (tree, Problems, status bar) the stall sampler keeps running: the workbench asks the tree for its rows then. */
const STALL_TAIL_MS = 500;

/** The index worker's bundle, beside the extension's (esbuild.mjs). */
const WORKER_SCRIPT = path.join(__dirname, 'indexWorker.js');

/** A new snapshot, and how a listener that shows it over several event-loop turns says when it is done. */
export interface SnapshotChange {
  readonly previous: Snapshot | undefined;
  readonly snapshot: Snapshot;
  /**
   * Why no index could be read: the first full index failed (and each one since). The
   * snapshot is then empty, which stands for no index, never for a workspace without
   * agent configuration (tree/indexFailureText.ts). The error's own words, unescaped.
   */
  readonly failure: string | undefined;
  /** The full index, `refresh` and a trust change resolve only once `p` has settled. */
  readonly waitUntil: (p: Promise<unknown>) => void;
}

/** What a full index took, for the editor's figures (flows/hostPerf.ts). */
export interface FullIndexRun {
  readonly snapshot: Snapshot;
  readonly indexMs: number;
  readonly indexedIn: 'worker' | 'extension host';
  /** The longest event-loop stall from the start of the run until STALL_TAIL_MS after its snapshot was shown. */
  readonly longestStallMs: number;
  /** The most CPU time the extension host's thread ran in one turn over the same span (Linux; flows/hostPerf.ts). */
  readonly busiestTurnCpuMs?: number;
  /** Both figures from the moment every unit was loaded: taking the snapshot in and showing it. */
  readonly presenting?: { readonly stallMs: number; readonly busiestTurnCpuMs?: number };
}

/**
 * Owns the core indexer and the shared trust store for this window, watches the disk
 * (workspaceWatcher.ts), and publishes each new snapshot. Everything in the editor
 * renders these snapshots; nothing here decides anything.
 */
export class SkillgateService implements vscode.Disposable {
  /** The index that the watchers' changes go to: the last full run's (none before it finishes). */
  private index: IndexBackend | undefined;
  /** Set once a worker failed: every later index runs in the extension host (or always, with SKILLGATE_INDEX_IN_HOST=1). */
  private inHostOnly = process.env.SKILLGATE_INDEX_IN_HOST === '1';
  /** Opened on first use, from the settings as they are then: reading the configuration is no part of activation (its first read in a window builds the whole configuration model). */
  private openedStore: TrustStore | undefined;
  private current: Snapshot | undefined;
  /** Set while `current` is no index but a failed first one's stand-in (`SnapshotChange.failure`). */
  private failure: string | undefined;
  /** Settles with the first published snapshot (see `published`). */
  private readonly first: Promise<Snapshot>;
  private settleFirst: (snapshot: Snapshot) => void = () => undefined;
  private readonly changed = new vscode.EventEmitter<SnapshotChange>();
  /** A new snapshot; what shows it may take several event-loop turns, and says when it is done with `waitUntil`. */
  readonly onDidChangeSnapshot = this.changed.event;
  /** Settles once what shows the last published snapshot is done (`SnapshotChange.waitUntil`). */
  private presented: Promise<unknown> = Promise.resolve();
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
  /** The re-checks of the last full index (flows/rechecks.ts), until a newer one starts its own. */
  private rechecks: Rechecks | undefined;
  /** The first index's worker, started right after activation and not yet opened (`prestartIndex`). */
  private prestarted: WorkerIndex | undefined;
  /** Whether the window had the focus at its last state change (`Rechecks.focusRegained`). */
  private windowFocused = vscode.window.state.focused;
  /** An index failure: shown, and logged with the rest. */
  private readonly failureUi: IndexFailureUi;
  /** Why the cache directory was last refused (usableCacheDir), so the log says it once. */
  private cacheRefusal: string | undefined;
  /** The window let the service go: nothing is read, watched or shown from then on. */
  private disposed = false;
  /** The indexes of full runs still reading everything: a worker among them is a thread, ended with the service or a newer run. */
  private readonly reading = new Set<IndexBackend>();
  /** The newest full run's result: what a run it overtook resolves to. */
  private newestRun: Promise<Snapshot> | undefined;

  /** What the service logs, every message escaped (text/logText.ts): errors name a repository's files. */
  private readonly log: LogPort;

  /** `cacheDir`: the parse cache's directory, in the extension's global storage (a window starts warm). */
  constructor(
    log: LogPort,
    private readonly cacheDir?: string,
  ) {
    this.log = safeLog(log);
    this.watcher = new WorkspaceWatcher(
      this.log,
      () => this.store,
      (paths, store) => this.flush(paths, store),
    );
    this.first = new Promise((resolve) => (this.settleFirst = resolve));
    this.failureUi = {
      error: (message) => {
        this.log.error(message);
        // The error's text can name a repository's file (`ENOENT: …, open '<path>'`): shown escaped, as every notification.
        windowUi.error(message);
      },
      showsIndex: () => this.showsIndex(),
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
      vscode.window.onDidChangeWindowState((state) => {
        // The state also changes with the user's activity (`active`) while the focus stays.
        const regained = state.focused && !this.windowFocused;
        this.windowFocused = state.focused;
        if (regained) this.rechecks?.focusRegained();
      }),
    );
  }

  get snapshot(): Snapshot | undefined {
    return this.current;
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
    return this.current ? Promise.resolve(this.current) : this.first;
  }

  private get store(): TrustStore {
    // Refused inside a folder of this window (trust.md): the repository could commit receipts there.
    return (this.openedStore ??= new TrustStore(stateDirectory(), { workspaces: fileFolders }));
  }

  /**
   * The cache directory, unless it lies in a folder of this window (after links): the
   * repository could plant parse-cache entries or bytecode there (cacheInWorkspace.ts). The
   * index then goes on without a cache, and the log says so once for each such place.
   */
  private usableCacheDir(folders: readonly string[]): string | undefined {
    if (this.cacheDir === undefined) return undefined;
    const refused = cacheRefusal(this.cacheDir, folders);
    if (refused === undefined) return this.cacheDir;
    const refusal = `${refused}; indexing without a cache`;
    if (refusal !== this.cacheRefusal) this.log.warn(refusal);
    this.cacheRefusal = refusal;
    return undefined;
  }

  /** Re-reads every folder; runs after activation returns, with progress in the view (`viewId`). */
  async refreshAll(): Promise<Snapshot> {
    return vscode.window.withProgress({ location: { viewId: 'skillgate.items' } }, async () => {
      // Yield first so activation and the first paint are never held up by indexing.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const stalls = new StallSampler();
      // Every unit loaded: what the host does from here on is taking the snapshot in and showing it.
      const loadsDone = this.progress.event(({ done, total }) => {
        if (done >= total) stalls.mark();
      });
      const folders = fileFolders();
      const cacheDir = this.usableCacheDir(folders);
      // Watch before reading: a change made while bundles load is replayed on the result.
      const run = this.fullIndexRuns.begin();
      // What older full runs still read is moot (a refresh, a settings change or a folder added meanwhile):
      // they end now, a worker's thread with them, rather than read everything on the cores this run needs.
      for (const older of [...this.reading]) older.dispose();
      /** A run a newer one overtook publishes nothing, not even an empty first snapshot: it resolves to the newest's. */
      const overtaken = (): Promise<Snapshot> | undefined =>
        this.fullIndexRuns.overtaken(run) && !this.disposed ? this.newestRun : undefined;
      /** `error`: why the run failed (none: it was ended, not failed). */
      const fallback = (error?: unknown): Snapshot | Promise<Snapshot> => {
        // A failed run ends here, so later changes are not held for a result that never comes.
        this.fullIndexRuns.finish(run);
        loadsDone.dispose();
        stalls.stop();
        const newest = overtaken();
        if (newest) return newest;
        const none: Snapshot = { generation: 0, workspaces: folders, items: [], diagnostics: [], trustProblem: null };
        // No complete index to keep showing: the view says that indexing failed, and why, not that nothing was found.
        if (error !== undefined && !this.showsIndex()) return this.publish(none, indexFailureReason(error));
        return this.current ?? this.publish(none);
      };
      const result = guardIndexAsync<Snapshot | Promise<Snapshot>>(
        async () => {
          // Inside the guard: a store location that cannot be resolved (no home, no
          // SKILLGATE_STATE_DIR) throws here, and must end in the fallback's published
          // snapshot and a message, not a first index that never publishes.
          const options: BackendOptions = {
            workspaces: folders,
            codewhaleHome: codewhaleHome(),
            evaHome: evaHome(),
            evaUserSkills: evaUserSkills(),
            evaRuntime: evaRuntime(),
            rivumiHooksEnv: process.env.RIVUMI_ENABLE_PROJECT_HOOKS,
            workspaceTrusted: vscode.workspace.isTrusted,
            stateDir: this.store.dir,
            ...(cacheDir !== undefined ? { cacheDir } : {}),
          };
          const started = performance.now();
          let index = this.startIndex(options);
          let loaded = await this.indexAllIn(index, folders);
          if (!loaded && !this.disposed && !this.fullIndexRuns.overtaken(run)) {
            // The worker failed: the same run, in the extension host (which never fails that way).
            index = new InHostIndex(options);
            loaded = await this.indexAllIn(index, folders);
          }
          if (!loaded || this.disposed) {
            // Disposed while it read (the window closed or reloaded, the extension deactivated).
            index.dispose();
            return fallback();
          }
          const indexMs = performance.now() - started;
          stalls.mark();
          loadsDone.dispose();
          const changed = this.fullIndexRuns.finish(run);
          if (!changed) {
            index.dispose();
            stalls.stop();
            return overtaken() ?? this.current ?? loaded.snapshot;
          }
          this.index?.dispose();
          this.index = index;
          const indexed = await workerFailureAside(this.replayed(index, changed, loaded));
          if (!indexed) {
            // The worker failed while the changes seen meanwhile were replayed (or a newer full index
            // replaced it): the index that replaced it publishes. Neither an error nor an empty snapshot.
            stalls.stop();
            return this.disposed ? fallback() : this.published();
          }
          const snapshot = this.publish(indexed.snapshot);
          // The view, Problems and the status bar take their turns first; the full index's figures include them.
          await this.presented;
          await nextTurn();
          this.watcher.watch(folders, indexed.watched);
          this.startRechecks(index);
          setTimeout(() => {
            const longestStallMs = stalls.stop();
            const busiestTurnCpuMs = stalls.busiestTurnCpuMs;
            const presenting = stalls.sinceMark;
            const indexedIn = index instanceof WorkerIndex ? 'worker' : 'extension host';
            const busiest =
              busiestTurnCpuMs === undefined ? '' : ` (busiest turn ${Math.round(busiestTurnCpuMs)} ms of CPU)`;
            this.log.info(
              `full index in the ${indexedIn}: longest extension-host stall ${Math.round(longestStallMs)} ms${busiest}`,
            );
            this.fullRuns.fire({
              snapshot,
              indexMs,
              indexedIn,
              longestStallMs,
              ...(busiestTurnCpuMs === undefined ? {} : { busiestTurnCpuMs }),
              ...(presenting ? { presenting } : {}),
            });
          }, STALL_TAIL_MS);
          return snapshot;
        },
        fallback,
        this.failureUi,
      ).then((snapshot) => snapshot);
      // (`then`: an overtaken run's result is the newest run's promise, which it adopts.)
      this.newestRun = result;
      return result;
    });
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

  /**
   * Starts the first index's worker thread now (the turn after activation), before the
   * settings its options need are read: its bootstrap and the core's load overlap the rest
   * of the window's start. The first full index opens it (`startIndex`).
   */
  prestartIndex(): void {
    if (!this.inHostOnly && !this.prestarted) this.prestarted = this.newWorker();
  }

  /** A worker for the index, unless workers failed here before or cannot start: then the extension host. */
  private startIndex(options: BackendOptions): IndexBackend {
    const prestarted = this.prestarted;
    this.prestarted = undefined;
    const worker = prestarted ?? (this.inHostOnly ? undefined : this.newWorker());
    // A prestarted worker that failed since has set `inHostOnly`.
    if (!worker || this.inHostOnly) {
      worker?.dispose();
      return new InHostIndex(options);
    }
    return worker.open(options);
  }

  /** A new index worker thread; undefined (and in-host from now on) when none can start. */
  private newWorker(): WorkerIndex | undefined {
    // Its code cache is read as it starts: never from a folder of this window.
    const cacheDir = this.usableCacheDir(fileFolders());
    try {
      return WorkerIndex.start(WORKER_SCRIPT, cacheDir !== undefined ? { cacheDir } : {}, (failure, worker) => {
        this.inHostOnly = true;
        this.log.warn(`${failure.message}; indexing in the extension host from now on`);
        // The index the watchers feed is gone: read everything again, in-host.
        if (this.index === worker) {
          this.index = undefined;
          void this.refreshAll();
        }
      });
    } catch (e) {
      this.inHostOnly = true;
      this.log.warn(
        `the index worker cannot start (${e instanceof Error ? e.message : String(e)}); indexing in the extension host`,
      );
      return undefined;
    }
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
        await this.presented;
        return snapshot;
      },
      () => this.current,
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
    return this.storeChange('trust', item, () => trustShown(item, token, this.lifecycle(), confirm));
  }

  enable(item: Item) {
    return this.storeChange('enable', item, () => enable(item, this.lifecycle()));
  }

  disable(item: Item) {
    return this.storeChange('disable', item, () => disable(item, this.lifecycle()));
  }

  revoke(item: Item) {
    return this.storeChange('revoke', item, () => revoke(item, this.lifecycle()));
  }

  /** A trust-store change, logged with its time or its refusal, and shown at once, without waiting for the store watcher. */
  private async storeChange<R extends { readonly ok: true } | { readonly ok: false; readonly message: string }>(
    operation: string,
    item: Item,
    change: () => Promise<R>,
  ): Promise<R> {
    const started = performance.now();
    const r = await change();
    const what = `trust store: ${operation} ${displayText(item.name)}`;
    const ms = Math.round(performance.now() - started);
    if (r.ok) this.log.info(`${what} in ${ms} ms`);
    else this.log.warn(`${what} refused after ${ms} ms: ${displayText(r.message)}`);
    await this.rederive();
    return r;
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
    return indexed && this.index === index ? this.publish(indexed.snapshot) : this.current;
  }

  /** Whether the view shows a complete index (none yet, or only a failed first one's stand-in: no). */
  private showsIndex(): boolean {
    return this.current !== undefined && this.failure === undefined;
  }

  /** `failure`: the snapshot stands for no index, which failed for this reason (`SnapshotChange.failure`). */
  private publish(snapshot: Snapshot, failure?: string): Snapshot {
    if (this.disposed) return snapshot;
    const previous = this.current;
    this.failure = failure;
    if (snapshot.trustProblem && snapshot.trustProblem !== previous?.trustProblem)
      this.log.error(`trust store unavailable, every bundle fails closed: ${displayText(snapshot.trustProblem)}`);
    this.current = snapshot;
    this.settleFirst(snapshot);
    const presenting: Promise<unknown>[] = [];
    this.changed.fire({ previous, snapshot, failure, waitUntil: (p) => presenting.push(p) });
    this.presented = Promise.all(presenting);
    return snapshot;
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
    this.stopRechecks();
    if (this.disposed) return;
    this.rechecks = new Rechecks(new RecheckSchedule(steadyRecheckInterval), {
      run: (phase, first) => this.recheck(index, phase, first),
      current: () => this.index === index,
      windowEnded: (runs, differed) => logRecheckWindow(this.log, runs, differed),
    });
  }

  private stopRechecks(): void {
    this.rechecks?.dispose();
    this.rechecks = undefined;
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
    this.stopRechecks();
    // The pending batch, then the workbench's watchers, then the subtrees' (WorkspaceWatcher.dispose).
    this.watcher.dispose();
    for (const d of this.disposables) d.dispose();
    this.index?.dispose();
    this.index = undefined;
    for (const index of this.reading) index.dispose();
    this.prestarted?.dispose();
    this.changed.dispose();
    this.progress.dispose();
    this.fullRuns.dispose();
  }
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
