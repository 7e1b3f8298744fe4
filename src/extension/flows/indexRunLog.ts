import type { Snapshot } from '../../core/index/snapshot';
import type { LogPort } from './ports';

/** Which kind of index produced a snapshot: every bundle read, the changed ones only, or decisions re-derived after a trust change. */
export type IndexRun = 'full index' | 'incremental index' | 'decisions re-derived';

export type Clock = () => number;

const monotonic: Clock = () => performance.now();

export function indexRunLine(run: IndexRun, snapshot: Pick<Snapshot, 'items' | 'diagnostics'>, ms: number): string {
  return `${run}: ${snapshot.items.length} item(s), ${snapshot.diagnostics.length} diagnostic(s) in ${Math.round(ms)} ms`;
}

/** Runs one index step and logs what it produced and how long it took. */
export function loggedIndexRun(log: LogPort, run: IndexRun, step: () => Snapshot, clock: Clock = monotonic): Snapshot {
  const started = clock();
  const snapshot = step();
  log.info(indexRunLine(run, snapshot, clock() - started));
  return snapshot;
}

/** The same for the full index the editor runs in slices. */
export async function loggedIndexRunAsync(
  log: LogPort,
  run: IndexRun,
  step: () => Promise<Snapshot>,
  clock: Clock = monotonic,
): Promise<Snapshot> {
  const started = clock();
  const snapshot = await step();
  log.info(indexRunLine(run, snapshot, clock() - started));
  return snapshot;
}
