import type { Failure } from './invariants';
import type { FuzzInput } from './input';
import type { MinimalRepro } from './protocol';

/** What the supervisor knows of the input a worker is on, from the worker's messages. */
export interface InputInFlight {
  readonly index: number;
  /** When the watchdog's window started: at the input, again once it is checked. */
  since: number;
  input?: FuzzInput;
  /** The input's own failures, once checked: shrinking them follows. */
  failures?: readonly Failure[];
  /** The shrinking candidate the worker checks last. */
  candidate?: FuzzInput;
}

/** How a worker ended before it was done with an input. */
export type WorkerEnd =
  /** The watchdog killed it, silent for `hangMs`. */
  | { readonly by: 'watchdog'; readonly hangMs: number }
  /** It exited by itself: a crash, an OOM kill, a signal from outside (`cause`: the signal or exit code). */
  | { readonly by: 'death'; readonly cause: string };

/**
 * What a worker that ended mid-input failed. Before the input was checked, the end is the
 * input's: a hang of its check, or a crash while checking it, for `--replay` to reproduce.
 * Once it was checked, its own failures stay, unshrunk with a note (replaying the input
 * reproduces them). A watchdog kill while shrinking is then the candidates' slowness (seconds
 * each on a slow input), no finding; a death is a crash of the product or the harness on a
 * candidate, which `--replay` of the input does not reproduce: it is reported apart, with
 * the candidate as its reproducer.
 */
export function endedMidInput(on: InputInFlight, end: WorkerEnd): { failures: Failure[]; minimal: MinimalRepro[] } {
  if (on.failures === undefined)
    return {
      failures: [
        end.by === 'watchdog'
          ? {
              invariant: 'bounded-time',
              signature: 'hang',
              detail: `no result after ${end.hangMs} ms: the worker was killed`,
            }
          : {
              invariant: 'no-crash',
              signature: `worker died (${end.cause})`,
              detail: `the worker process exited with ${end.cause} while checking the input`,
            },
      ],
      minimal: [],
    };
  const cut =
    end.by === 'watchdog'
      ? ` (not shrunk: the worker was killed ${end.hangMs} ms into shrinking)`
      : ` (not shrunk: the worker died with ${end.cause} after checking the input)`;
  const kept = on.failures.map((f) => ({ ...f, detail: `${f.detail}${cut}` }));
  if (end.by === 'watchdog') return { failures: kept, minimal: [] };
  if (!on.candidate) {
    // An OOM kill or a signal between the check and `done`, or a candidate whose message was lost with the worker.
    const died: Failure = {
      invariant: 'no-crash',
      signature: `worker died (${end.cause}) after checking the input`,
      detail: `the worker process exited with ${end.cause} after checking input ${on.index}, on no shrinking candidate it had told of: --replay of the input may not reproduce it`,
    };
    return { failures: [...kept, died], minimal: [] };
  }
  const died: Failure = {
    invariant: 'no-crash',
    signature: `worker died (${end.cause}) on a shrinking candidate`,
    detail: `the worker process exited with ${end.cause} on a shrinking candidate of input ${on.index}: --replay of the input does not reproduce it; the minimal input below is that candidate`,
  };
  return { failures: [...kept, died], minimal: [{ ...died, input: on.candidate }] };
}
