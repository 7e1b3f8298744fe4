import { ParseCache } from '../../core/cache/parseCache';
import { Indexer, type IndexOptions } from '../../core/index/indexer';
import { TrustStore } from '../../core/trust/trustStore';
import { sameIndexed } from './sameIndexed';
import type { Indexed, Watched } from './snapshotTransfer';

/**
 * Where the editor's index runs: in a worker thread (workerIndex.ts), or in the
 * extension host itself, in slices (the fallback when the worker cannot run). Both hold
 * one indexer for the window's options and answer the same requests, in order.
 */
export interface IndexBackend {
  /** What the watchers must cover before anything is read (a change made while reading is then seen). */
  watched(): Promise<Watched>;
  /** Reads everything, reporting bundles loaded so far. */
  indexAll(onProgress: (done: number, total: number) => void): Promise<Indexed>;
  /** Re-reads what the changed paths can affect. */
  refresh(paths: readonly string[]): Promise<Indexed>;
  /** Re-derives decisions without reading bundles (after a trust-store change). */
  snapshot(): Promise<Indexed>;
  /**
   * Reads everything again, as `indexAll`; undefined when that reads the same as the
   * result returned last (the caller keeps what it shows).
   */
  recheck(): Promise<Indexed | undefined>;
  dispose(): void;
}

/**
 * What an index refuses once it was disposed (and what a failed worker rejects with,
 * workerIndex.ts): its answer would be moot, the index that replaced it answers instead.
 */
export class IndexEnded extends Error {}

/**
 * The indexer's options as data: what a worker is started with (the trust store and the
 * parse cache are named by their directories).
 */
export type BackendOptions = Omit<IndexOptions, 'trust' | 'host' | 'readers' | 'parseCache'> & {
  readonly stateDir: string;
  /** The parse cache's directory (docs/parse-cache.md); none: every start parses every bundle. */
  readonly cacheDir?: string;
};

/** The indexer a backend holds: decisions read the trust store at `stateDir` at each snapshot. */
export function backendIndexer(options: BackendOptions): Indexer {
  const { stateDir, cacheDir, ...rest } = options;
  // Refused inside a folder being indexed (trust.md), in the worker as in the host.
  const store = new TrustStore(stateDir, { workspaces: () => rest.workspaces });
  return new Indexer({
    ...rest,
    trust: () => store.view(),
    ...(cacheDir !== undefined ? { parseCache: new ParseCache(cacheDir) } : {}),
  });
}

export function watchedBy(indexer: Indexer): Watched {
  return { paths: indexer.watchedPaths(), trees: indexer.watchedTrees() };
}

/**
 * The index in the extension host: the full index yields to the event loop between slices
 * of bundles. Requests are answered one at a time, in the order they came, as the worker
 * does: a re-derive asked while a re-check reads (a trust action) would otherwise compose
 * from an indexer that has read only some of the bundles again.
 */
export class InHostIndex implements IndexBackend {
  private readonly indexer: Indexer;
  /** The result returned last, for a re-check to compare with. */
  private last: Indexed | undefined;
  /** Set by `dispose`: a full read still running stops at its next slice. */
  private ended = false;
  /** Settles once every request taken so far has been answered. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: BackendOptions) {
    this.indexer = backendIndexer(options);
  }

  watched(): Promise<Watched> {
    return this.inTurn(async () => watchedBy(this.indexer));
  }

  indexAll(onProgress: (done: number, total: number) => void): Promise<Indexed> {
    return this.inTurn(async () => this.indexed(await this.indexer.indexAllAsync(this.whileOpen(onProgress))));
  }

  refresh(paths: readonly string[]): Promise<Indexed> {
    return this.inTurn(async () => this.indexed(this.indexer.refresh(paths)));
  }

  snapshot(): Promise<Indexed> {
    return this.inTurn(async () => this.indexed(this.indexer.snapshot()));
  }

  recheck(): Promise<Indexed | undefined> {
    return this.inTurn(async () => {
      const last = this.last;
      const indexed = this.indexed(await this.indexer.indexAllAsync(this.whileOpen()));
      return last && sameIndexed(last, indexed) ? undefined : indexed;
    });
  }

  /** Runs `request` once every earlier one has settled; a failed one does not hold the next. */
  private inTurn<T>(request: () => Promise<T>): Promise<T> {
    const answer = this.queue.then(() => {
      if (this.ended) throw new IndexEnded('the in-host index was disposed');
      return request();
    });
    this.queue = answer.catch(() => undefined);
    return answer;
  }

  /**
   * A full read's progress, which also ends the read at its next slice once the index is
   * disposed: a full index that a newer one overtook (skillgateService.ts) would otherwise
   * read every bundle on the extension host's thread for a result nobody shows.
   */
  private whileOpen(onProgress?: (done: number, total: number) => void): (done: number, total: number) => void {
    return (done, total) => {
      if (this.ended) throw new IndexEnded('the in-host index was disposed');
      onProgress?.(done, total);
    };
  }

  dispose(): void {
    this.ended = true;
  }

  private indexed(snapshot: Indexed['snapshot']): Indexed {
    return (this.last = { snapshot, watched: watchedBy(this.indexer) });
  }
}
