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

  // Found by the fuzz harness (seed eva-bind-1, input 2616: the earlier binding named a stdio adapter).
  it('a binding shadowed by a capability manifest that is no item names no winner (shadowedBy null, as case 35)', () => {
    f.adapter(A0);
    // Context: an mcp_tool capability, and a binding whose provider is not a skill adapter.
    f.write(
      'ws/config/capabilities/a.yaml',
      SKILL_BINDING.replace('kind: skill', 'kind: mcp_tool').replace('workflow.review', 'repo.read'),
    );
    f.write('ws/config/capabilities/b.yaml', `${SKILL_BINDING}default_provider: review-skill\n`);
    f.adapter(A0.replace('review-skill', 'tool').replace('transport: skill', 'transport: stdio'), 'tool.yaml');
    f.write('ws/config/capabilities/c.yaml', `${SKILL_BINDING.replace('id: rs', 'id: rt')}default_provider: tool\n`);
    f.write(
      'ws/config/capabilities/d.yaml',
      `${SKILL_BINDING.replace('id: rs', 'id: rt')}default_provider: review-skill\n`,
    );
    const r = f.index();
    for (const shadowed of ['capabilities/b.yaml', 'capabilities/d.yaml']) {
      const b = r.item(shadowed);
      assert.deepEqual(
        [shadowed, b.decision, b.reasons, b.shadowedBy],
        [shadowed, 'shadowed', ['duplicate_id_shadowed'], null],
      );
    }
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
