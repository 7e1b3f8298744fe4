import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  RECHECK_MIN_INTERVAL_MS,
  RECHECK_SHARE,
  RECHECK_WINDOW_MS,
  RecheckSchedule,
  STEADY_RECHECK_DEFAULT_SECONDS,
  STEADY_RECHECK_MIN_SECONDS,
  STEADY_RECHECK_SHARE,
  steadyRecheckMs,
} from '../../src/extension/flows/recheckSchedule';

/** The re-checks after a full index: when they run, and when they stop. */
describe('the re-check schedule', () => {
  /** A schedule on a clock the test moves, made at 0; `steadyMs`: the setting's interval, 0 none, changed with `setSteady`. */
  const scheduled = (steadyMs = 0) => {
    let now = 0;
    const schedule = new RecheckSchedule(
      () => steadyMs,
      () => now,
    );
    return {
      schedule,
      advance: (ms: number) => (now += ms),
      setSteady: (ms: number) => (steadyMs = ms),
    };
  };

  it("runs on the process's clock unless given one: a schedule made now is in its window", () => {
    const schedule = new RecheckSchedule(() => 60_000);
    assert.deepEqual(schedule.next(), { delay: RECHECK_MIN_INTERVAL_MS, phase: 'window' });
    assert.equal(schedule.focusDue(), false);
  });

  it('re-checks every few seconds while a re-read is cheap, for the window, then stops for good', () => {
    const { schedule, advance } = scheduled();
    const delays: number[] = [];
    for (let next = schedule.next(); next !== undefined; next = schedule.next(50)) {
      assert.equal(next.phase, 'window');
      delays.push(next.delay);
      advance(next.delay + 50);
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
    assert.deepEqual(schedule.next(2_500), { delay: 2_500 / RECHECK_SHARE, phase: 'window' });
    assert.deepEqual(schedule.next(100), { delay: RECHECK_MIN_INTERVAL_MS, phase: 'window' });
  });

  it('stops once a re-read would start after the window', () => {
    const { schedule, advance } = scheduled();
    advance(RECHECK_WINDOW_MS - RECHECK_MIN_INTERVAL_MS);
    assert.deepEqual(schedule.next(), { delay: RECHECK_MIN_INTERVAL_MS, phase: 'window' });
    advance(1);
    assert.equal(schedule.next(), undefined);
  });

  it('goes on after the window at the steady interval, for good, while the setting asks for it', () => {
    const { schedule, advance, setSteady } = scheduled(60_000);
    advance(RECHECK_WINDOW_MS);
    assert.deepEqual(schedule.next(40), { delay: 60_000, phase: 'steady' });
    advance(10 * 60 * 60_000);
    assert.deepEqual(schedule.next(40), { delay: 60_000, phase: 'steady' });
    // A large workspace: re-reading takes at most its steady share.
    assert.deepEqual(schedule.next(2_500), { delay: 2_500 / STEADY_RECHECK_SHARE, phase: 'steady' });
    // The setting is read for every re-check: turned off, they end; on again, they come back.
    setSteady(0);
    assert.equal(schedule.next(40), undefined);
    setSteady(15_000);
    assert.deepEqual(schedule.next(40), { delay: 15_000, phase: 'steady' });
  });

  it('re-checks when the window regains focus only past the window, with steady re-checks on, spaced as in the window', () => {
    const { schedule, advance, setSteady } = scheduled(60_000);
    // In the window re-checks come every few seconds anyway.
    advance(RECHECK_WINDOW_MS - 1);
    assert.equal(schedule.focusDue(), false);
    advance(1);
    assert.equal(schedule.focusDue(), true);
    // A re-check that just ended: focus waits for the window's spacing after it.
    assert.equal(schedule.next(40)?.phase, 'steady');
    advance(RECHECK_MIN_INTERVAL_MS - 1);
    assert.equal(schedule.focusDue(), false);
    advance(1);
    assert.equal(schedule.focusDue(), true);
    // A large workspace: a re-read takes at most its share of the time since the last ended.
    schedule.next(2_500);
    advance(2_500 / RECHECK_SHARE - 1);
    assert.equal(schedule.focusDue(), false);
    advance(1);
    assert.equal(schedule.focusDue(), true);
    // The setting turns every re-check after the window off, focus too; it is read at each focus.
    setSteady(0);
    assert.equal(schedule.focusDue(), false);
    setSteady(15_000);
    assert.equal(schedule.focusDue(), true);
  });

  it("reads the setting's seconds: exactly 0 is none, anything malformed the default, else at least the minimum", () => {
    const byDefault = STEADY_RECHECK_DEFAULT_SECONDS * 1000;
    assert.equal(steadyRecheckMs(undefined), byDefault);
    assert.equal(steadyRecheckMs(0), 0);
    assert.equal(steadyRecheckMs(90), 90_000);
    assert.equal(steadyRecheckMs(12.5), 12_500);
    assert.equal(steadyRecheckMs(1), STEADY_RECHECK_MIN_SECONDS * 1000);
    // A setting that cannot be read never turns the re-checks off: security decisions fail closed.
    for (const malformed of [-5, Number.NaN, Number.POSITIVE_INFINITY, '0', '60', null, false, {}])
      assert.equal(steadyRecheckMs(malformed), byDefault, String(malformed));
  });

  it('never asks for a delay a timer cannot wait: a huge setting is not a re-check every millisecond', () => {
    // Node runs a setTimeout longer than 2^31 - 1 ms after 1 ms (TimeoutOverflowWarning):
    // 3,000,000 s (about 35 days) would re-read the whole workspace in a loop.
    const longest = 2 ** 31 - 1;
    for (const seconds of [2_147_484, 3_000_000, 1e12, Number.MAX_VALUE]) {
      const ms = steadyRecheckMs(seconds);
      assert.ok(ms > 0 && ms <= longest, `${seconds} s gives ${ms} ms`);
    }
    const { schedule, advance } = scheduled(steadyRecheckMs(3_000_000));
    advance(RECHECK_WINDOW_MS);
    const next = schedule.next(30_000_000);
    assert.equal(next?.phase, 'steady');
    assert.ok(next.delay > 0 && next.delay <= longest, `delay ${next.delay}`);
  });

  it('has the default package.json declares for skillgate.recheckIntervalSeconds', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { default?: unknown; minimum?: unknown }> } };
    };
    const declared = manifest.contributes.configuration.properties['skillgate.recheckIntervalSeconds'];
    assert.equal(declared?.default, STEADY_RECHECK_DEFAULT_SECONDS);
    assert.equal(declared?.minimum, 0);
  });
});
