import type { EventEmitter } from 'node:events';

/** What Ctrl-C and SIGTERM ask of a fuzz run (`runFuzz`'s `stop` and `abandon`). */
export interface StopRequests {
  /** The first: start no input, finish those in flight, print the report of what ran. */
  readonly stop: AbortSignal;
  /** A second: abandon the inputs in flight too, and print that report at once. */
  readonly abandon: AbortSignal;
}

/**
 * npm, tsx and `timeout` pass one Ctrl-C on as two or three signals tens of ms apart (each
 * forwards it to its child, which has it from the process group already): a signal within this
 * long of the first is the same stop.
 */
const SAME_STOP_MS = 1000;

export function stopRequests(
  signals: Pick<EventEmitter, 'on'> = process,
  now: () => number = () => performance.now(),
): StopRequests {
  const stop = new AbortController();
  const abandon = new AbortController();
  let stoppedAt = 0;
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    signals.on(signal, () => {
      if (!stop.signal.aborted) {
        stoppedAt = now();
        stop.abort();
      } else if (now() - stoppedAt > SAME_STOP_MS) abandon.abort();
    });
  return { stop: stop.signal, abandon: abandon.signal };
}
