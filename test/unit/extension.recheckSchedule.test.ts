import { strict as assert } from 'node:assert';
import {
  RECHECK_MIN_INTERVAL_MS,
  RECHECK_SHARE,
  RECHECK_WINDOW_MS,
  RecheckSchedule,
} from '../../src/extension/flows/recheckSchedule';

/** The re-checks after a full index: when they run, and when they stop. */
describe('the re-check schedule', () => {
  /** A schedule on a clock the test moves. */
  const scheduled = () => {
    let now = 1_000;
    const schedule = new RecheckSchedule(() => now);
    return { schedule, advance: (ms: number) => (now += ms) };
  };

  it('re-checks every few seconds while a re-read is cheap, for the window, then stops for good', () => {
    const { schedule, advance } = scheduled();
    const delays: number[] = [];
    for (let delay = schedule.next(); delay !== undefined; delay = schedule.next(50)) {
      delays.push(delay);
      advance(delay + 50);
    }
    assert.ok(
      delays.length >= 15 && delays.length <= RECHECK_WINDOW_MS / RECHECK_MIN_INTERVAL_MS,
      String(delays.length),
    );
    assert.ok(delays.every((d) => d === RECHECK_MIN_INTERVAL_MS));
    // Over is over, even for a cheap re-check.
    assert.equal(schedule.next(0), undefined);
  });

  it('spaces re-checks so that re-reading takes at most its share of the time', () => {
    const { schedule } = scheduled();
    assert.equal(schedule.next(2_500), 2_500 / RECHECK_SHARE);
    assert.equal(schedule.next(100), RECHECK_MIN_INTERVAL_MS);
  });

  it('stops once a re-read would start after the window', () => {
    const { schedule, advance } = scheduled();
    advance(RECHECK_WINDOW_MS - RECHECK_MIN_INTERVAL_MS);
    assert.equal(schedule.next(), RECHECK_MIN_INTERVAL_MS);
    advance(1);
    assert.equal(schedule.next(), undefined);
  });
});
