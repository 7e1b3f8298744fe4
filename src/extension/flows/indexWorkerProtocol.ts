import type { BackendOptions } from './indexBackend';
import type { SnapshotPart, Watched } from './snapshotTransfer';

/**
 * What the worker starts with, before its options are known (it is started right after
 * activation, the window's settings read later): the parse cache's directory, whose
 * `code/` holds the V8 code cache of the core (docs/code-cache.md); none: no cache.
 */
export interface IndexWorkerData {
  readonly cacheDir?: string;
}

/**
 * The messages between the extension host and the index worker (indexWorker.ts). The
 * worker answers requests in the order they came, one at a time; the first is `open`,
 * with the indexer's options. A snapshot comes in parts: the worker sends two ahead, and
 * one more each time the host has taken one (`next`).
 */
export type WorkerRequest =
  | { readonly op: 'open'; readonly options: BackendOptions }
  | { readonly id: number; readonly op: 'watched' | 'indexAll' | 'snapshot' }
  /** A full index again, answered `unchanged` when it reads the same as the snapshot sent last. */
  | { readonly id: number; readonly op: 'recheck' }
  | { readonly id: number; readonly op: 'refresh'; readonly paths: readonly string[] }
  /** The host took a part of request `id`'s snapshot: the worker may send one more. */
  | { readonly op: 'next'; readonly id: number };

export type WorkerReply =
  | { readonly id: number; readonly type: 'watched'; readonly watched: Watched }
  | { readonly id: number; readonly type: 'progress'; readonly done: number; readonly total: number }
  | { readonly id: number; readonly type: 'part'; readonly part: SnapshotPart; readonly last: boolean }
  /** A re-check read the same as the snapshot sent last: nothing is sent. */
  | { readonly id: number; readonly type: 'unchanged' }
  /** The core threw: the same failure the in-host index would report. */
  | { readonly id: number; readonly type: 'failed'; readonly message: string };
