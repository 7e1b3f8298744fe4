import type { Indexer } from '../../core/index/indexer';
import { backendIndexer, watchedBy } from './indexBackend';
import type { WorkerReply, WorkerRequest } from './indexWorkerProtocol';
import { sameIndexed } from './sameIndexed';
import { SnapshotSender, type Indexed } from './snapshotTransfer';

/** The fewest milliseconds between two progress replies: the host shows each in the view, the workbench draws it. */
const PROGRESS_INTERVAL_MS = 100;
/**
 * Parts of a snapshot sent ahead of the host's asks: the worker serializes the next while
 * the host decodes one. Never more: a port hands the host every queued message in one
 * turn, so this bounds the parts one of its turns can take.
 */
const PARTS_AHEAD = 2;

/**
 * The worker's side of its channel to the host: the thread's `parentPort`, or in the unit
 * tests one end of a `MessageChannel` in their own thread, where a mutation tester reaches it.
 */
export interface ServicePort {
  on(event: 'message', listener: (request: WorkerRequest) => void): unknown;
  postMessage(reply: WorkerReply): void;
}

/**
 * What the index worker does (indexWorker.ts is its entry): the core indexer, opened with
 * the host's options, answering the host's requests on `port` in order and sending each
 * snapshot in parts (snapshotTransfer.ts). The core is pure, so the same indexer runs here
 * as in the CLI. `afterFirstIndex` runs once the first full index has been sent (the entry
 * writes the core's code cache then, with what the index compiled in it). `exit` ends the
 * worker when a request cannot be served.
 */
export function serveIndex(
  port: ServicePort,
  afterFirstIndex: () => void,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  const sender = new SnapshotSender();
  const post = (reply: WorkerReply) => port.postMessage(reply);
  let indexer: Indexer | undefined;
  /** What the host was sent last, for a re-check to compare with. */
  let lastSent: Indexed | undefined;
  /** The request whose parts are being sent, the parts it may still send before the host asks, and who waits for an ask. */
  let sending: number | undefined;
  let credits = 0;
  let asked: (() => void) | undefined;
  let queue = Promise.resolve();
  let firstIndex: (() => void) | undefined = afterFirstIndex;

  port.on('message', (request: WorkerRequest) => {
    if (request.op === 'next') {
      // An ask for a request whose parts have all been sent is late, not a credit for the next request.
      if (request.id !== sending) return;
      credits++;
      const resume = asked;
      asked = undefined;
      resume?.();
      return;
    }
    // A request the worker cannot serve is not the core's failure: the worker ends, and the host indexes in-host instead.
    queue = queue.then(() => serve(request)).catch(() => exit(1));
  });

  async function serve(request: Exclude<WorkerRequest, { op: 'next' }>): Promise<void> {
    if (request.op === 'open') {
      indexer = backendIndexer(request.options);
      return;
    }
    if (!indexer) throw new Error('the index worker was asked before it was opened');
    const { id } = request;
    if (request.op === 'watched') {
      post({ id, type: 'watched', watched: watchedBy(indexer) });
      return;
    }
    const readsAll = request.op === 'indexAll' || request.op === 'recheck';
    let indexed: Indexed;
    try {
      const snapshot = readsAll
        ? await indexer.indexAllAsync(request.op === 'indexAll' ? progressReplies(id) : undefined, {
            saveCacheLater: true,
          })
        : request.op === 'refresh'
          ? indexer.refresh(request.paths)
          : indexer.snapshot();
      indexed = { snapshot, watched: watchedBy(indexer) };
    } catch (e) {
      post({ id, type: 'failed', message: e instanceof Error ? e.message : String(e) });
      return;
    }
    if (request.op === 'recheck' && lastSent && sameIndexed(lastSent, indexed)) {
      // The host's snapshot reads the same: it keeps it, and later parts refer to it through the new lists.
      sender.adopt(indexed.snapshot);
      post({ id, type: 'unchanged' });
    } else await sendParts(id, indexed);
    lastSent = indexed;
    // The parse cache is written once the host has the tree: at 2,000 bundles its save is
    // about 55 ms the first tree no longer waits for (docs/editor-performance.md).
    if (readsAll) indexer.saveParseCache();
    if (request.op === 'indexAll' && firstIndex) {
      const after = firstIndex;
      firstIndex = undefined;
      after();
    }
  }

  /** Sends `indexed` in parts, PARTS_AHEAD ahead of the host's asks. */
  async function sendParts(id: number, indexed: Indexed): Promise<void> {
    const parts = sender.parts(indexed);
    sending = id;
    credits = PARTS_AHEAD;
    for (const [i, part] of parts.entries()) {
      while (credits === 0) await new Promise<void>((resolve) => (asked = resolve));
      credits--;
      post({ id, type: 'part', part, last: i === parts.length - 1 });
    }
    sending = undefined;
  }

  /** Progress of request `id`: the first and the last always, between them at most one per interval. */
  function progressReplies(id: number): (done: number, total: number) => void {
    let last = -Infinity;
    return (done, total) => {
      const now = performance.now();
      if (done !== 0 && done < total && now - last < PROGRESS_INTERVAL_MS) return;
      last = now;
      post({ id, type: 'progress', done, total });
    };
  }
}
