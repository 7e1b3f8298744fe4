import { InHostIndex, type BackendOptions, type IndexBackend } from './indexBackend';
import type { LogPort } from './ports';
import { WorkerIndex } from './workerIndex';

/**
 * Where each full index runs: in a worker thread, the first one started right after
 * activation (`prestart`), or in the extension host once a worker failed here or could not
 * start (or always, with SKILLGATE_INDEX_IN_HOST=1).
 */
export class IndexStarter {
  /** Set once a worker failed: every later index runs in the extension host (or always, with SKILLGATE_INDEX_IN_HOST=1). */
  private inHostOnly = process.env.SKILLGATE_INDEX_IN_HOST === '1';
  /** The first index's worker, started right after activation and not yet opened (`prestart`). */
  private prestarted: WorkerIndex | undefined;

  /**
   * `script`: the index worker's bundle. `cacheDir`: the directory a worker's code cache may
   * be read from now. `workerFailed`: a worker failed after it started (already logged).
   */
  constructor(
    private readonly script: string,
    private readonly log: LogPort,
    private readonly cacheDir: () => string | undefined,
    private readonly workerFailed: (worker: WorkerIndex) => void,
  ) {}

  /**
   * Starts the first index's worker thread now (the turn after activation), before the
   * settings its options need are read: its bootstrap and the core's load overlap the rest
   * of the window's start. The first full index opens it (`start`).
   */
  prestart(): void {
    if (!this.inHostOnly && !this.prestarted) this.prestarted = this.newWorker();
  }

  /** A worker for the index, unless workers failed here before or cannot start: then the extension host. */
  start(options: BackendOptions): IndexBackend {
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
    const cacheDir = this.cacheDir();
    try {
      return WorkerIndex.start(this.script, cacheDir !== undefined ? { cacheDir } : {}, (failure, worker) => {
        this.inHostOnly = true;
        this.log.warn(`${failure.message}; indexing in the extension host from now on`);
        this.workerFailed(worker);
      });
    } catch (e) {
      this.inHostOnly = true;
      this.log.warn(
        `the index worker cannot start (${e instanceof Error ? e.message : String(e)}); indexing in the extension host`,
      );
      return undefined;
    }
  }

  /** A prestarted worker no index opened ends with the window. */
  dispose(): void {
    this.prestarted?.dispose();
  }
}
