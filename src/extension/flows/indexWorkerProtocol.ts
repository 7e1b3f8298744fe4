import type { SnapshotPart, Watched } from './snapshotTransfer';

/**
 * The messages between the extension host and the index worker (indexWorker.ts). The
 * worker answers requests in the order they came, one at a time; a snapshot comes in
 * parts, and the host asks for each next part (`next`) once it has taken the previous.
 */
export type WorkerRequest =
  | { readonly id: number; readonly op: 'watched' | 'indexAll' | 'snapshot' }
  | { readonly id: number; readonly op: 'refresh'; readonly paths: readonly string[] }
  | { readonly op: 'next' };

export type WorkerReply =
  | { readonly id: number; readonly type: 'watched'; readonly watched: Watched }
  | { readonly id: number; readonly type: 'progress'; readonly done: number; readonly total: number }
  | { readonly id: number; readonly type: 'part'; readonly part: SnapshotPart; readonly last: boolean }
  /** The core threw: the same failure the in-host index would report. */
  | { readonly id: number; readonly type: 'failed'; readonly message: string };
