import { strict as assert } from 'node:assert';
import { Rng } from '../fuzz/random';

describe("fuzz: the harness's seeded sample", () => {
  it('takes at most n distinct items, in the list’s order, the same for the same seed', () => {
    const items = Array.from({ length: 23 }, (_, i) => i);
    for (let seed = 0; seed < 50; seed++) {
      const s = new Rng(`s${seed}`).sample(items, 8);
      assert.equal(s.length, 8);
      assert.deepEqual(
        s,
        [...new Set(s)].sort((a, b) => a - b),
      );
      assert.deepEqual(new Rng(`s${seed}`).sample(items, 8), s);
    }
    assert.deepEqual(new Rng('short').sample([3, 1, 2], 8), [3, 1, 2]);
    assert.deepEqual(new Rng('none').sample([], 8), []);
  });

  it('reaches every item, about equally often', () => {
    const counts = new Array<number>(23).fill(0);
    const items = counts.map((_, i) => i);
    for (let seed = 0; seed < 2000; seed++) for (const i of new Rng(`r${seed}`).sample(items, 8)) counts[i]!++;
    // Each is drawn 8 times in 23: about 696 of 2000.
    for (const c of counts) assert.ok(c > 560 && c < 830, String(counts));
  });
});
