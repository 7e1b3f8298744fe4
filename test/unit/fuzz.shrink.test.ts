import { strict as assert } from 'node:assert';
import { endedMidInput } from '../fuzz/endedMidInput';
import type { Failure } from '../fuzz/invariants';
import type { FuzzInput } from '../fuzz/input';
import { shrink } from '../fuzz/shrink';

/**
 * Shrinking a failure of a slow input (test/fuzz/shrink.ts, worker.ts): 120 candidates of ~4 s each
 * ran past the supervisor's 60 s watchdog, which killed the worker and reported `bounded-time [hang]`,
 * the real failure lost. Shrinking now stops at a deadline, and a worker killed while shrinking
 * still has the failures it found reported (endedMidInput.ts).
 */
describe('fuzz: shrinking within the watchdog (test/fuzz/shrink.ts)', () => {
  const failure: Failure = { invariant: 'watched-change-seen', signature: 'unseen: write-skill', detail: 'first' };
  /** An input of `n` ops, each cut by dropping the last op: only what `shrink` handles is real. */
  const input = (n: number) => ({ index: 7, ops: Array.from({ length: n }, (_, i) => i) }) as unknown as FuzzInput;
  const reductions = (i: FuzzInput) => (i.ops.length ? [{ ...i, ops: i.ops.slice(0, -1) }] : []);
  const opsOf = (i: FuzzInput) => i.ops.length;

  /** Every candidate fails the same way and takes `each` ms of a clock that starts at 0. */
  const slowCandidates = (each: number) => {
    let clock = 0;
    let tried = 0;
    return {
      now: () => clock,
      tried: () => tried,
      check: (c: FuzzInput) => {
        tried++;
        clock += each;
        return Promise.resolve([{ ...failure, detail: `ops ${opsOf(c)}` }]);
      },
    };
  };

  it('starts no candidate past the deadline, and keeps the smallest reduction found by then', async () => {
    const slow = slowCandidates(4000);
    const out = await shrink(input(10), failure, { attempts: 120, deadline: 10000, reductions, ...slow });
    // Started at 0, 4000 and 8000 ms; at 12000 the deadline has passed.
    assert.equal(slow.tried(), 3);
    assert.equal(opsOf(out.input), 7);
    assert.equal(out.detail, 'ops 7');
  });

  it('shrinks as far as it can, within its attempts, before the deadline', async () => {
    const slow = slowCandidates(1);
    const out = await shrink(input(10), failure, { attempts: 120, deadline: 1e9, reductions, ...slow });
    assert.equal(opsOf(out.input), 0);
    assert.equal(slow.tried(), 10);
    const few = slowCandidates(1);
    assert.equal(
      opsOf((await shrink(input(10), failure, { attempts: 4, deadline: 1e9, reductions, ...few })).input),
      6,
    );
  });

  it('keeps a candidate only when it fails the same way', async () => {
    const out = await shrink(input(3), failure, {
      attempts: 120,
      deadline: 1e9,
      reductions,
      check: () => Promise.resolve([{ ...failure, signature: 'another' }]),
    });
    assert.equal(opsOf(out.input), 3);
    assert.equal(out.detail, 'first');
  });

  it('reports the failures a worker killed while shrinking had found, unshrunk; a hang when it had found none yet', () => {
    const killed = (failures?: readonly Failure[]) =>
      endedMidInput({ index: 7, since: 0, failures, candidate: input(1) }, { by: 'watchdog', hangMs: 60000 });
    assert.deepEqual(killed(undefined), {
      failures: [
        { invariant: 'bounded-time', signature: 'hang', detail: 'no result after 60000 ms: the worker was killed' },
      ],
      minimal: [],
    });
    // Killed once the input was checked, it is no hang of the input: slow candidates are the shrink deadline's.
    assert.deepEqual(killed([]), { failures: [], minimal: [] });
    const kept = killed([failure]);
    assert.deepEqual(
      kept.failures.map((f) => [f.invariant, f.signature]),
      [[failure.invariant, failure.signature]],
    );
    assert.match(kept.failures[0]?.detail ?? '', /^first \(not shrunk: /);
    assert.deepEqual(kept.minimal, []);
  });
});
