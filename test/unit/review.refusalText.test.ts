import { strict as assert } from 'node:assert';
import { TrustStore } from '../../src/core/trust/trustStore';
import { review } from '../../src/core/trust/reviewBundle';
import { reviewViewModel } from '../../src/core/review/reviewViewModel';
import { reviewText } from '../../src/core/review/reviewText';
import { Fixture, index } from './helpers/fixture';
import { HOSTILE, assertDisplaySafe } from './helpers/displaySafe';

/**
 * Why Trust and Enable are refused reaches the review panel as a notice under the buttons
 * and as their tooltips. The refusal names the bundle and quotes its first error, both
 * written by the repository: escaped like every other string the panel shows.
 */
describe('the review panel: why Trust and Enable are refused', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('escapes the bundle name and the error it quotes, in the notices and the tooltips', () => {
    const store = new TrustStore(f.path('state'));
    f.write(`ws/.rivumi/plugins/p${HOSTILE}.json`, '{"skills": 5');
    const s = index([f.path('ws')], { trust: () => store.view() });
    const item = s.items.find((i) => i.parent === null && i.name.startsWith('p'));
    assert.ok(item);
    const r = review(item, { store });
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(r.value.trustable, false);
    const { actions } = reviewViewModel(r.value, s, false);
    assert.match(actions.trust.why?.text ?? '', /^Rivumi plugin `p\\u\{1b\}\[1A/);
    assert.ok(actions.notices.length > 0);
    for (const [where, text] of [
      ['trust.why', actions.trust.why?.text ?? ''],
      ...actions.notices.map((n, i) => [`notices[${i}]`, n.text] as const),
    ] as const)
      assertDisplaySafe(text, where, false);
  });

  it('a Rivumi plugin that does not load: trust alone is refused, in the review and its refusal (no enable switch: trust.md "Status")', () => {
    const store = new TrustStore(f.path('state'));
    f.write('ws/.rivumi/plugins/p.json', '{"skills": 5');
    const s = index([f.path('ws')], { trust: () => store.view() });
    const item = s.items.find((i) => i.parent === null && i.name === 'p');
    assert.ok(item);
    const r = review(item, { store });
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.match(
      r.value.trustRefusal ?? '',
      /^Rivumi plugin `p` is invalid: .*\. Rivumi does not load it, so it cannot be trusted until the error is fixed and it is reviewed again\.$/,
    );
    const text = reviewText(r.value, s.workspaces, false);
    assert.ok(text.includes(`\nTrust is refused: ${r.value.trustRefusal ?? ''}\n`), text);
    assert.doesNotMatch(text, /or enabled|and enable/i);
  });
});
