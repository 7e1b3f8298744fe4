/**
 * A ratio to a target's bar, rounded up to the hundredth, for both benchmarks' figures
 * and verdicts: a figure shown at its bar has met it. (Rounded to the nearest tenth, a
 * first tree at 1.53× the CLI's time read as 1.5× and passed.)
 */
export function ratioUp(x: number): number {
  // The epsilon keeps an exact hundredth (3 / 1 = 3.00) from rounding up past itself.
  return Math.ceil(x * 100 - 1e-9) / 100;
}
