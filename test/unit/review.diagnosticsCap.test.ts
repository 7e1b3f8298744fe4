import { strict as assert } from 'node:assert';
import { Indexer } from '../../src/core/index/indexer';
import { TrustStore } from '../../src/core/trust/trustStore';
import { review } from '../../src/core/trust/reviewBundle';
import { MAX_REVIEW_DIAGNOSTICS, reviewViewModel } from '../../src/core/review/reviewViewModel';
import { A0, EvaFixture } from './helpers/evaFixture';
import { LINUX_HOST } from './helpers/fixture';

/**
 * A manifest under 1 MiB can declare 200,000 bad values, each a finding of its own: the
 * review panel lists the first MAX_REVIEW_DIAGNOSTICS, errors first, and counts the rest
 * (the Problems panel and `skillgate validate` list every one).
 */
describe('the review panel lists a bounded number of diagnostics', () => {
  let f: EvaFixture;
  beforeEach(() => (f = new EvaFixture().p0()));
  afterEach(() => f.remove());

  it(`lists ${MAX_REVIEW_DIAGNOSTICS} of 5,000 findings and counts the rest`, () => {
    f.adapter(A0.replace('capabilities: [workflow.review]', `capabilities: [${Array(5_000).fill('a').join(',')}]`));
    const store = new TrustStore(f.path('state'));
    const s = new Indexer({
      workspaces: [f.ws],
      codewhaleHome: null,
      evaHome: f.home,
      host: LINUX_HOST,
      trust: () => store.view(),
    }).indexAll();
    const item = s.items.find((i) => i.id === f.id('adapters/review.yaml'));
    assert.ok(item);
    const r = review(item, { store });
    assert.ok(r.ok, r.ok ? '' : r.message);
    const m = reviewViewModel(r.value, s, false, true);
    const own = s.diagnostics.filter((d) => d.itemId === item.id).length;
    assert.ok(own >= 5_000, `${own} findings`);
    assert.equal(m.diagnostics.length, MAX_REVIEW_DIAGNOSTICS);
    assert.equal(m.diagnostics.length + m.diagnosticsNotShown, own);
    // Every error comes before the first warning.
    const severities = m.diagnostics.map((d) => d.severity);
    assert.deepEqual(
      severities,
      [...severities].sort(
        (a, b) => ['error', 'warning', 'information'].indexOf(a) - ['error', 'warning', 'information'].indexOf(b),
      ),
    );
  });
});
