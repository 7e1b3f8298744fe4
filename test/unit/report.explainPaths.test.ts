import { strict as assert } from 'node:assert';
import { A0, EvaFixture } from './helpers/evaFixture';
import { byName, index } from './helpers/fixture';
import { explainItem } from '../../src/core/report/explain';

/**
 * Every path `explain` states is written as `path:` is: relative to the item's workspace
 * folder (cli.md), never one absolute beside a relative one.
 */
describe('explain states paths as the item path is stated', () => {
  let f: EvaFixture;
  beforeEach(() => (f = new EvaFixture().p0()));
  afterEach(() => f.remove());

  it("gives an Eva adapter's manifest relative to its workspace folder", () => {
    f.adapter(A0);
    const s = index([f.ws]);
    const lines = explainItem(s, byName(s, 'review-skill (skill review)')).flatMap((x) => x.lines);
    assert.ok(lines.includes('path: config/adapters/review.yaml'), lines.join('\n'));
    assert.ok(lines.includes('manifest: config/adapters/review.yaml'), lines.join('\n'));
  });
});
