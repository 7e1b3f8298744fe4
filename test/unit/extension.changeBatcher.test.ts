import { strict as assert } from 'node:assert';
import { ChangeBatcher, MAX_BATCH_DELAY_MS } from '../../src/extension/flows/changeBatcher';

/** A clock the test moves: timers fire once it passes their time. */
class FakeClock {
  now = 0;
  private next = 0;
  private readonly due = new Map<number, { at: number; fn: () => void }>();
  readonly timers = {
    setTimeout: (fn: () => void, ms: number) => (this.due.set(++this.next, { at: this.now + ms, fn }), this.next),
    clearTimeout: (h: unknown) => void this.due.delete(h as number),
    now: () => this.now,
  };

  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      const [handle, first] = [...this.due].sort((a, b) => a[1].at - b[1].at)[0] ?? [];
      if (!first || first.at > end) break;
      this.due.delete(handle as number);
      this.now = first.at;
      first.fn();
    }
    this.now = end;
  }
}

describe('the change batcher under a stream of events', () => {
  it('hands over a batch within MAX_BATCH_DELAY_MS of its first event, even while events keep coming faster than the quiet period', () => {
    const clock = new FakeClock();
    const flushes: { at: number; paths: string[] }[] = [];
    const b = new ChangeBatcher(150, (paths) => flushes.push({ at: clock.now, paths }), clock.timers);
    // A trusted hook script edited once, then a log written beside a bundle every 100 ms for ten seconds.
    b.path('/ws/scripts/check.sh');
    for (let t = 0; t < 10_000; t += 100) {
      b.path(`/ws/.codewhale/plugins/a/log-${t}.txt`);
      clock.advance(100);
    }
    assert.ok(flushes.length > 0, 'no batch was handed over in ten seconds of events');
    const first = flushes[0] as { at: number; paths: string[] };
    assert.ok(first.at <= MAX_BATCH_DELAY_MS, `the first batch came after ${first.at} ms`);
    assert.ok(first.paths.includes('/ws/scripts/check.sh'));
    // Every later batch too: nothing waits longer than the bound.
    for (let i = 1; i < flushes.length; i++)
      assert.ok((flushes[i]?.at as number) - (flushes[i - 1]?.at as number) <= MAX_BATCH_DELAY_MS + 100);
    clock.advance(150);
    assert.deepEqual(
      flushes.flatMap((f) => f.paths).length,
      101,
      'every path handed over once, the last in a batch of its own',
    );
  });

  it('still waits for a quiet period after a short burst', () => {
    const clock = new FakeClock();
    const flushes: number[] = [];
    const b = new ChangeBatcher(150, () => flushes.push(clock.now), clock.timers);
    b.path('/a');
    clock.advance(100);
    b.path('/b');
    clock.advance(149);
    assert.deepEqual(flushes, []);
    clock.advance(1);
    assert.deepEqual(flushes, [250]);
  });
});
