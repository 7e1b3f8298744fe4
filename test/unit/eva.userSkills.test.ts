import * as assert from 'node:assert/strict';
import { A0, EvaFixture } from './helpers/evaFixture';

/**
 * User-level skill folders (eva.md §1.3, §3.2, §4.2 C0–C9, §4.3 rules 4–5): what each item
 * says (§4.8), the catalogue's words and severities (§5), the trust level by the real
 * path against the real home, and which project adapter overrides which folder.
 */

describe('Eva user skill items (eva.md §1.3, §4.8)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('describes a user skill under ~/.agents/skills with the §4.8 detail and the catalogue diagnostics', () => {
    f.write('home/.agents/skills/foo/SKILL.md', '---\nname: 5\n---\nbody\n');
    const r = f.index();
    const u = r.item('user:agents:foo');
    assert.deepEqual(
      [u.name, u.location, u.enabled, u.contentHash, u.reviewToken, 'description' in u.detail],
      [
        'foo',
        {
          file: f.path('home/.agents/skills/foo/SKILL.md'),
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        },
        null,
        null,
        null,
        false,
      ],
    );
    const e = u.detail.eva;
    assert.deepEqual(
      [
        e.evaDecision,
        e.target,
        e.evaKind,
        e.source,
        e.trustLevel,
        e.id,
        e.skillId,
        e.skillPath,
        e.schemas,
        e.capabilities,
        e.conflicts,
      ],
      [
        'display_only',
        'DisplayOnly',
        'workflow_skill',
        'user_agents',
        'UserLocal',
        'foo',
        'foo',
        '~/.agents/skills/foo/SKILL.md',
        { input: 'absent', output: 'absent' },
        [],
        [],
      ],
    );
    assert.deepEqual(
      r.diagnostics().map((d) => [d.code, d.severity, d.message, d.itemId]),
      [
        [
          'eva.user.manifest-required',
          'information',
          'user-local workflow skill has no project skill manifest; it is display-only',
          u.id,
        ],
        ['eva.user.policy', 'information', 'user local skills are display-only by current policy', u.id],
        [
          'eva.skill.schema-missing',
          'warning',
          'output_schema is missing: a user-local skill declares no input or output schema',
          u.id,
        ],
      ],
    );
  });

  it('names the runtime_worker and same-directory cases in the catalogue words', () => {
    f.user('team');
    f.user('team', 'agents');
    const r = f.index();
    assert.deepEqual(
      [...new Set(r.diagnostics().map((d) => `${d.code} ${d.severity[0]} ${d.message}`))].filter(
        (x) => x.includes('runtime-worker') || x.includes('same-skill'),
      ),
      [
        'eva.conflict.same-skill-multiple-directory i the same skill directory exists under ~/.codex/skills and ~/.agents/skills',
        'eva.kind.runtime-worker i runtime_worker skills are display-only outside their team runtime',
      ],
    );
    const codex = r.item('user:codex:team').detail.eva;
    assert.deepEqual(
      [codex.conflicts, codex.source, codex.skillPath, codex.evaKind],
      [['same_skill_multiple_directory'], 'user_codex', '~/.codex/skills/team/SKILL.md', 'runtime_worker'],
    );
  });

  it('lists a linked SKILL.md in the catalogue words, and a front matter too large to read', () => {
    f.write('home/notes.md', '---\nname: x\n---\n');
    f.mkdir('home/.codex/skills/linked');
    f.symlink(f.path('home/notes.md'), 'home/.codex/skills/linked/SKILL.md');
    f.write('home/.codex/skills/big/SKILL.md', `---\nname: big\n---\n${'x'.repeat(1_048_576)}`);
    const r = f.index();
    assert.deepEqual(
      r.diagnostics('eva.user.symlink').map((d) => [d.severity, d.message]),
      [['warning', 'SKILL.md is a symbolic link; it is listed but cannot be reviewed']],
    );
    assert.deepEqual(
      r.diagnostics('eva.user.frontmatter').map((d) => [d.severity, d.message, d.itemId]),
      [
        [
          'warning',
          'SKILL.md front matter could not be read: SKILL.md is larger than 1048576 bytes',
          'eva:user:codex:big',
        ],
      ],
    );
  });

  it('reads a front matter after a byte order mark; ignores a name or description that is not a string', () => {
    f.write('home/.codex/skills/bom/SKILL.md', '\ufeff---\nname: Bom\ndescription: [a]\n---\n');
    const u = f.index().item('user:codex:bom');
    assert.deepEqual([u.name, 'description' in u.detail], ['Bom', false]);
  });

  it('compares the real SKILL.md with the real home: a home reached through a link is still home', () => {
    f.write('realhome/.codex/skills/foo/SKILL.md', '---\nname: foo\n---\n');
    f.symlink(f.path('realhome'), 'linkhome');
    const u = f.index({ home: f.path('linkhome') }).item('user:codex:foo');
    assert.deepEqual(
      [u.detail.eva.trustLevel, u.reasons],
      ['UserLocal', ['manifest_required', 'capability_missing_schema']],
    );
  });
});

describe('Eva project adapters overriding user skill folders (eva.md §4.3 rule 4)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('a skill.path resolving to the real SKILL.md of a linked user folder overrides it', () => {
    f.write('ws/skills/foo/SKILL.md', '---\nname: foo\n---\n');
    f.mkdir('home/.codex/skills');
    f.symlink(f.path('ws/skills/foo'), 'home/.codex/skills/foo');
    f.adapter(
      A0.replace('  id: review\n', '  id: not-foo\n  path: skills/foo/SKILL.md\n').replace(
        'source: codex',
        'source: elsewhere',
      ),
    );
    const r = f.index();
    const u = r.item('user:codex:foo');
    assert.deepEqual(
      [u.decision, u.shadowedBy, u.detail.eva.target, u.detail.eva.conflicts],
      ['shadowed', r.item('adapters/review.yaml').id, null, ['manifest_overrides_auto_discovery']],
    );
    assert.deepEqual(
      r.diagnostics('eva.conflict.shadowed').map((d) => [d.severity, d.message]),
      [['information', 'shadowed by review-skill (project manifest overrides auto-discovery)']],
    );
  });

  it('a skill.path naming another file, or the same skill id under the other source, overrides nothing', () => {
    f.user('foo');
    f.write('ws/skills/other/SKILL.md', 's');
    f.adapter(
      A0.replace('  id: review\n', '  id: foo\n  path: skills/other/SKILL.md\n').replace(
        'source: codex',
        'source: agents',
      ),
    );
    const u = f.index().item('user:codex:foo');
    assert.deepEqual([u.decision, u.shadowedBy], ['display_only', null]);
  });
});
