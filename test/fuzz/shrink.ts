import type { Failure } from './invariants';
import type { FuzzInput } from './input';

export interface ShrinkOptions {
  /** Candidates tried at most (`--shrink`). */
  readonly attempts: number;
  /**
   * When no further candidate is started (a `performance.now()` time): a slow input's candidates
   * take seconds each, and the supervisor kills a worker silent for `--hang` ms, which lost the
   * failure being shrunk (reported as `bounded-time [hang]` instead). The best reduction so far is kept.
   */
  readonly deadline: number;
  /** Smaller inputs to try, largest cut first. */
  readonly reductions: (input: FuzzInput) => FuzzInput[];
  /** The failures of a candidate (attempt: its number, from 1, for a scratch directory of its own); throws: no reduction. */
  readonly check: (candidate: FuzzInput, attempt: number) => Promise<readonly Failure[]>;
  readonly now?: () => number;
}

/**
 * Greedy delta debugging: keep any reduction that still fails with the same invariant and
 * signature, until none does, the attempts are spent, or the deadline has passed.
 */
export async function shrink(
  input: FuzzInput,
  failure: Failure,
  o: ShrinkOptions,
): Promise<{ input: FuzzInput; detail: string }> {
  const now = o.now ?? (() => performance.now());
  let current = input;
  let detail = failure.detail;
  let attempts = 0;
  outer: while (attempts < o.attempts) {
    for (const candidate of o.reductions(current)) {
      if (++attempts > o.attempts || now() >= o.deadline) break outer;
      try {
        const failures = await o.check(candidate, attempts);
        const same = failures.find((f) => f.invariant === failure.invariant && f.signature === failure.signature);
        if (same) {
          current = candidate;
          detail = same.detail;
          continue outer;
        }
      } catch {
        // a candidate the harness cannot even build is not a reduction
      }
    }
    break;
  }
  return { input: current, detail };
}
