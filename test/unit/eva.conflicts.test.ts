import * as assert from 'node:assert/strict';
import { A0, EvaFixture, L0 } from './helpers/evaFixture';

/**
 * eva.md §4.3 rule 6 (several providers; Eva-CLI routes to the lexically smallest enabled
 * adapter id), rules 1–3 (ids, shadowing, namespaces) and the provider check of §2.4, at
 * the words and ranges the diagnostics catalogue (§5) gives.
 */

/** A0 as adapter `id`, wrapping skill `skill`, exposing `caps`. */
function adapter(id: string, skill: string, caps: string[], enabled = true): string {
  return A0.replace('id: review-skill', `id: ${id}`)
    .replace('  id: review\n', `  id: ${skill}\n`)
    .replace('capabilities: [workflow.review]', `capabilities: [${caps.join(', ')}]`)
    .replace('enabled: true', `enabled: ${enabled}`);
}

const CAPS_LINE = 13;

describe('Eva several providers (eva.md §4.3 rule 6)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('routes to the smallest enabled adapter id in byte order, not in locale order', () => {
    f.adapter(adapter('alpha', 'a', ['workflow.review']), 'a.yaml');
    f.adapter(adapter('Zeta', 'z', ['workflow.review']), 'b.yaml');
    const r = f.index();
    const told = r.diagnostics('eva.conflict.multiple-providers');
    assert.deepEqual(
      told.map((d) => [r.rel(d.file), d.message, d.severity, d.itemId]),
      [
        [
          'config/adapters/a.yaml',
          'workflow.review has several providers; Eva-CLI routes to Zeta (lexically first enabled adapter id)',
          'information',
          r.item('adapters/a.yaml').id,
        ],
        [
          'config/adapters/b.yaml',
          'workflow.review has several providers; Eva-CLI routes to Zeta (lexically first enabled adapter id)',
          'information',
          r.item('adapters/b.yaml').id,
        ],
      ],
    );
    for (const rel of ['adapters/a.yaml', 'adapters/b.yaml'])
      assert.deepEqual(r.item(rel).detail.eva.conflicts, ['same_capability_multiple_provider']);
  });

  it('points at the shared capability in each list, wherever it stands', () => {
    f.adapter(adapter('one', 'a', ['workflow.a', 'workflow.shared']), 'a.yaml');
    f.adapter(adapter('two', 'b', ['workflow.shared']), 'b.yaml');
    const r = f.index();
    const told = r.diagnostics('eva.conflict.multiple-providers');
    assert.deepEqual(
      told.map((d) => [r.rel(d.file), d.range.start, d.range.end]),
      [
        ['config/adapters/a.yaml', { line: CAPS_LINE, character: 27 }, { line: CAPS_LINE, character: 42 }],
        ['config/adapters/b.yaml', { line: CAPS_LINE, character: 15 }, { line: CAPS_LINE, character: 30 }],
      ],
    );
    assert.match(told[0]?.message as string, /^workflow\.shared has several providers; Eva-CLI routes to one /);
  });

  it('counts an adapter that lists one capability twice once', () => {
    f.adapter(adapter('one', 'a', ['workflow.review', 'workflow.review']), 'a.yaml');
    assert.deepEqual(f.index().diagnostics('eva.conflict.multiple-providers'), []);
  });

  it('tells each adapter once even when it shares several capabilities and its skill', () => {
    f.adapter(adapter('one', 'same', ['workflow.a', 'workflow.b']), 'a.yaml');
    f.adapter(adapter('two', 'same', ['workflow.a', 'workflow.b']), 'b.yaml');
    const r = f.index();
    assert.deepEqual(
      r.diagnostics('eva.conflict.multiple-providers').map((d) => [r.rel(d.file), d.message]),
      [
        [
          'config/adapters/a.yaml',
          'workflow.a has several providers; Eva-CLI routes to one (lexically first enabled adapter id)',
        ],
        [
          'config/adapters/b.yaml',
          'workflow.a has several providers; Eva-CLI routes to one (lexically first enabled adapter id)',
        ],
      ],
    );
  });

  it('tells adapters wrapping the same skill at skill.id, naming the skill and the route', () => {
    f.adapter(adapter('one', 'same', ['workflow.a'], false), 'a.yaml');
    f.adapter(adapter('two', 'same', ['workflow.b']), 'b.yaml');
    const r = f.index();
    const told = r.diagnostics('eva.conflict.multiple-providers');
    assert.deepEqual(
      told.map((d) => [r.rel(d.file), d.message, d.range.start.line]),
      [
        [
          'config/adapters/a.yaml',
          'skill same has several providers; Eva-CLI routes to two (lexically first enabled adapter id)',
          7,
        ],
        [
          'config/adapters/b.yaml',
          'skill same has several providers; Eva-CLI routes to two (lexically first enabled adapter id)',
          7,
        ],
      ],
    );
  });

  it('tells adapters wrapping the same skill id with no source at all', () => {
    f.adapter(adapter('one', 'same', ['workflow.a']).replace('  source: codex\n', ''), 'a.yaml');
    f.adapter(adapter('two', 'same', ['workflow.b']).replace('  source: codex\n', ''), 'b.yaml');
    assert.equal(f.index().diagnostics('eva.conflict.multiple-providers').length, 2);
  });

  it('tells nothing for the same skill id under different sources', () => {
    f.adapter(adapter('one', 'same', ['workflow.a']), 'a.yaml');
    f.adapter(adapter('two', 'same', ['workflow.b']).replace('source: codex', 'source: agents'), 'b.yaml');
    assert.deepEqual(f.index().diagnostics('eva.conflict.multiple-providers'), []);
  });

  it('counts no shadowed duplicate as a provider, nor routes to it', () => {
    // a.yaml wins the id review-skill (disabled); b.yaml, enabled, is shadowed and never loaded.
    f.adapter(adapter('review-skill', 'a', ['workflow.review'], false), 'a.yaml');
    f.adapter(adapter('review-skill', 'b', ['workflow.review']), 'b.yaml');
    f.adapter(adapter('zeta', 'z', ['workflow.review']), 'c.yaml');
    const r = f.index();
    assert.equal(r.item('adapters/b.yaml').decision, 'shadowed');
    assert.deepEqual(
      r.diagnostics('eva.conflict.multiple-providers').map((d) => [r.rel(d.file), d.message]),
      [
        [
          'config/adapters/a.yaml',
          'workflow.review has several providers; Eva-CLI routes to zeta (lexically first enabled adapter id)',
        ],
        [
          'config/adapters/c.yaml',
          'workflow.review has several providers; Eva-CLI routes to zeta (lexically first enabled adapter id)',
        ],
      ],
    );
  });

  it('tells nothing for an adapter whose contract cannot be read, nor for a lua_skill', () => {
    f.adapter(adapter('one', 'a', ['workflow.review']), 'a.yaml');
    f.adapter(adapter('two', 'b', ['workflow.review']).replace(/skill:\n(  .*\n)+/, ''), 'b.yaml');
    f.l0(L0.replace('[workflow.lint]', '[workflow.review]'));
    assert.deepEqual(f.index().diagnostics('eva.conflict.multiple-providers'), []);
  });
});

