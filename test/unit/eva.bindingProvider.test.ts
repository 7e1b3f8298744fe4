import * as assert from 'node:assert/strict';
import { A0, EvaFixture, SKILL_BINDING } from './helpers/evaFixture';

/**
 * A `kind: skill` binding belongs to the adapter its `default_provider` names, and only
 * without one to its `provider` (eva.md §2.6): with both set, `provider` never decides.
 */
describe('Eva bindings: default_provider before provider (eva.md §2.6)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('binds to default_provider when provider names another skill adapter', () => {
    f.adapter(A0, 'a.yaml');
    // A second skill adapter, disabled by its manifest: a binding under it would be off.
    f.adapter(
      A0.replace('id: review-skill', 'id: other-skill')
        .replace('  id: review\n', '  id: other\n')
        .replace('enabled: true', 'enabled: false'),
      'b.yaml',
    );
    f.write(
      'ws/config/capabilities/rs.yaml',
      `${SKILL_BINDING}default_provider: review-skill\nprovider: other-skill\n`,
    );
    const r = f.index();
    const b = r.item('capabilities/rs.yaml');
    assert.equal(b.parent, r.item('adapters/a.yaml').id);
    assert.deepEqual([b.decision, b.reasons], ['registered', ['loaded_unreviewed']]);
  });
});
