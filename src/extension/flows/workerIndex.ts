import { Worker } from 'node:worker_threads';
import { IndexEnded, type BackendOptions, type IndexBackend } from './indexBackend';
import type { IndexWorkerData, WorkerReply, WorkerRequest } from './indexWorkerProtocol';
import { SnapshotReceiver, type Indexed, type Watched } from './snapshotTransfer';

/** The worker could not start, crashed or exited: the caller indexes in the extension host instead. */
export class WorkerFailure extends IndexEnded {}

/**
 * The host's side of the index worker: a `Worker`, or in the unit tests the service on a
 * `MessageChannel` in their own thread (indexWorkerService.ts), answering as the thread does.
 */
export interface IndexThread {
  postMessage(request: WorkerRequest): void;
  on(event: 'message', listener: (reply: WorkerReply) => void): unknown;
  on(event: 'error', listener: (e: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  terminate(): unknown;
  unref(): void;
}

interface Pending {
  readonly resolve: (value: never) => void;
  readonly reject: (e: Error) => void;
  readonly onProgress?: (done: number, total: number) => void;
}

/**
 * The index in a worker thread (indexWorker.ts): the extension host only sends requests
 * and takes snapshots back, a part per event-loop turn, so a full index never holds it.
 * The thread starts with the object, before the indexer's options are known (the service
 * starts one right after activation); `open` gives them, and must come before any request.
 * A worker that fails rejects what is pending with `WorkerFailure` and reports it once
 * through `onFailure`; nothing after that is sent to it.
 */
export class WorkerIndex implements IndexBackend {
  private readonly pending = new Map<number, Pending>();
  private readonly receiver = new SnapshotReceiver();
  private nextId = 1;
  private failure: WorkerFailure | undefined;
  private disposed = false;
  private opened = false;

  /** Starts the worker thread `script` (dist/indexWorker.js); throws when no thread can start. */
  static start(
    script: string,
    data: IndexWorkerData,
    onFailure: (failure: WorkerFailure, worker: WorkerIndex) => void,
  ): WorkerIndex {
    return new WorkerIndex(new Worker(script, { workerData: data }), onFailure);
  }

  constructor(
    private readonly worker: IndexThread,
    private readonly onFailure: (failure: WorkerFailure, worker: WorkerIndex) => void,
  ) {
    // The extension host (or a test run) never waits on the worker to exit.
    this.worker.unref();
    this.worker.on('message', (reply: WorkerReply) => this.receive(reply));
    this.worker.on('error', (e) => this.fail(`the index worker failed: ${e.message}`));
    this.worker.on('exit', (code) => this.fail(`the index worker exited (code ${code})`));
  }

  /** Gives the worker the indexer's options (once, before any request); the worker itself. */
  open(options: BackendOptions): this {
    if (this.opened) throw new Error('the index worker is already open');
    this.opened = true;
    this.post({ op: 'open', options });
    return this;
  }

  watched(): Promise<Watched> {
    return this.request({ op: 'watched' });
  }

  indexAll(onProgress: (done: number, total: number) => void): Promise<Indexed> {
    return this.request({ op: 'indexAll' }, onProgress);
  }

  refresh(paths: readonly string[]): Promise<Indexed> {
    return this.request({ op: 'refresh', paths });
  }

  snapshot(): Promise<Indexed> {
    return this.request({ op: 'snapshot' });
  }

  recheck(): Promise<Indexed | undefined> {
    return this.request({ op: 'recheck' });
  }

  /**
   * Ends the worker. What is still pending is refused with a `WorkerFailure`, which every
   * caller drops as a failed worker's result: a trust action's re-derive asked of a worker
   * that a newer full index replaced would otherwise never settle, and its command with it.
   * Nothing is reported through `onFailure`.
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const pending = [...this.pending.values()];
    this.pending.clear();
    void this.worker.terminate();
    const ended = this.ended();
    for (const p of pending) p.reject(ended);
  }

  /** Why nothing more is answered: the worker's failure, or its end. */
  private ended(): WorkerFailure {
    return this.failure ?? new WorkerFailure('the index worker was disposed');
  }

  private request<T>(
    request: { op: 'watched' | 'indexAll' | 'snapshot' | 'recheck' } | { op: 'refresh'; paths: readonly string[] },
    onProgress?: (done: number, total: number) => void,
  ): Promise<T> {
    if (this.failure || this.disposed) return Promise.reject(this.ended());
    if (!this.opened) return Promise.reject(new Error('the index worker was asked before it was opened'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: never) => void, reject, onProgress });
      this.post({ id, ...request } as WorkerRequest);
    });
  }

  private post(request: WorkerRequest): void {
    try {
      this.worker.postMessage(request);
    } catch (e) {
      this.fail(`the index worker cannot be reached: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private receive(reply: WorkerReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    switch (reply.type) {
      case 'watched':
        this.pending.delete(reply.id);
        pending.resolve(reply.watched as never);
        return;
      case 'unchanged':
        this.pending.delete(reply.id);
        pending.resolve(undefined as never);
        return;
      case 'progress':
        pending.onProgress?.(reply.done, reply.total);
        return;
      case 'failed':
        this.pending.delete(reply.id);
        pending.reject(new Error(reply.message));
        return;
      case 'part': {
        let indexed: Indexed | undefined;
        try {
          this.receiver.add(reply.part);
          if (reply.last) indexed = this.receiver.finish();
        } catch (e) {
          this.fail(e instanceof Error ? e.message : String(e));
          return;
        }
        if (!indexed) {
          // Asked for once this turn has ended, and the worker keeps only two parts ahead: a port drains
          // up to 1,000 queued messages in one turn, and unasked the whole snapshot would come in one,
          // timers and the workbench's requests held meanwhile.
          const { id } = reply;
          setImmediate(() => this.post({ op: 'next', id }));
          return;
        }
        this.pending.delete(reply.id);
        pending.resolve(indexed as never);
      }
    }
  }

  private fail(message: string): void {
    if (this.failure || this.disposed) return;
    this.failure = new WorkerFailure(message);
    for (const p of this.pending.values()) p.reject(this.failure);
    this.pending.clear();
    void this.worker.terminate();
    this.onFailure(this.failure, this);
  }
}