describe('Eva ids across manifests (eva.md §4.3 rules 1–3, §2.4)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('shadows only by id: manifests without a readable id never shadow each other', () => {
    f.adapter(A0.replace('id: review-skill', 'id: [x]'), 'a.yaml');
    f.adapter(A0.replace('id: review-skill', 'id: [x]'), 'b.yaml');
    const r = f.index();
    assert.deepEqual([r.item('adapters/a.yaml').shadowedBy, r.item('adapters/b.yaml').shadowedBy], [null, null]);
    assert.deepEqual(r.diagnostics('eva.conflict.duplicate-adapter-id'), []);
  });

  it('points the duplicate-id error at the later id', () => {
    f.l0();
    f.write('ws/config/capabilities/z.yaml', `# the same id again\n${L0}`);
    const r = f.index();
    const [d] = r.diagnostics('eva.conflict.duplicate-capability-id');
    assert.deepEqual(
      [r.rel(d?.file as string), d?.range.start, d?.severity, d?.itemId],
      ['config/capabilities/z.yaml', { line: 1, character: 0 }, 'error', r.item('capabilities/z.yaml').id],
    );
    assert.deepEqual(r.item('capabilities/z.yaml').detail.eva.conflicts, ['duplicate_capability_id']);
    // Both are lua_skill manifests, which the shipped loader refuses anyway: it stops at the first.
    assert.deepEqual(
      r.diagnostics('eva.project.load-aborted').map((x) => r.rel(x.file)),
      ['config/capabilities/lint.yaml'],
    );
  });

  it('tells the cross-namespace id at the id of each, and not for ids used in one namespace only', () => {
    f.adapter(`# adapter\n${A0.replace('id: review-skill', 'id: lint-skill')}`);
    f.adapter(A0.replace('id: review-skill', 'id: only-adapter').replace('  id: review\n', '  id: x\n'), 'b.yaml');
    f.l0();
    const r = f.index();
    assert.deepEqual(
      r.diagnostics('eva.conflict.cross-namespace-id').map((d) => [r.rel(d.file), d.range.start.line, d.itemId]),
      [
        ['config/adapters/review.yaml', 1, r.item('adapters/review.yaml').id],
        ['config/capabilities/lint.yaml', 0, r.item('capabilities/lint.yaml').id],
      ],
    );
  });

  it('checks the provider fields of a capability manifest: provider when no default_provider, at its field', () => {
    f.adapter(A0);
    f.write(
      'ws/config/capabilities/c.yaml',
      'id: c\nname: C\nversion: 1.0.0\nenabled: true\nkind: mcp_tool\ncapability: repo.read\nprovider: nobody\n',
    );
    const r = f.index();
    assert.deepEqual(
      r.diagnostics('eva.capability.provider-missing').map((d) => [r.rel(d.file), d.range.start, d.message]),
      [['config/capabilities/c.yaml', { line: 6, character: 0 }, 'Capability provider Adapter does not exist']],
    );
    assert.deepEqual(
      r.diagnostics('eva.project.load-aborted').map((d) => r.rel(d.file)),
      ['config/capabilities/c.yaml'],
    );
  });

  it('accepts existing providers in every field; a provider written as a number is that id (serde reads its text)', () => {
    f.adapter(A0);
    const text =
      'id: c\nname: C\nversion: 1.0.0\nenabled: true\nkind: mcp_tool\ncapability: repo.read\ndefault_provider: review-skill\nprovider: review-skill\npermissions: {adapters: {providers: [review-skill]}}\n';
    f.write('ws/config/capabilities/c.yaml', text);
    let r = f.index();
    assert.deepEqual(r.diagnostics('eva.capability.provider-missing'), []);
    assert.deepEqual(r.diagnostics('eva.project.load-aborted'), []);
    // `Vec<String>` takes `5` as "5": no adapter has that id, so Eva-CLI stops loading.
    f.write('ws/config/capabilities/c.yaml', text.replace('[review-skill]', '[review-skill, 5]'));
    r = f.index();
    assert.deepEqual(
      r.diagnostics('eva.capability.provider-missing').map((d) => r.rel(d.file)),
      ['config/capabilities/c.yaml'],
    );
  });

  it('rejects a lua_skill naming a provider no adapter has: schema_invalid, at the provider (eva.md §2.5, §4.1)', () => {
    f.adapter(A0);
    const providers = (list: string) =>
      L0.replace('network: false', `adapters: {providers: [${list}]}, network: false`);
    f.l0(providers('review-skill'));
    assert.deepEqual(f.index().item('capabilities/lint.yaml').detail.eva.evaReasons, ['registered']);
    f.l0(providers('review-skill, nobody'));
    const r = f.index();
    const item = r.item('capabilities/lint.yaml');
    assert.deepEqual(
      [item.decision, item.reasons, item.detail.eva.evaReasons],
      ['rejected', ['schema_invalid', 'not_reviewed'], ['schema_invalid']],
    );
    assert.deepEqual(
      r.diagnostics('eva.capability.provider-missing').map((d) => [d.itemId, d.range.start.line]),
      [[item.id, 8]],
    );
  });

  it('does not check the providers of a manifest that is already invalid', () => {
    f.write(
      'ws/config/capabilities/c.yaml',
      'id: c\nname: C\nversion: 1.0.0\nenabled: yes\nkind: mcp_tool\ncapability: repo.read\nprovider: nobody\n',
    );
    const r = f.index();
    assert.deepEqual(r.diagnostics('eva.capability.provider-missing'), []);
    assert.deepEqual(
      r.diagnostics('eva.schema.type').map((d) => r.rel(d.file)),
      ['config/capabilities/c.yaml'],
    );
  });
});
