import { parentPort, workerData } from 'node:worker_threads';
import { backendIndexer, watchedBy, type BackendOptions } from './flows/indexBackend';
import type { WorkerReply, WorkerRequest } from './flows/indexWorkerProtocol';
import { SnapshotSender } from './flows/snapshotTransfer';

/**
 * The index worker (dist/indexWorker.js): the core indexer, off the extension host's
 * thread. The core is pure, so the same indexer runs here as in the CLI; the host sends
 * requests and takes the snapshots back in parts (flows/snapshotTransfer.ts).
 */
const port = parentPort;
if (!port) throw new Error('indexWorker.js runs as a worker thread of the Skillgate extension');
const indexer = backendIndexer(workerData as BackendOptions);
const sender = new SnapshotSender();
const post = (reply: WorkerReply) => port.postMessage(reply);
let taken: (() => void) | undefined;
let queue = Promise.resolve();

port.on('message', (request: WorkerRequest) => {
  if (request.op === 'next') {
    const resume = taken;
    taken = undefined;
    resume?.();
    return;
  }
  // A snapshot that cannot be sent is not the core's failure: the worker ends, and the host indexes in-host instead.
  queue = queue.then(() => serve(request)).catch(() => process.exit(1));
});

async function serve(request: Exclude<WorkerRequest, { op: 'next' }>): Promise<void> {
  const { id } = request;
  if (request.op === 'watched') {
    post({ id, type: 'watched', watched: watchedBy(indexer) });
    return;
  }
  let snapshot;
  try {
    snapshot =
      request.op === 'indexAll'
        ? await indexer.indexAllAsync((done, total) => post({ id, type: 'progress', done, total }))
        : request.op === 'refresh'
          ? indexer.refresh(request.paths)
          : indexer.snapshot();
  } catch (e) {
    post({ id, type: 'failed', message: e instanceof Error ? e.message : String(e) });
    return;
  }
  const parts = sender.parts({ snapshot, watched: watchedBy(indexer) });
  for (const [i, part] of parts.entries()) {
    const last = i === parts.length - 1;
    const next = last ? undefined : new Promise<void>((resolve) => (taken = resolve));
    post({ id, type: 'part', part, last });
    await next;
  }
}
