import { strict as assert } from 'node:assert';
import {
  RECHECK_MIN_INTERVAL_MS,
  RECHECK_WINDOW_MS,
  RecheckSchedule,
  type RecheckPhase,
} from '../../src/extension/flows/recheckSchedule';
import { Rechecks, type RecheckRun, type RecheckTimers } from '../../src/extension/flows/rechecks';

/** The re-checks of one full index as they run: one at a time, timed from the last, focus in place of the timer. */
describe('the re-checks of a full index', () => {
  // A re-check runs from a timer or an event, its continuation on a promise nobody awaits:
  // a throw there would reach the extension host as an unhandled rejection.
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(async () => {
    await new Promise((resolve) => setImmediate(resolve));
    process.off('unhandledRejection', onUnhandled);
    assert.deepEqual(unhandled, [], 'a re-check left a rejection unhandled');
  });

  /**
   * Re-checks on a clock the test moves, with timers that fire only when it says
   * (`fire`), and re-checks that end only when it says (`finish`).
   */
  const harness = (steadyMs = 60_000) => {
    let now = 0;
    let nextHandle = 1;
    const pending = new Map<number, { run: () => void; at: number }>();
    const timers: RecheckTimers = {
      set: (run, ms) => {
        const handle = nextHandle++;
        pending.set(handle, { run, at: now + ms });
        return handle;
      },
      clear: (handle) => pending.delete(handle as number),
    };
    const runs: { phase: RecheckPhase; first: boolean; finish: (ran: RecheckRun | undefined) => void }[] = [];
    const ended: [number, number][] = [];
    let current = true;
    const rechecks = new Rechecks(
      new RecheckSchedule(
        () => steadyMs,
        () => now,
      ),
      {
        run: (phase, first) => new Promise((resolve) => runs.push({ phase, first, finish: resolve })),
        current: () => current,
        windowEnded: (count, differed) => ended.push([count, differed]),
      },
      timers,
    );
    /** Moves the clock to the one timer pending and fires it. */
    const fire = () => {
      assert.equal(pending.size, 1, 'one timer at a time');
      const [handle, timer] = [...pending][0] as [number, { run: () => void; at: number }];
      pending.delete(handle);
      now = Math.max(now, timer.at);
      timer.run();
    };
    /** Ends the last re-check started, taking `ms`; lets its continuation run. */
    const finish = async (ms = 40, differed = false) => {
      runs.at(-1)?.finish({ ms, differed });
      await new Promise((resolve) => setImmediate(resolve));
    };
    return {
      rechecks,
      runs,
      ended,
      pending,
      fire,
      finish,
      advance: (ms: number) => (now += ms),
      notCurrent: () => (current = false),
    };
  };

  it('re-checks every few seconds for the window, the first marked first, then once a minute; the window in one report', async () => {
    const h = harness();
    for (let i = 0; h.runs.length === 0 || h.runs.at(-1)?.phase === 'window'; i++) {
      h.fire();
      assert.equal(h.pending.size, 0, 'no timer while a re-check runs');
      await h.finish(40, i === 2);
    }
    const window = h.runs.filter((r) => r.phase === 'window');
    assert.ok(window.length >= 15, String(window.length));
    assert.deepEqual(
      window.map((r) => r.first),
      window.map((_, i) => i === 0),
    );
    assert.deepEqual(h.ended, [[window.length, 1]]);
    assert.equal(h.runs.at(-1)?.phase, 'steady');
    h.fire();
    assert.equal(h.runs.at(-1)?.phase, 'steady');
    assert.equal(h.ended.length, 1, 'the window is reported once');
  });

  it('re-checks on focus in place of the timer once the window is over, not while one runs, nor right after one', async () => {
    const h = harness();
    h.advance(RECHECK_WINDOW_MS);
    // Past the window with nothing run yet: the first timer (a window one) is replaced.
    h.rechecks.focusRegained();
    assert.equal(h.runs.at(-1)?.phase, 'focus');
    assert.equal(h.pending.size, 0, 'the scheduled re-check gave way');
    // Another focus while it reads: nothing beside it.
    h.rechecks.focusRegained();
    assert.equal(h.runs.length, 1);
    await h.finish();
    assert.equal(h.pending.size, 1, 'the steady timer counts from the focus re-check');
    // Right after it: too soon.
    h.rechecks.focusRegained();
    assert.equal(h.runs.length, 1);
    h.advance(RECHECK_MIN_INTERVAL_MS);
    h.rechecks.focusRegained();
    assert.equal(h.runs.length, 2);
    assert.equal(h.runs.at(-1)?.first, false);
  });

  it('stops when its index is no longer shown, when disposed, and when a re-check fails it goes on', async () => {
    const shown = harness();
    shown.fire();
    shown.notCurrent();
    await shown.finish();
    assert.equal(shown.pending.size, 0, 'a newer index has re-checks of its own');

    const disposed = harness();
    disposed.fire();
    disposed.rechecks.dispose();
    await disposed.finish();
    assert.equal(disposed.pending.size, 0);
    disposed.advance(RECHECK_WINDOW_MS * 2);
    disposed.rechecks.focusRegained();
    assert.equal(disposed.runs.length, 1, 'no focus re-check once disposed');

    const failing = harness();
    failing.fire();
    failing.runs.at(-1)?.finish(undefined);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(failing.pending.size, 1, 'a re-check that did not run is followed by the next');
  });

  it('reports no window when none of its re-checks ran (a full index held each one off)', async () => {
    const h = harness();
    while (h.runs.length === 0 || h.runs.at(-1)?.phase === 'window') {
      h.fire();
      h.runs.at(-1)?.finish(undefined);
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.ok(h.runs.filter((r) => r.phase === 'window').length >= 15);
    assert.deepEqual(h.ended, []);
  });

  it("runs on the process's own timers unless given others, and disposing clears the one pending", async () => {
    // A schedule whose first re-check is due at once, then none.
    const soon = (): RecheckSchedule => {
      const schedule = new RecheckSchedule(() => 0);
      let asked = 0;
      schedule.next = () => (asked++ === 0 ? { delay: 1, phase: 'window' } : undefined);
      return schedule;
    };
    const ports = (ran: RecheckPhase[]) => ({
      run: (phase: RecheckPhase) => {
        ran.push(phase);
        return Promise.resolve({ ms: 1, differed: false });
      },
      current: () => true,
      windowEnded: () => undefined,
    });
    const ran: RecheckPhase[] = [];
    new Rechecks(soon(), ports(ran));
    const disposedRan: RecheckPhase[] = [];
    new Rechecks(soon(), ports(disposedRan)).dispose();
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(ran, ['window']);
    assert.deepEqual(disposedRan, []);
  });

  it('schedules nothing past the window when the setting turns the re-checks off, and ignores focus then', async () => {
    const h = harness(0);
    while (h.pending.size > 0) {
      h.fire();
      await h.finish();
    }
    assert.ok(h.runs.every((r) => r.phase === 'window'));
    assert.equal(h.ended.length, 1);
    h.advance(RECHECK_WINDOW_MS);
    h.rechecks.focusRegained();
    assert.ok(h.runs.every((r) => r.phase === 'window'));
  });
});
