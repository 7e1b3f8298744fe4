/** How long after a full index the re-checks go on every few seconds. */
export const RECHECK_WINDOW_MS = 60_000;
/** The fewest milliseconds from one re-check to the next. */
export const RECHECK_MIN_INTERVAL_MS = 3_000;
/** At most this share of the time between re-checks is spent re-reading (each waits ten times what the last took). */
export const RECHECK_SHARE = 0.1;
/** After the window: at most this share (each waits a hundred times what the last took). */
export const STEADY_RECHECK_SHARE = 0.01;
/** The fewest seconds the `skillgate.recheckIntervalSeconds` setting can ask for (0 turns them off). */
export const STEADY_RECHECK_MIN_SECONDS = 10;
/**
 * The longest delay a timer waits: Node runs a longer `setTimeout` after 1 ms, so a huge
 * setting (or a very slow re-read) would otherwise re-read everything in a loop.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Whether a re-check runs in the window after a full index, in the steady phase after it, or because the window regained focus. */
export type RecheckPhase = 'window' | 'steady' | 'focus';

/**
 * When the re-checks after a full index run (skillgateService.ts `recheck`: everything
 * read once more, the result shown only when it differs).
 *
 * The window: in code-server, right after a window reload, VS Code's watchers reported
 * nothing, or reported late, for 5 to about 27 s; a report in that time did not mean the
 * next would come (in one run, two writes were reported 13 s after the index, the next
 * five not until 14 s later). A bundle changed then kept showing what the index had
 * read, trust included. The re-checks cover that time without knowing its length,
 * whatever the watchers report: one every few seconds, spaced so that re-reading takes
 * at most RECHECK_SHARE of it (a large workspace is re-read less often), for
 * RECHECK_WINDOW_MS.
 *
 * The steady phase: a watcher can also stay silent for good. VS Code applies the user's
 * `files.watcherExclude` to extensions' recursive watchers, and inotify's watch limit
 * (`fs.inotify.max_user_watches`) runs out in large trees; either leaves trust shown for
 * bytes that changed, with nothing to tell. So a re-check keeps coming every
 * `steadyMs()` (the user's setting; 0: none), at most STEADY_RECHECK_SHARE of the time:
 * how stale a view can get is bounded, at about a percent of one core.
 *
 * The window regaining focus: a user who changed a bundle in a terminal or another editor
 * comes back to the window, and a silent watcher would leave the change unseen until the
 * next steady re-check. So, past the window and while steady re-checks are on, focus
 * re-checks at once (`focusDue`), unless the last read was too recent for a re-read to
 * keep within RECHECK_SHARE of the time since (a user switching windows again and again
 * costs at most that); the steady interval then counts from it.
 */
export class RecheckSchedule {
  private readonly endsAt: number;
  /** When the last read of everything ended (the full index at first), and what it took. */
  private lastEndedAt: number;
  private lastMs = 0;

  constructor(
    private readonly steadyMs: () => number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.endsAt = now() + RECHECK_WINDOW_MS;
    this.lastEndedAt = now();
  }

  /**
   * The next re-check: in how many milliseconds, and in which phase; undefined when there
   * is none. `lastMs`: what the last one, just ended, took.
   */
  next(lastMs = 0): { readonly delay: number; readonly phase: RecheckPhase } | undefined {
    this.lastEndedAt = this.now();
    this.lastMs = lastMs;
    // Every delay is at least RECHECK_MIN_INTERVAL_MS and the clock only moves on: once past the window, always past.
    const delay = windowSpacing(lastMs);
    if (this.now() + delay <= this.endsAt) return { delay, phase: 'window' };
    const steady = this.steadyMs();
    if (!(steady > 0)) return undefined;
    return { delay: Math.min(MAX_TIMER_MS, Math.max(steady, lastMs / STEADY_RECHECK_SHARE)), phase: 'steady' };
  }

  /**
   * Whether the window's regaining focus re-checks now: past the window (in it, re-checks
   * come every few seconds anyway), while the steady re-checks are on (`0` turns every
   * re-check after the window off), and no sooner after the last read than the window's
   * own spacing would allow.
   */
  focusDue(): boolean {
    const now = this.now();
    if (now < this.endsAt || !(this.steadyMs() > 0)) return false;
    return now - this.lastEndedAt >= windowSpacing(this.lastMs);
  }
}

/** The window's time from one re-check to the next after one that took `lastMs`: re-reading takes at most RECHECK_SHARE of it. */
function windowSpacing(lastMs: number): number {
  return Math.max(RECHECK_MIN_INTERVAL_MS, lastMs / RECHECK_SHARE);
}

/** The setting's default (package.json's `skillgate.recheckIntervalSeconds`; a unit test holds them equal). */
export const STEADY_RECHECK_DEFAULT_SECONDS = 60;

/**
 * The steady phase's interval from the setting's seconds: exactly 0 turns the steady
 * re-checks off; anything else that is not a positive number (unset, a string, a
 * negative) is the default, so a malformed setting never turns them off; a number is
 * at least the minimum.
 */
export function steadyRecheckMs(seconds: unknown): number {
  if (seconds === 0) return 0;
  const asked =
    typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0 ? seconds : STEADY_RECHECK_DEFAULT_SECONDS;
  return Math.min(MAX_TIMER_MS, Math.max(STEADY_RECHECK_MIN_SECONDS, asked) * 1000);
}
