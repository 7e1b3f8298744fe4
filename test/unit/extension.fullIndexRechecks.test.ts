import { strict as assert } from 'node:assert';
import { FullIndexRechecks } from '../../src/extension/flows/fullIndexRechecks';
import { RECHECK_WINDOW_MS, type RecheckPhase } from '../../src/extension/flows/recheckSchedule';

/**
 * The re-checks of the full index shown (flows/fullIndexRechecks.ts): only the newest full
 * index's, none once stopped, the first minute summed up in the log, and one on the window
 * regaining its focus. They run on the process's timers and clock, which the test stands in
 * for (mocha keeps its own references to the timers).
 */
describe('the re-checks of the full index shown', () => {
  const realSetTimeout = globalThis.setTimeout;
  const realClearTimeout = globalThis.clearTimeout;
  let now: number;
  let nextHandle: number;
  let pending: Map<number, { at: number; run: () => void }>;
  let logged: string[];
  const log = {
    debug: () => undefined,
    info: (m: string) => void logged.push(m),
    warn: (m: string) => void logged.push(m),
    error: (m: string) => void logged.push(m),
  };

  beforeEach(() => {
    now = 0;
    nextHandle = 1;
    pending = new Map();
    logged = [];
    Object.defineProperty(performance, 'now', { value: () => now, configurable: true, writable: true });
    globalThis.setTimeout = ((run: () => void, ms: number) => {
      pending.set(nextHandle, { at: now + ms, run });
      return nextHandle++;
    }) as unknown as typeof setTimeout;
    globalThis.clearTimeout = ((handle: number) => void pending.delete(handle)) as typeof clearTimeout;
  });

  afterEach(() => {
    // The own property hides Performance.prototype.now; removing it gives the real clock back.
    delete (performance as { now?: unknown }).now;
    globalThis.setTimeout = realSetTimeout;
    globalThis.clearTimeout = realClearTimeout;
  });

  /** Re-checks that record their phase under `name`, each reading the disk as shown in 1 ms. */
  const ports = (name: string, ran: string[]) => ({
    run: async (phase: RecheckPhase) => {
      ran.push(`${name} ${phase}`);
      return { ms: 1, differed: false };
    },
    current: () => true,
  });

  /** Moves the clock to the timer due first, fires it, and lets the re-check it started end. */
  const fire = async () => {
    const [handle, timer] = [...pending].sort((a, b) => a[1].at - b[1].at)[0] ?? assert.fail('no timer pending');
    pending.delete(handle);
    now = Math.max(now, timer.at);
    timer.run();
    await new Promise((resolve) => setImmediate(resolve));
  };

  it('re-checks the newest full index only, and nothing once stopped', async () => {
    const ran: string[] = [];
    const rechecks = new FullIndexRechecks(true, () => 60_000, log);
    rechecks.start(ports('first', ran));
    rechecks.start(ports('second', ran));
    assert.equal(pending.size, 1, "the first index's re-checks were stopped");
    await fire();
    assert.deepEqual(ran, ['second window']);
    rechecks.stop();
    assert.equal(pending.size, 0, 'a re-check is still due after stop');
  });

  it('sums up the first minute in the log once its re-checks are over', async () => {
    const ran: string[] = [];
    const rechecks = new FullIndexRechecks(true, () => 60_000, log);
    rechecks.start(ports('index', ran));
    while (now <= RECHECK_WINDOW_MS) await fire();
    rechecks.stop();
    const inWindow = ran.filter((r) => r === 'index window').length;
    assert.ok(inWindow > 1, ran.join(', '));
    assert.deepEqual(logged, [
      `re-checks in the minute after the full index: ${inWindow}, the disk read as shown each time`,
    ]);
  });

  it('re-checks when the window regains the focus past the first minute, not when its state changes while it keeps it', () => {
    const ran: string[] = [];
    const rechecks = new FullIndexRechecks(true, () => 60_000, log);
    rechecks.start(ports('index', ran));
    now = RECHECK_WINDOW_MS + 10_000;
    // The user's activity changes the window's state while the focus stays.
    rechecks.windowStateChanged(true);
    assert.deepEqual(ran, []);
    rechecks.windowStateChanged(false);
    assert.deepEqual(ran, []);
    rechecks.windowStateChanged(true);
    assert.deepEqual(ran, ['index focus']);
    rechecks.stop();
  });

  it('takes the focus coming back before any full index as nothing to re-check', () => {
    const rechecks = new FullIndexRechecks(false, () => 60_000, log);
    rechecks.windowStateChanged(true);
    rechecks.windowStateChanged(false);
    rechecks.windowStateChanged(true);
    assert.equal(pending.size, 0);
  });
});
