/** How long after a full index the re-checks go on, unless a watcher reports a change first. */
export const RECHECK_WINDOW_MS = 60_000;
/** The fewest milliseconds from one re-check to the next. */
export const RECHECK_MIN_INTERVAL_MS = 3_000;
/** At most this share of the time between re-checks is spent re-reading (each waits ten times what the last took). */
export const RECHECK_SHARE = 0.1;

/**
 * When the re-checks after a full index run (skillgateService.ts `recheck`: the watchers
 * set up again, everything read once more). In code-server, right after a window reload,
 * VS Code's watchers reported nothing for 5 to more than 26 s, then reported again: a
 * bundle changed meanwhile kept showing what the index had read, trust included. The
 * re-checks cover that time without knowing its length: one every few seconds, spaced
 * so that re-reading takes at most RECHECK_SHARE of it (a large workspace is re-read
 * less often), for RECHECK_WINDOW_MS. A change a watcher reports shows that the
 * watchers run: the re-checks end there.
 */
export class RecheckSchedule {
  private readonly endsAt: number;
  private over = false;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.endsAt = now() + RECHECK_WINDOW_MS;
  }

  /** Milliseconds until the next re-check, or undefined when they are over. `lastMs`: what the last one took. */
  next(lastMs = 0): number | undefined {
    if (this.over) return undefined;
    const delay = Math.max(RECHECK_MIN_INTERVAL_MS, lastMs / RECHECK_SHARE);
    if (this.now() + delay > this.endsAt) {
      this.over = true;
      return undefined;
    }
    return delay;
  }

  /** A watcher reported a change: the watchers run, no more re-checks. */
  watchersReported(): void {
    this.over = true;
  }
}
