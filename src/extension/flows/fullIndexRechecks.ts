import type { LogPort } from './ports';
import { logRecheckWindow } from './recheckLog';
import { RecheckSchedule } from './recheckSchedule';
import { Rechecks, type RecheckPorts } from './rechecks';

/**
 * The re-checks of the full index shown (flows/rechecks.ts): each full index starts its
 * own in place of the last one's, and the window regaining its focus re-checks.
 */
export class FullIndexRechecks {
  /** The re-checks of the last full index, until a newer one starts its own. */
  private rechecks: Rechecks | undefined;
  /** Whether the window had the focus at its last state change (`Rechecks.focusRegained`). */
  private windowFocused: boolean;

  /**
   * `focused`: whether the window has the focus now. `steadyMs`: the steady re-checks'
   * interval, from the settings as they are when a full index starts them.
   */
  constructor(
    focused: boolean,
    private readonly steadyMs: () => number,
    private readonly log: LogPort,
  ) {
    this.windowFocused = focused;
  }

  /** Re-checks a full index from now on, instead of any earlier index's. */
  start(ports: Omit<RecheckPorts, 'windowEnded'>): void {
    this.stop();
    this.rechecks = new Rechecks(new RecheckSchedule(this.steadyMs), {
      ...ports,
      windowEnded: (runs, differed) => logRecheckWindow(this.log, runs, differed),
    });
  }

  /** The window's state changed (`Rechecks.focusRegained`). */
  windowStateChanged(focused: boolean): void {
    // The state also changes with the user's activity (`active`) while the focus stays.
    const regained = focused && !this.windowFocused;
    this.windowFocused = focused;
    if (regained) this.rechecks?.focusRegained();
  }

  stop(): void {
    this.rechecks?.dispose();
    this.rechecks = undefined;
  }
}
