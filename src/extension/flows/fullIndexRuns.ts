/**
 * Full re-indexes run asynchronously while the watchers keep reporting changes. A
 * change seen during a run may already be in what the run read, or not: it is kept
 * and replayed on the run's result, so a published snapshot is never older than the
 * disk. A run that a newer one overtook (a folder added mid-run) publishes nothing.
 */
export interface ChangesDuringRun {
  readonly paths: readonly string[];
  readonly storeChanged: boolean;
}

export class FullIndexRuns {
  private latest = 0;
  private pending: { paths: Set<string>; storeChanged: boolean } | undefined;

  /** Starts a run; its number is what `finish` takes. */
  begin(): number {
    this.latest++;
    this.pending = { paths: new Set(), storeChanged: false };
    return this.latest;
  }

  /** Whether a run is reading now. */
  get running(): boolean {
    return this.pending !== undefined;
  }

  /** True when a run is reading and keeps the change for its result; false when nothing runs. */
  record(paths: readonly string[], storeChanged: boolean): boolean {
    if (!this.pending) return false;
    for (const p of paths) this.pending.paths.add(p);
    this.pending.storeChanged ||= storeChanged;
    return true;
  }

  /** Whether a newer run began after `run`: what `run` reads is moot, and it publishes nothing. */
  overtaken(run: number): boolean {
    return run !== this.latest;
  }

  /** Ends a run: the changes to replay on its result, or undefined when a newer run overtook it. */
  finish(run: number): ChangesDuringRun | undefined {
    if (run !== this.latest || !this.pending) return undefined;
    const { paths, storeChanged } = this.pending;
    this.pending = undefined;
    return { paths: [...paths], storeChanged };
  }
}
