import { EventEmitter } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import { serveIndex } from '../../src/extension/flows/indexWorkerService';
import type { WorkerReply, WorkerRequest } from '../../src/extension/flows/indexWorkerProtocol';
import type { IndexThread } from '../../src/extension/flows/workerIndex';

/** The index worker's service in the test's own thread. */
export interface InThreadWorker extends IndexThread {
  /** Calls of the service's `afterFirstIndex` so far. */
  readonly firstIndexes: () => number;
}

/**
 * The index worker as a `Worker` has it, without the thread: the service answers on one
 * end of a `MessageChannel` (structured clone, one message per event, as between
 * threads), so the unit tests of its rules run where a mutation tester's mutants are
 * active. An exit the service asks for, or `terminate()`, closes the channel and emits
 * `exit`, as a thread's end does.
 */
export function inThreadWorker(): InThreadWorker {
  const { port1: service, port2: host } = new MessageChannel();
  const events = new EventEmitter();
  let firstIndexes = 0;
  let ended = false;
  const end = (code: number) => {
    if (ended) return;
    ended = true;
    service.close();
    host.close();
    setImmediate(() => events.emit('exit', code));
  };
  serveIndex(service, () => firstIndexes++, end);
  host.on('message', (reply: WorkerReply) => events.emit('message', reply));
  return {
    postMessage: (request: WorkerRequest) => host.postMessage(request),
    on: (event: string, listener: Parameters<typeof events.on>[1]) => events.on(event, listener),
    terminate: () => end(1),
    unref: () => {
      service.unref();
      host.unref();
    },
    firstIndexes: () => firstIndexes,
  };
}
