import * as assert from 'node:assert/strict';
import { A0, EvaFixture } from './helpers/evaFixture';

/**
 * A user skill folder is shadowed by the first project skill adapter that wraps it,
 * "whatever that adapter's own decision" (eva.md §4.3 rule 4): an adapter Eva rejects
 * still names the folder, by `skill.path` as by `skill.source` + `skill.id`.
 */
describe('Eva user skills shadowed by a rejected skill adapter (eva.md §4.3 rule 4)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
    f.user('foo');
  });
  afterEach(() => f.remove());

  const BY_PATH = A0.replace('  source: codex\n', '  source: mine\n  path: ~/.codex/skills/foo/SKILL.md\n');
  const SHADOWED = ['duplicate_id_shadowed', 'manifest_required', 'capability_missing_schema'];

  for (const [what, text] of [
    ['accepted', BY_PATH],
    ['missing skill.kind', BY_PATH.replace('  kind: workflow_skill\n', '')],
    ['missing routing (upstream schema)', BY_PATH.replace('routing: {priority: 10}\n', '')],
    ['with an invalid id', BY_PATH.replace('id: review-skill', 'id: Review Skill')],
  ] as const) {
    it(`by skill.path, from an adapter ${what}`, () => {
      f.adapter(text);
      const r = f.index();
      const user = r.item('user:codex:foo');
      assert.deepEqual(
        [user.decision, user.reasons, user.shadowedBy],
        ['shadowed', SHADOWED, f.id('adapters/review.yaml')],
      );
    });
  }

  it('by skill.source and skill.id, from an adapter that breaks the upstream schema', () => {
    f.adapter(A0.replace('  id: review\n', '  id: foo\n').replace('routing: {priority: 10}\n', ''));
    const r = f.index();
    const user = r.item('user:codex:foo');
    assert.deepEqual([user.decision, user.shadowedBy], ['shadowed', f.id('adapters/review.yaml')]);
    assert.deepEqual(
      r.diagnostics('eva.conflict.shadowed').map((d) => d.message),
      ['shadowed by review-skill (project manifest overrides auto-discovery)'],
    );
  });
});
