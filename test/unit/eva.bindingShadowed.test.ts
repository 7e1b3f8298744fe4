import * as assert from 'node:assert/strict';
import { A0, EvaFixture, SKILL_BINDING } from './helpers/evaFixture';

/**
 * A `kind: skill` binding whose id an earlier capability manifest already holds is
 * shadowed, whatever else is wrong with it: `duplicate_id_shadowed` is always primary
 * (eva.md §4.1), as it is for skill adapters and lua skills.
 */
describe('Eva bindings: shadowing leads every other reason (eva.md §4.1, §4.3)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('a shadowed binding with a missing provider is shadowed, schema_invalid second', () => {
    f.adapter(A0);
    f.write('ws/config/capabilities/rs.yaml', `${SKILL_BINDING}default_provider: review-skill\n`);
    f.write('ws/config/capabilities/rt.yaml', `${SKILL_BINDING}default_provider: nobody\n`);
    const r = f.index();
    const b = r.item('capabilities/rt.yaml');
    assert.deepEqual(
      [b.decision, b.reasons, b.shadowedBy, b.detail.eva.evaDecision, b.detail.eva.evaReasons],
      [
        'shadowed',
        ['duplicate_id_shadowed', 'schema_invalid'],
        r.item('capabilities/rs.yaml').id,
        'shadowed',
        ['duplicate_id_shadowed', 'schema_invalid'],
      ],
    );
  });

  it('a shadowed binding that breaks the schema is shadowed too', () => {
    f.adapter(A0);
    f.write('ws/config/capabilities/rs.yaml', `${SKILL_BINDING}default_provider: review-skill\n`);
    f.write(
      'ws/config/capabilities/ru.yaml',
      `${SKILL_BINDING.replace('1.0.0', '1.0')}default_provider: review-skill\n`,
    );
    const b = f.index().item('capabilities/ru.yaml');
    assert.deepEqual([b.decision, b.reasons], ['shadowed', ['duplicate_id_shadowed', 'schema_invalid']]);
  });
});
