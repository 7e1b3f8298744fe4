/** How long after a full index the re-checks go on. */
export const RECHECK_WINDOW_MS = 60_000;
/** The fewest milliseconds from one re-check to the next. */
export const RECHECK_MIN_INTERVAL_MS = 3_000;
/** At most this share of the time between re-checks is spent re-reading (each waits ten times what the last took). */
export const RECHECK_SHARE = 0.1;

/**
 * When the re-checks after a full index run (skillgateService.ts `recheck`: the watchers
 * set up again, everything read once more). In code-server, right after a window reload,
 * VS Code's watchers reported nothing, or reported late, for 5 to about 27 s; a report
 * in that time did not mean the next would come (in one run, two writes were reported
 * 13 s after the index, the next five not until 14 s later). A bundle changed then kept
 * showing what the index had read, trust included. The re-checks cover that time
 * without knowing its length, whatever the watchers report: one every few seconds,
 * spaced so that re-reading takes at most RECHECK_SHARE of it (a large workspace is
 * re-read less often), for RECHECK_WINDOW_MS.
 */
export class RecheckSchedule {
  private readonly endsAt: number;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.endsAt = now() + RECHECK_WINDOW_MS;
  }

  /** Milliseconds until the next re-check, or undefined when they are over. `lastMs`: what the last one took. */
  next(lastMs = 0): number | undefined {
    // Every delay is at least RECHECK_MIN_INTERVAL_MS and the clock only moves on: once over, always over.
    const delay = Math.max(RECHECK_MIN_INTERVAL_MS, lastMs / RECHECK_SHARE);
    return this.now() + delay > this.endsAt ? undefined : delay;
  }
}
