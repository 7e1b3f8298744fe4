import type { Snapshot } from '../../core/index/snapshot';
import type { LogPort } from './ports';

/**
 * Which kind of index produced a snapshot: every bundle read, the changed ones only,
 * decisions re-derived after a trust change, or every bundle read again by a re-check
 * (after a full index, or when the window regains focus) that found a change.
 */
export type IndexRun =
  'full index' | 'incremental index' | 'decisions re-derived' | 're-check' | 're-check on window focus';

export type Clock = () => number;

const monotonic: Clock = () => performance.now();

export function indexRunLine(run: IndexRun, snapshot: Pick<Snapshot, 'items' | 'diagnostics'>, ms: number): string {
  return `${run}: ${snapshot.items.length} item(s), ${snapshot.diagnostics.length} diagnostic(s) in ${Math.round(ms)} ms`;
}

/** Runs one index step (every index the editor runs, in the worker or in-host) and logs what it produced and how long it took. */
export async function loggedIndexRunAsync<T extends Snapshot | { readonly snapshot: Snapshot }>(
  log: LogPort,
  run: IndexRun,
  step: () => Promise<T>,
  clock: Clock = monotonic,
): Promise<T> {
  const started = clock();
  const result = await step();
  log.info(indexRunLine(run, 'snapshot' in result ? result.snapshot : result, clock() - started));
  return result;
}
