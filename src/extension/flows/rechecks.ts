import type { RecheckPhase, RecheckSchedule } from './recheckSchedule';

/** What one re-check took, and whether the disk differed from what was shown. */
export interface RecheckRun {
  readonly ms: number;
  readonly differed: boolean;
}

/** What the re-checks of one full index need from the window that shows it (skillgateService.ts). */
export interface RecheckPorts {
  /** Reads everything once more; undefined when it did not run (a full index was running). `first`: the full index's first. */
  run(phase: RecheckPhase, first: boolean): Promise<RecheckRun | undefined>;
  /** Whether the full index is still the one shown: a newer one has re-checks of its own. */
  current(): boolean;
  /** The first minute's re-checks are over: how many ran, and how many found the disk changed. */
  windowEnded(runs: number, differed: number): void;
}

/** The timers the re-checks run on (the global ones; a test's own clock). */
export interface RecheckTimers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const GLOBAL_TIMERS: RecheckTimers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * The re-checks of one full index, run when `schedule` says (flows/recheckSchedule.ts):
 * one at a time, the next timed from the end of the last, a focus re-check in place of
 * the one scheduled, and none once the index is no longer shown or this is disposed.
 */
export class Rechecks {
  private timer: unknown;
  /** A re-check is reading: the next is scheduled when it ends, never beside it. */
  private running = false;
  private disposed = false;
  /** The first minute's re-checks, and how many found the disk changed. */
  private readonly window = { runs: 0, differed: 0 };

  constructor(
    private readonly schedule: RecheckSchedule,
    private readonly ports: RecheckPorts,
    private readonly timers: RecheckTimers = GLOBAL_TIMERS,
  ) {
    this.scheduleNext(schedule.next());
  }

  /** The window regained focus: re-checks now when the schedule allows (`focusDue`). */
  focusRegained(): void {
    if (!this.disposed && !this.running && this.schedule.focusDue()) this.runNow('focus');
  }

  dispose(): void {
    this.disposed = true;
    this.timers.clear(this.timer);
  }

  private scheduleNext(next: { delay: number; phase: RecheckPhase } | undefined): void {
    if (next === undefined || this.disposed) return;
    this.timer = this.timers.set(() => this.runNow(next.phase), next.delay);
  }

  /** Re-checks now, in place of the one scheduled, and schedules the next from its end. */
  private runNow(phase: RecheckPhase): void {
    this.timers.clear(this.timer);
    this.timer = undefined;
    this.running = true;
    const first = phase === 'window' && this.window.runs === 0;
    // Runs from a timer or an event: the port's own failures are its to report, never the extension host's.
    void this.ports
      .run(phase, first)
      .catch(() => undefined)
      .then((ran) => {
        this.running = false;
        if (this.disposed || !this.ports.current()) return;
        const next = this.schedule.next(ran?.ms);
        if (phase === 'window') {
          this.window.runs += ran ? 1 : 0;
          this.window.differed += ran?.differed ? 1 : 0;
          if (next?.phase !== 'window' && this.window.runs > 0)
            this.ports.windowEnded(this.window.runs, this.window.differed);
        }
        this.scheduleNext(next);
      });
  }
}
