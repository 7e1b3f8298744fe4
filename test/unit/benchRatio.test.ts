import { strict as assert } from 'node:assert';
import { ratioUp } from '../../bench/ratio';

/** The benchmarks' ratios: rounded up to the hundredth, so no figure over its bar reads as at it. */
describe('benchmark ratios (bench/ratio.ts)', () => {
  it('rounds up to the hundredth and keeps an exact one', () => {
    assert.equal(ratioUp(3525.5 / 2303.9), 1.54, 'a first tree at 1.53… the CLI is over a 1.5 bar');
    assert.equal(ratioUp(1.501), 1.51);
    assert.equal(ratioUp(3), 3);
    assert.equal(ratioUp(4.2), 4.2);
    assert.equal(ratioUp(0.004), 0.01);
  });
});
