import { strict as assert } from 'node:assert';
import { Indexer } from '../../src/core/index/indexer';
import { TrustStore } from '../../src/core/trust/trustStore';
import { review } from '../../src/core/trust/reviewBundle';
import { MAX_REVIEW_DIAGNOSTICS, reviewViewModel } from '../../src/core/review/reviewViewModel';
import { A0, EvaFixture } from './helpers/evaFixture';
import { LINUX_HOST } from './helpers/fixture';
import { MAX_DIAGNOSTICS_PER_FILE } from '../../src/core/diagnostics/fileCap';
import type { Diagnostic } from '../../src/core/model';

/**
 * A manifest under 1 MiB can declare 200,000 bad values, each a finding of its own. One unit
 * of work lists 100 a file and counts the rest (fileCap.ts); a bundle of many files still has
 * thousands, and the review panel lists the first MAX_REVIEW_DIAGNOSTICS, errors first, and
 * counts the rest (the Problems panel and `skillgate validate` list them, up to 100 a file).
 */
describe('the review panel lists a bounded number of diagnostics', () => {
  let f: EvaFixture;
  beforeEach(() => (f = new EvaFixture().p0()));
  afterEach(() => f.remove());

  it(`lists ${MAX_REVIEW_DIAGNOSTICS} of 5,101 findings and counts the rest`, () => {
    f.adapter(A0.replace('capabilities: [workflow.review]', `capabilities: [${Array(5_000).fill('a').join(',')}]`));
    const store = new TrustStore(f.path('state'));
    const indexed = new Indexer({
      workspaces: [f.ws],
      codewhaleHome: null,
      evaHome: f.home,
      host: LINUX_HOST,
      trust: () => store.view(),
    }).indexAll();
    const item = indexed.items.find((i) => i.id === f.id('adapters/review.yaml'));
    assert.ok(item);
    // 5,000 capabilities outside workflow.*, a warning each: the first 100, and one that counts 4,900.
    const warnings = indexed.diagnostics.filter((d) => d.itemId === item.id);
    assert.equal(warnings.length, MAX_DIAGNOSTICS_PER_FILE + 1);
    assert.match(warnings.at(-1)?.message ?? '', /^4,900 more problems in this file not listed/);
    // As a bundle of 50 files would have them: 100 each, an error among every ten.
    const more: Diagnostic[] = Array.from({ length: 5_000 }, (_, n) => ({
      file: f.path(`ws/config/file-${Math.floor(n / 100)}.yaml`),
      range: { start: { line: n % 100, character: 0 }, end: { line: n % 100, character: 1 } },
      severity: n % 10 === 0 ? 'error' : 'warning',
      code: 'eva.schema.type',
      message: `finding ${n}`,
      itemId: item.id,
    }));
    const s = { ...indexed, diagnostics: [...indexed.diagnostics, ...more] };
    const r = review(item, { store });
    assert.ok(r.ok, r.ok ? '' : r.message);
    const m = reviewViewModel(r.value, s, false, true);
    const own = s.diagnostics.filter((d) => d.itemId === item.id).length;
    assert.equal(own, 5_101);
    assert.equal(m.diagnostics.length, MAX_REVIEW_DIAGNOSTICS);
    assert.equal(m.diagnostics.length + m.diagnosticsNotShown, own);
    // Every error comes before the first warning: the 500 errors fill the list.
    assert.ok(m.diagnostics.every((d) => d.severity === 'error'));
  });
});
