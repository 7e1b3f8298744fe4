import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { A0, EvaFixture, L0, SKILL_BINDING } from './helpers/evaFixture';
import type { TrustView } from '../../src/core/decisions/trustView';
import type { Gate } from '../../src/core/decisions/gates';
import type { ReasonCode } from '../../src/core/model';
import type { EvaItem } from '../../src/core/systems/eva/item';
import { indexEva } from '../../src/core/systems/eva/indexEva';
import { gateItems, withTrust } from '../../src/core/systems/eva/bundleTrust';
import { coverDirectory, evaContentHash } from '../../src/core/systems/eva/hashes';
import { MAX_HASHED_BYTES, MAX_HASHED_FILES } from '../../src/core/hashing/bundleContent';
import { EvaIndex } from '../../src/core/systems/eva/evaIndex';

/**
 * Eva's cross-file rules and what the index makes of them: keys and shadowing (eva.md
 * §4.3), the provider check (§2.4), `kind: skill` bindings (§2.6), user skill folders
 * (§1.3, §4.2 C0–C9), the project-level failure (§4.5), and Skillgate's trust gate on
 * Eva bundles (§4.6, §6), asserting decision, reasons and `enabled` on every refusal.
 */

function trusting(...items: EvaItem[]): TrustView {
  return {
    available: true,
    lookup: (k) => {
      const item = items.find((i) => i.detail.bundleKey === k);
      return item
        ? {
            enabled: false,
            trust: { contentHash: item.contentHash as string, capabilityHash: item.capabilityHash as string },
          }
        : undefined;
    },
  };
}

const UNREVIEWED = ['loaded_unreviewed', 'not_reviewed'];

describe('Eva keys, precedence and shadowing (eva.md §4.3)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('shadows a later manifest with the same adapter id, naming both paths, and lists the conflict', () => {
    f.adapter(A0, 'a.yaml');
    f.adapter(A0, 'b.yaml');
    const r = f.index();
    const [a, b] = [r.item('adapters/a.yaml'), r.item('adapters/b.yaml')];
    assert.deepEqual(
      [a.decision, a.shadowedBy, a.detail.eva.conflicts.includes('duplicate_adapter_id')],
      ['registered', null, false],
    );
    assert.deepEqual(
      [b.decision, b.reasons, b.shadowedBy, b.enabled],
      ['shadowed', ['duplicate_id_shadowed', 'not_reviewed'], a.id, null],
    );
    assert.ok(b.detail.eva.conflicts.includes('duplicate_adapter_id'));
    const [d] = r.diagnostics('eva.conflict.duplicate-adapter-id');
    assert.equal(
      d?.message,
      'duplicate Adapter manifest id: review-skill (config/adapters/a.yaml, config/adapters/b.yaml)',
    );
    assert.deepEqual([d?.itemId, d?.range.start.line], [b.id, 0]);
    assert.deepEqual(
      r.diagnostics('eva.project.load-aborted').map((x) => [r.rel(x.file), x.itemId]),
      [['config/adapters/b.yaml', b.id]],
    );
  });

  it('shadows a later capability manifest with the same id; a lua_skill shadowed keeps its own reasons after', () => {
    f.l0();
    f.write('ws/config/capabilities/zz.yaml', L0.replace('enabled', 'x'));
    const r = f.index();
    const later = r.item('capabilities/zz.yaml');
    assert.deepEqual([later.decision, later.detail.eva.evaReasons[0]], ['shadowed', 'duplicate_id_shadowed']);
    assert.equal(later.shadowedBy, r.item('capabilities/lint.yaml').id);
    assert.match(
      r.diagnostics('eva.conflict.duplicate-capability-id')[0]?.message as string,
      /^duplicate Capability manifest id: lint-skill \(config\/capabilities\/lint\.yaml, config\/capabilities\/zz\.yaml\)$/,
    );
  });

  it('a lua_skill shadowed by an earlier kind: skill binding names that binding, an item, as its winner', () => {
    f.adapter(A0);
    f.write(
      'ws/config/capabilities/a.yaml',
      `${SKILL_BINDING.replace('id: rs', 'id: lint-skill')}default_provider: review-skill\n`,
    );
    f.l0();
    const r = f.index();
    const winner = r.item('capabilities/a.yaml');
    assert.equal(winner.kind, 'skill-binding');
    const lua = r.item('capabilities/lint.yaml');
    assert.deepEqual([lua.decision, lua.shadowedBy], ['shadowed', winner.id]);
  });

  it('a shadowed skill whose winner is a context file has shadowedBy null', () => {
    f.adapter(A0.replace('transport: skill', 'transport: stdio'), 'a.yaml');
    f.adapter(A0, 'b.yaml');
    const b = f.index().item('adapters/b.yaml');
    assert.deepEqual([b.decision, b.shadowedBy], ['shadowed', null]);
  });

  it('a shadowed manifest that also fails C2 stays shadowed first', () => {
    f.adapter(A0, 'a.yaml');
    f.adapter(A0.replace('  kind: workflow_skill\n', ''), 'b.yaml');
    const b = f.index().item('adapters/b.yaml');
    assert.deepEqual([b.decision, b.detail.eva.evaReasons], ['shadowed', ['duplicate_id_shadowed', 'schema_invalid']]);
  });

  it('the same id as adapter and capability is no conflict, but both are told, with the conflict listed', () => {
    f.adapter(A0.replace('id: review-skill', 'id: lint-skill'));
    f.l0();
    const r = f.index();
    const told = r.diagnostics('eva.conflict.cross-namespace-id');
    assert.deepEqual(
      told.map((d) => [r.rel(d.file), d.message, d.severity]),
      [
        [
          'config/adapters/review.yaml',
          'the id lint-skill is used by both an adapter and a capability manifest',
          'information',
        ],
        [
          'config/capabilities/lint.yaml',
          'the id lint-skill is used by both an adapter and a capability manifest',
          'information',
        ],
      ],
    );
    assert.deepEqual(r.item('adapters/review.yaml').detail.eva.conflicts, ['cross_namespace_id']);
    assert.deepEqual(r.item('adapters/review.yaml').decision, 'registered');
  });

  it('several adapters exposing one capability: each told once where Eva-CLI routes, the lexically first enabled id', () => {
    f.adapter(A0.replace('id: review-skill', 'id: zeta').replace('id: review\n', 'id: z\n'), 'a.yaml');
    f.adapter(
      A0.replace('id: review-skill', 'id: alpha')
        .replace('id: review\n', 'id: a\n')
        .replace('enabled: true', 'enabled: false'),
      'b.yaml',
    );
    f.adapter(A0.replace('id: review-skill', 'id: mid').replace('id: review\n', 'id: m\n'), 'c.yaml');
    const r = f.index();
    const told = r.diagnostics('eva.conflict.multiple-providers');
    assert.deepEqual(
      told.map((d) => [r.rel(d.file), d.message, d.range.start.line]),
      [
        [
          'config/adapters/a.yaml',
          'workflow.review has several providers; Eva-CLI routes to mid (lexically first enabled adapter id)',
          13,
        ],
        [
          'config/adapters/b.yaml',
          'workflow.review has several providers; Eva-CLI routes to mid (lexically first enabled adapter id)',
          13,
        ],
        [
          'config/adapters/c.yaml',
          'workflow.review has several providers; Eva-CLI routes to mid (lexically first enabled adapter id)',
          13,
        ],
      ],
    );
    assert.deepEqual(r.item('adapters/a.yaml').detail.eva.conflicts, ['same_capability_multiple_provider']);
  });

  it('with no enabled provider, says so', () => {
    f.adapter(A0.replace('enabled: true', 'enabled: false'), 'a.yaml');
    f.adapter(
      A0.replace('id: review-skill', 'id: other')
        .replace('id: review\n', 'id: o\n')
        .replace('enabled: true', 'enabled: false'),
      'b.yaml',
    );
    const told = f.index().diagnostics('eva.conflict.multiple-providers');
    assert.equal(told.length, 2);
    assert.match(told[0]?.message as string, /routes to no enabled adapter/);
  });

  it('a single provider of a capability is not told', () => {
    f.adapter(A0);
    f.adapter(
      A0.replace('id: review-skill', 'id: other')
        .replace('id: review\n', 'id: o\n')
        .replace('workflow.review', 'workflow.other'),
      'b.yaml',
    );
    assert.deepEqual(f.index().diagnostics('eva.conflict.multiple-providers'), []);
  });
});

describe('Eva capability providers and kind: skill bindings (eva.md §2.4, §2.6)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  const binding = (text: string) => f.write('ws/config/capabilities/rs.yaml', text);

  it('a binding inherits its provider: registered with the provider primary reason, loaded_unreviewed until trusted (§2.6)', () => {
    f.adapter(A0);
    binding(`${SKILL_BINDING}default_provider: review-skill\n`);
    const r = f.index();
    const b = r.item('capabilities/rs.yaml');
    const provider = r.item('adapters/review.yaml');
    assert.deepEqual(
      [b.kind, b.parent, b.decision, b.reasons, b.enabled, b.trust, b.contentHash, b.name, b.qualifiedName],
      ['skill-binding', provider.id, 'registered', ['loaded_unreviewed'], null, null, null, 'Review binding', 'rs'],
    );
    assert.deepEqual(
      [b.detail.eva.evaReasons, b.detail.eva.target, b.detail.eva.evaKind, b.detail.eva.skillId],
      [['registered'], 'AdapterRegistry', 'workflow_skill', 'review'],
    );
    const trusted = f.index({ trust: trusting(provider) }).item('capabilities/rs.yaml');
    assert.deepEqual([trusted.decision, trusted.reasons], ['registered', ['registered']]);
  });

  it('inherits an inactive provider as disabled [bundle_inactive]', () => {
    f.adapter(A0.replace('network: false', 'network: true'));
    binding(`${SKILL_BINDING}provider: review-skill\n`);
    const b = f.index().item('capabilities/rs.yaml');
    assert.deepEqual([b.decision, b.reasons, b.detail.eva.target], ['disabled', ['bundle_inactive'], null]);
  });

  it('a missing provider rejects the binding with the upstream message at the provider field', () => {
    binding(`${SKILL_BINDING}default_provider: nobody\n`);
    const r = f.index();
    const b = r.item('capabilities/rs.yaml');
    assert.deepEqual([b.decision, b.reasons, b.parent], ['rejected', ['schema_invalid'], null]);
    const [d] = r.diagnostics('eva.capability.provider-missing');
    assert.deepEqual(
      [d?.message, d?.range.start.line, d?.itemId],
      ['Capability provider Adapter does not exist', 6, b.id],
    );
    assert.deepEqual(
      r.diagnostics('eva.project.load-aborted').map((x) => r.rel(x.file)),
      ['config/capabilities/rs.yaml'],
    );
  });

  it('a binding whose permissions.adapters.providers names a missing adapter is rejected too (eva.md §4.1)', () => {
    f.adapter(A0);
    binding(`${SKILL_BINDING}default_provider: review-skill\npermissions: {adapters: {providers: [ghost]}}\n`);
    const r = f.index();
    const b = r.item('capabilities/rs.yaml');
    assert.deepEqual([b.decision, b.reasons], ['rejected', ['schema_invalid']]);
    assert.deepEqual(
      r.diagnostics('eva.capability.provider-missing').map((d) => [d.itemId, d.range.start.line]),
      [[b.id, 7]],
    );
  });

  it('a binding without any provider is rejected, and says why at its kind', () => {
    binding(SKILL_BINDING);
    const r = f.index();
    const item = r.item('capabilities/rs.yaml');
    assert.deepEqual(item.reasons, ['schema_invalid']);
    // A rejected item always says why: Eva loads such a capability without a word, so the words are Skillgate's.
    const told = r.diagnostics('eva.capability.skill-provider-none');
    assert.deepEqual(
      told.map((d) => [d.severity, d.itemId, r.rel(d.file), d.range.start.line, d.message]),
      [
        [
          'warning',
          item.id,
          'config/capabilities/rs.yaml',
          SKILL_BINDING.split('\n').findIndex((l) => l.startsWith('kind:')),
          'kind: skill capability names no provider (default_provider or provider): no adapter provides this skill, so nothing loads it',
        ],
      ],
    );
  });

  it('checks permissions.adapters.providers of any capability manifest, reporting the first missing one', () => {
    f.adapter(A0);
    f.write(
      'ws/config/capabilities/ctx.yaml',
      'id: c\nname: C\nversion: 1.0.0\nenabled: true\nkind: mcp_tool\ncapability: repo.read\npermissions: {adapters: {providers: [review-skill, ghost, ghost2]}}\n',
    );
    const r = f.index();
    const told = r.diagnostics('eva.capability.provider-missing');
    assert.deepEqual(
      told.map((d) => [r.rel(d.file), d.itemId, d.range.start.line]),
      [['config/capabilities/ctx.yaml', null, 6]],
    );
    assert.deepEqual(
      r.diagnostics('eva.project.load-aborted').map((x) => r.rel(x.file)),
      ['config/capabilities/ctx.yaml'],
    );
  });

  it('a binding that is disabled, shadowed or outside workflow.* says so', () => {
    f.adapter(A0);
    binding(`${SKILL_BINDING.replace('enabled: true', 'enabled: false')}default_provider: review-skill\n`);
    assert.deepEqual(f.index().item('capabilities/rs.yaml').reasons, ['disabled_by_manifest']);
    binding(`${SKILL_BINDING.replace('workflow.review', 'repo.review')}default_provider: review-skill\n`);
    const other = f.index().item('capabilities/rs.yaml');
    assert.deepEqual(
      [other.decision, other.reasons, other.detail.eva.target],
      ['display_only', ['capability_unknown'], null],
    );
    binding(`${SKILL_BINDING}default_provider: review-skill\n`);
    f.write('ws/config/capabilities/rt.yaml', `${SKILL_BINDING}default_provider: review-skill\n`);
    const shadowed = f.index().item('capabilities/rt.yaml');
    assert.deepEqual(
      [shadowed.decision, shadowed.reasons, shadowed.shadowedBy],
      ['shadowed', ['duplicate_id_shadowed'], f.index().item('capabilities/rs.yaml').id],
    );
  });

  it('a binding that is disabled or outside workflow.* says why, at the field, as an adapter does (eva.md §5)', () => {
    f.adapter(A0);
    const told = (code: string) =>
      f
        .index()
        .diagnostics(code)
        .filter((d) => d.file.endsWith('rs.yaml'))
        .map((d) => [d.severity, d.range.start.line, d.message]);
    const off = `${SKILL_BINDING.replace('enabled: true', 'enabled: false')}default_provider: review-skill\n`;
    binding(off);
    assert.deepEqual(told('eva.manifest.disabled'), [
      ['information', off.split('\n').findIndex((l) => l.startsWith('enabled:')), 'capability manifest is disabled'],
    ]);
    const other = `${SKILL_BINDING.replace('workflow.review', 'repo.review')}default_provider: review-skill\n`;
    binding(other);
    assert.deepEqual(told('eva.capability.unknown'), [
      [
        'warning',
        other.split('\n').findIndex((l) => l.startsWith('capability:')),
        'capability repo.review is not a workflow.* capability; skills expose only workflow capabilities',
      ],
    ]);
  });

  it('a binding whose provider is not a skill adapter is context: a warning, no item', () => {
    f.adapter(A0.replace('transport: skill', 'transport: stdio'));
    binding(`${SKILL_BINDING}default_provider: review-skill\n`);
    const r = f.index();
    assert.equal(
      r.items.some((i) => i.kind === 'skill-binding'),
      false,
    );
    const [d] = r.diagnostics('eva.capability.skill-provider-not-skill');
    assert.deepEqual(
      [d?.message, d?.severity, d?.range.start.line],
      ['kind: skill capability names a provider that is not a skill adapter', 'warning', 6],
    );
  });

  it('a binding that does not parse is rejected by its sniffed kind', () => {
    binding(`${SKILL_BINDING}default_provider: [\n`);
    const b = f.index().item('capabilities/rs.yaml');
    assert.deepEqual(
      [b.kind, b.decision, b.reasons, b.name],
      ['skill-binding', 'rejected', ['schema_invalid'], 'config/capabilities/rs.yaml'],
    );
  });

  it('a binding reports its schemas as inline or absent', () => {
    f.adapter(A0);
    binding(`${SKILL_BINDING}default_provider: review-skill\ninput_schema: {type: object}\n`);
    assert.deepEqual(f.index().item('capabilities/rs.yaml').detail.eva.schemas, { input: 'inline', output: 'absent' });
  });
});

describe('Eva user skill folders (eva.md §1.3, §4.2)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('a user item is display-only, described from its front matter, never a bundle', () => {
    f.write('home/.agents/skills/foo/SKILL.md', '---\nname: Foo skill\ndescription: does foo\n---\nbody\n');
    const r = f.index();
    const u = r.item('user:agents:foo');
    assert.deepEqual(
      [u.kind, u.scope, u.decision, u.reasons, u.name, u.qualifiedName, u.enabled, u.trust, u.workspace, u.path],
      [
        'skill',
        'user',
        'display_only',
        ['manifest_required', 'capability_missing_schema'],
        'Foo skill',
        'foo',
        null,
        null,
        null,
        f.path('home/.agents/skills/foo'),
      ],
    );
    assert.equal(u.detail.description, 'does foo');
    assert.deepEqual(
      [u.detail.eva.source, u.detail.eva.trustLevel, u.detail.eva.skillPath, u.detail.eva.target, u.detail.eva.evaKind],
      ['user_agents', 'UserLocal', '~/.agents/skills/foo/SKILL.md', 'DisplayOnly', 'workflow_skill'],
    );
    assert.ok(
      r
        .diagnostics()
        .filter((d) => d.file.endsWith('SKILL.md'))
        .every((d) => d.itemId === u.id),
    );
  });

  it('a folder named for a runtime worker is a runtime_worker, display-only in every mode (no gate admits it)', () => {
    for (const d of ['team', 'swarm', 'ralph', 'worker']) f.user(d);
    const r = f.index();
    for (const d of ['team', 'swarm', 'ralph', 'worker']) {
      const u = r.item(`user:codex:${d}`);
      assert.deepEqual([u.detail.eva.evaKind, u.reasons.at(-1)], ['runtime_worker', 'runtime_worker_display_only'], d);
    }
    const team = f
      .index({ runtime: { mode: 'team', teamWorker: false, interactiveUser: false } })
      .item('user:codex:team');
    assert.deepEqual(team.reasons, ['manifest_required', 'capability_missing_schema', 'runtime_worker_display_only']);
  });

  it('SKILL.md without front matter is listed under its folder name; an unclosed or broken front matter warns', () => {
    f.write('home/.codex/skills/plain/SKILL.md', '# Plain\n');
    f.write('home/.codex/skills/open/SKILL.md', '---\nname: x\n');
    f.write('home/.codex/skills/broken/SKILL.md', '---\nname: [\n---\n');
    f.write('home/.codex/skills/list/SKILL.md', '---\n- a\n---\n');
    f.write('home/.codex/skills/latin/SKILL.md', Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0xe9, 0x0a]));
    f.write('home/.codex/skills/crlf/SKILL.md', '\ufeff---\r\nname: Crlf\r\n---\r\n');
    const r = f.index();
    const warning = (d: string) =>
      r
        .diagnostics('eva.user.frontmatter')
        .filter((x) => x.itemId === `eva:user:codex:${d}`)
        .map((x) => x.message);
    assert.deepEqual([r.item('user:codex:plain').name, warning('plain')], ['plain', []]);
    assert.deepEqual(warning('open'), ['SKILL.md front matter could not be read: front matter is not closed']);
    assert.match(warning('broken')[0] as string, /^SKILL\.md front matter could not be read: failed to parse YAML/);
    assert.deepEqual([r.item('user:codex:list').name, warning('list')], ['list', []]);
    assert.deepEqual(warning('latin'), ['SKILL.md front matter could not be read: stream did not contain valid UTF-8']);
    assert.deepEqual([r.item('user:codex:crlf').name, warning('crlf')], ['Crlf', []]);
    assert.equal(r.item('user:codex:open').decision, 'display_only', 'still listed');
  });

  it('a SKILL.md over 1 MiB is listed with a warning', () => {
    f.write('home/.codex/skills/big/SKILL.md', `---\nname: b\n---\n${'x'.repeat(1_048_577)}`);
    const r = f.index();
    assert.deepEqual(
      r.diagnostics('eva.user.frontmatter').map((d) => d.message),
      ['SKILL.md front matter could not be read: SKILL.md is larger than 1048576 bytes'],
    );
  });

  it('past 500 folders per root, a folder is scan_limit_exceeded and its SKILL.md never read', () => {
    for (let i = 0; i <= 500; i++)
      f.write(`home/.codex/skills/s${String(i).padStart(3, '0')}/SKILL.md`, i === 500 ? '---\nname: [\n---\n' : 'x');
    const r = f.index();
    const last = r.item('user:codex:s500');
    assert.deepEqual(
      [last.decision, last.reasons, last.detail.eva.conflicts],
      ['display_only', ['scan_limit_exceeded'], []],
    );
    // Never opened, so nothing about its front matter; only why it is shown and not read (Eva says nothing).
    assert.deepEqual(
      r
        .diagnostics()
        .filter((d) => d.itemId === last.id)
        .map((d) => [d.code, d.severity, d.file, d.message]),
      [
        [
          'eva.user.scan-limit',
          'information',
          f.path('home/.codex/skills/s500/SKILL.md'),
          'Eva-CLI reads at most 500 skill folders of ~/.codex/skills (max_files_per_dir); s500 is past them, so its SKILL.md is never opened',
        ],
      ],
    );
    assert.deepEqual(r.item('user:codex:s499').reasons, ['manifest_required', 'capability_missing_schema']);
  });

  it('the same folder under both roots is told on both, and listed as their conflict', () => {
    f.user('foo', 'codex');
    f.user('foo', 'agents');
    f.user('bar', 'codex');
    const r = f.index();
    const told = r.diagnostics('eva.conflict.same-skill-multiple-directory');
    assert.deepEqual(told.map((d) => d.itemId).sort(), ['eva:user:agents:foo', 'eva:user:codex:foo']);
    assert.deepEqual(r.item('user:codex:foo').detail.eva.conflicts, ['same_skill_multiple_directory']);
    assert.deepEqual(r.item('user:codex:bar').detail.eva.conflicts, []);
  });

  it('is shadowed by an adapter whose skill.path names its SKILL.md, whatever the adapter decides', () => {
    f.user('foo', 'agents');
    f.adapter(
      A0.replace('source: codex', 'source: other')
        .replace('  id: review\n', '  id: review\n  path: ~/.agents/skills/foo/SKILL.md\n')
        .replace('network: false', 'network: true'),
    );
    const r = f.index();
    const u = r.item('user:agents:foo');
    assert.deepEqual(
      [u.decision, u.shadowedBy, u.detail.eva.conflicts],
      ['shadowed', r.item('adapters/review.yaml').id, ['manifest_overrides_auto_discovery']],
    );
    assert.deepEqual(
      r.diagnostics('eva.conflict.shadowed').map((d) => d.message),
      ['shadowed by review-skill (project manifest overrides auto-discovery)'],
    );
  });

  it('is shadowed by skill.source and skill.id only in its own root', () => {
    f.user('review', 'agents');
    f.adapter(A0);
    assert.equal(f.index().item('user:agents:review').decision, 'display_only', 'source codex does not name ~/.agents');
    f.adapter(A0.replace('source: codex', 'source: agents'));
    assert.equal(f.index().item('user:agents:review').decision, 'shadowed');
  });

  it('a SKILL.md reached outside $HOME is trust level Unknown: trust_level_unknown', () => {
    f.write('elsewhere/x/SKILL.md', '---\nname: x\n---\n');
    f.symlink(f.path('elsewhere/x'), 'home/.codex/skills/x');
    const u = f.index().item('user:codex:x');
    assert.deepEqual(
      [u.detail.eva.trustLevel, u.reasons],
      ['Unknown', ['manifest_required', 'trust_level_unknown', 'capability_missing_schema']],
    );
  });

  it('takes the policy of the first project: allow_user_local_skills drops the policy note', () => {
    f.user('foo');
    f.policy('adapter_policy: {skill: {allow_user_local_skills: true}}\n');
    assert.deepEqual(f.index().diagnostics('eva.user.policy'), []);
  });

  it('lists user items only beside an Eva project, with a home, and unless a project or --no-user turns them off', () => {
    f.user('foo');
    assert.equal(f.index({ home: null }).items.length, 0);
    assert.equal(f.index({ scanUserDirs: false }).items.length, 0);
    assert.equal(indexEva([], { home: f.home }).items.length, 0);
    const second = f.mkdir('ws2');
    f.write(
      'ws2/config/eva.yaml',
      fs.readFileSync(f.path('ws/config/eva.yaml')).toString() + 'discovery: {scan_user_dirs: false}\n',
    );
    const both = indexEva([f.ws, second], { home: f.home });
    assert.deepEqual([both.projects, both.items.length], [[f.ws, second], 0]);
  });
});

describe('Eva project-level failure (eva.md §4.5)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('puts one load-aborted warning on eva.yaml when it fails its schema, before any manifest', () => {
    f.adapter(A0.replace('routing: {priority: 10}\n', ''));
    f.write(
      'ws/config/eva.yaml',
      fs.readFileSync(f.path('ws/config/eva.yaml')).toString().replace('\nscheduler:\n', '\nscheduler_x:\n'),
    );
    const r = f.index();
    const aborted = r.diagnostics('eva.project.load-aborted');
    assert.deepEqual(
      aborted.map((d) => [r.rel(d.file), d.itemId, d.severity]),
      [['config/eva.yaml', null, 'warning']],
    );
    assert.deepEqual(
      r.diagnostics('eva.project.config-invalid').map((d) => d.message),
      ['required field is missing: $.scheduler'],
    );
  });

  it('with no failing file, nothing is aborted; a too-large manifest alone does not abort', () => {
    f.adapter(A0);
    assert.deepEqual(f.index().diagnostics('eva.project.load-aborted'), []);
    f.adapter(`${A0}#${'x'.repeat(1_048_576)}\n`, 'big.yaml');
    const r = f.index();
    assert.deepEqual(r.item('adapters/big.yaml').reasons, ['manifest_too_large']);
    assert.deepEqual(r.diagnostics('eva.project.load-aborted'), []);
  });

  it('an unreadable policy file fails closed: every skill is policy_denied, and the load aborts there', () => {
    f.adapter(A0);
    f.write('ws/config/policies/zz.yaml', Buffer.from([0xff, 0x0a]));
    const r = f.index();
    const item = r.item('adapters/review.yaml');
    assert.deepEqual(
      [item.decision, item.reasons, item.enabled, item.detail.eva.evaReasons],
      ['rejected', ['policy_denied', 'not_reviewed'], null, ['policy_denied']],
    );
    assert.deepEqual(
      r.diagnostics('eva.project.load-aborted').map((d) => r.rel(d.file)),
      ['config/policies/zz.yaml'],
    );
    assert.deepEqual(
      r.diagnostics('eva.policy.fail-closed').map((d) => d.itemId),
      [item.id],
    );
  });

  it('a malformed adapter_policy fails closed for a lua_skill too', () => {
    f.l0();
    f.policy('adapter_policy: {defaults: {network: 1}}\n');
    const r = f.index();
    const item = r.item('capabilities/lint.yaml');
    assert.deepEqual([item.decision, item.detail.eva.evaReasons], ['rejected', ['policy_denied']]);
    assert.deepEqual(
      r.diagnostics('eva.project.load-aborted').map((d) => r.rel(d.file)),
      ['config/capabilities/lint.yaml'],
    );
  });

  it('shows the effective timeout as the lower of the manifest and the policy maximum', () => {
    f.adapter(A0);
    f.policy('adapter_policy: {defaults: {max_timeout_ms: 1000}}\n');
    assert.equal(f.index().item('adapters/review.yaml').detail.eva.effectiveTimeoutMs, 1000);
    f.policy('adapter_policy: {defaults: {max_timeout_ms: 90000}}\n');
    assert.equal(f.index().item('adapters/review.yaml').detail.eva.effectiveTimeoutMs, 60000);
    f.policy('adapter_policy: {}\n');
    assert.equal(f.index().item('adapters/review.yaml').detail.eva.effectiveTimeoutMs, 60000);
    f.adapter(A0.replace('limits: {timeout_ms: 60000}', 'limits: {}'));
    f.policy('adapter_policy: {defaults: {max_timeout_ms: 5}}\n');
    assert.equal(f.index().item('adapters/review.yaml').detail.eva.effectiveTimeoutMs, 5);
  });

  it('names an adapter item by its Eva id, qualified by its skill id, and places it at the id', () => {
    f.adapter(A0);
    const item = f.index().item('adapters/review.yaml');
    assert.deepEqual(
      [item.name, item.qualifiedName, item.location.range.start.line, item.workspace],
      ['review-skill', 'review-skill (skill review)', 0, f.ws],
    );
    assert.deepEqual(item.detail.eva.requestedPermissions, {
      read_workspace: true,
      write_workspace: false,
      network: false,
      shell: false,
      env: [],
      fs_read: [],
      fs_write: [],
    });
  });

  it('an unparseable skill adapter is rejected by path, with no hashes and its own id', () => {
    f.adapter(A0.replace('routing: {priority: 10}', 'routing: {priority: 10'));
    const item = f.index().item('adapters/review.yaml');
    assert.deepEqual(
      [
        item.decision,
        item.reasons,
        item.contentHash,
        item.trust,
        item.name,
        item.detail.eva.evaKind,
        item.detail.eva.target,
      ],
      ['rejected', ['schema_invalid'], null, null, 'config/adapters/review.yaml', 'workflow_skill', null],
    );
    assert.equal(item.detail.bundleKey, undefined);
  });
});

describe("Skillgate's trust gate on Eva bundles (eva.md §4.6, §6)", () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('maps each gate after Eva decides: loaded_unreviewed first for what Eva registers, appended otherwise', () => {
    const gate = (...reasons: ReasonCode[]): Gate => ({ trust: 'not-reviewed', enabled: false, reasons });
    assert.deepEqual(withTrust('registered', ['registered'], gate()), {
      decision: 'registered',
      reasons: ['registered'],
    });
    for (const reason of [
      'not_reviewed',
      'content_changed',
      'capabilities_changed',
      'trust_store_unavailable',
    ] as const) {
      assert.deepEqual(withTrust('registered', ['registered'], gate(reason)), {
        decision: 'registered',
        reasons: ['loaded_unreviewed', reason],
      });
      assert.deepEqual(withTrust('rejected', ['policy_denied'], gate(reason)), {
        decision: 'rejected',
        reasons: ['policy_denied', reason],
      });
    }
    assert.deepEqual(withTrust('disabled', ['disabled_by_manifest'], gate('trust_store_unavailable')), {
      decision: 'disabled',
      reasons: ['disabled_by_manifest', 'trust_store_unavailable'],
    });
    // Restricted Mode changes nothing Eva registers; on what it does not, it holds as every gate reason does.
    assert.deepEqual(withTrust('registered', ['registered'], gate('workspace_untrusted')).reasons, ['registered']);
    assert.deepEqual(withTrust('registered', ['registered'], gate('workspace_untrusted', 'not_reviewed')).reasons, [
      'loaded_unreviewed',
      'not_reviewed',
      'workspace_untrusted',
    ]);
    assert.deepEqual(withTrust('rejected', ['policy_denied'], gate('workspace_untrusted', 'not_reviewed')).reasons, [
      'policy_denied',
      'workspace_untrusted',
      'not_reviewed',
    ]);
  });

  it('an unavailable store leaves every bundle registered but unreviewed, enabled untouched, never trusted', () => {
    f.adapter(A0);
    const item = f.index({ trust: { available: false, problem: 'broken' } }).item('adapters/review.yaml');
    assert.deepEqual(
      [item.decision, item.reasons, item.trust, item.enabled],
      ['registered', ['loaded_unreviewed', 'trust_store_unavailable'], 'not-reviewed', null],
    );
  });

  it('gateItems re-applies trust without reading: trusted, then changed, then Restricted Mode', () => {
    f.adapter(A0);
    binding(f);
    const r = f.index();
    const items = r.items;
    const adapter = r.item('adapters/review.yaml');
    const trusted = gateItems(items, trusting(adapter));
    assert.deepEqual(
      trusted.map((i) => [i.kind, i.decision, i.reasons, i.trust]),
      [
        ['skill-adapter', 'registered', ['registered'], 'trusted'],
        ['skill-binding', 'registered', ['registered'], null],
      ],
    );
    const changed = gateItems(items, trusting({ ...adapter, contentHash: 'other' }));
    assert.deepEqual(
      changed.map((i) => i.reasons),
      [['loaded_unreviewed', 'content_changed'], ['loaded_unreviewed']],
    );
    const restricted = gateItems(items, trusting(adapter), false);
    assert.deepEqual(restricted[0]?.reasons, ['registered'], 'a trusted bundle stays as Eva decided');
    const restrictedUnreviewed = gateItems(items, trusting(), false);
    assert.deepEqual(restrictedUnreviewed[0]?.reasons, ['loaded_unreviewed', 'not_reviewed', 'workspace_untrusted']);
    const unavailable = gateItems(items, { available: false, problem: 'x' }, false);
    assert.deepEqual(unavailable[0]?.reasons, ['loaded_unreviewed', 'trust_store_unavailable', 'workspace_untrusted']);
    assert.deepEqual(unavailable[0]?.trust, 'not-reviewed');
  });

  it('gateItems leaves a binding of an inactive provider, and items that are not bundles, as they are', () => {
    f.adapter(A0.replace('network: false', 'network: true'));
    binding(f);
    f.user('foo');
    const items = f.index().items;
    const gated = gateItems(items, trusting());
    assert.equal(gated[1], items[1], 'the binding object is kept');
    assert.equal(gated[2], items[2], 'the user item object is kept');
    assert.deepEqual(gated[1]?.reasons, ['bundle_inactive']);
  });

  it('a skill with a missing hash is never trusted', () => {
    f.adapter(A0);
    const item = f.index().item('adapters/review.yaml');
    const lookupAll: TrustView = {
      available: true,
      lookup: () => ({
        enabled: true,
        trust: { contentHash: item.contentHash as string, capabilityHash: item.capabilityHash as string },
      }),
    };
    const gated = gateItems([{ ...item, contentHash: null }], lookupAll);
    // Reviewed once (a receipt), unhashable now: changed since that review, never trusted.
    assert.equal(gated[0]?.trust, 'content-changed');
  });

  it('covers a workspace-relative runner command inside the project, never an absolute or bare one', () => {
    f.write('ws/bin/run.sh', 'echo\n');
    f.adapter(
      A0.replace('  entry: {type: codex_skill}\n', '  entry: {type: process}\n  runner: {command: bin/run.sh}\n'),
    );
    const withRunner = f.index().item('adapters/review.yaml');
    assert.deepEqual(
      withRunner.detail.files?.map((x) => x.path),
      ['bin/run.sh'],
    );
    f.write('ws/bin/run.sh', 'echo changed\n');
    assert.notEqual(f.index().item('adapters/review.yaml').contentHash, withRunner.contentHash);
    f.adapter(A0 + 'command: ./bin/run.sh\n');
    assert.deepEqual(
      f
        .index()
        .item('adapters/review.yaml')
        .detail.files?.map((x) => x.path),
      ['bin/run.sh'],
    );
    for (const command of ['run.sh', f.path('ws/bin/run.sh'), '../outside/run.sh', 'bin/none.sh']) {
      f.adapter(`${A0}command: ${command}\n`);
      assert.deepEqual(f.index().item('adapters/review.yaml').detail.files, [], command);
    }
  });

  it('covers a skill.path that names a single file; refuses a linked one; refuses one outside the roots', () => {
    f.write('ws/docs/review.md', 'how to review\n');
    f.adapter(A0.replace('  id: review\n', '  id: review\n  path: docs/review.md\n'));
    const one = f.index().item('adapters/review.yaml');
    assert.deepEqual(
      one.detail.files?.map((x) => x.path),
      ['docs/review.md'],
    );
    f.symlink(f.path('ws/docs/review.md'), 'ws/docs/link.md');
    f.adapter(A0.replace('  id: review\n', '  id: review\n  path: docs/link.md\n'));
    const r = f.index();
    const linked = r.item('adapters/review.yaml');
    assert.deepEqual(
      [linked.contentHash, linked.reviewToken, linked.detail.notCovered],
      [null, null, ['a file covered by this skill is a symbolic link; it cannot be reviewed']],
    );
    assert.deepEqual(
      r.diagnostics('eva.trust.symlink').map((d) => d.itemId),
      [linked.id],
    );
    assert.deepEqual([linked.decision, linked.reasons], ['registered', UNREVIEWED], 'Eva still registers it');
    f.adapter(A0.replace('  id: review\n', '  id: review\n  path: ../out.md\n'));
    const outside = f.index().item('adapters/review.yaml');
    assert.deepEqual(
      [outside.contentHash, outside.detail.notCovered],
      [null, [`covered path is outside the allowed roots: ${f.path('out.md')}`]],
    );
  });

  it('covers a missing SKILL.md of an existing folder as missing, with the rest of the folder', () => {
    f.write('ws/skills/review/notes.md', 'n');
    f.adapter(A0.replace('  id: review\n', '  id: review\n  path: skills/review/SKILL.md\n'));
    const item = f.index().item('adapters/review.yaml');
    assert.deepEqual(
      item.detail.files?.map((x) => x.path),
      ['skills/review/notes.md'],
    );
    assert.ok(item.contentHash);
    f.write('ws/skills/review/SKILL.md', 's');
    assert.notEqual(f.index().item('adapters/review.yaml').contentHash, item.contentHash);
  });

  it('refuses trust for a lua_skill whose script or schema file is a link', () => {
    f.l0();
    fs.renameSync(f.path('ws/schemas/lint.input.json'), f.path('ws/schemas/real.json'));
    f.symlink(f.path('ws/schemas/real.json'), 'ws/schemas/lint.input.json');
    const item = f.index().item('capabilities/lint.yaml');
    assert.deepEqual(
      [item.contentHash, item.detail.notCovered],
      [null, ['a file covered by this skill is a symbolic link; it cannot be reviewed']],
    );
    assert.deepEqual([item.decision, item.reasons], ['registered', UNREVIEWED]);
  });

  it('keys a lua_skill bundle, with capability pairs that move with the gate', () => {
    f.l0();
    const a = f.index().item('capabilities/lint.yaml');
    f.l0(L0.replace('disallow_team_worker: true', 'disallow_team_worker: false'));
    const b = f.index().item('capabilities/lint.yaml');
    assert.notEqual(a.capabilityHash, b.capabilityHash);
    f.l0(
      L0.replace(
        '{allowed_modes: [normal], disallow_team_worker: true}',
        '{allowed_modes: [normal], disallow_team_worker: true, requires_interactive_user: true}',
      ),
    );
    assert.notEqual(f.index().item('capabilities/lint.yaml').capabilityHash, a.capabilityHash);
    assert.equal(a.reviewToken, `${a.contentHash}.${a.capabilityHash}`);
  });

  it('moves the capability hash with each declared expansion of an adapter', () => {
    f.adapter(A0);
    const base = f.index().item('adapters/review.yaml').capabilityHash;
    for (const [from, to] of [
      ['kind: workflow_skill', 'kind: runtime_worker'],
      ['  id: review\n', '  id: other\n'],
      ['source: codex', 'source: agents'],
      ['type: codex_skill', 'type: process'],
      ['[workflow.review]', '[workflow.review, workflow.x]'],
      ['runtime_gate: normal', 'runtime_gate: team'],
      ['read_workspace: true', 'read_workspace: false'],
      ['shell: false', 'shell: true'],
      ['env: []', 'env: [A]'],
    ]) {
      f.adapter(A0.replace(from as string, to as string));
      assert.notEqual(f.index().item('adapters/review.yaml').capabilityHash, base, to);
    }
    f.adapter(A0.replace('[workflow.review]', '[workflow.review, workflow.review]'));
    assert.equal(f.index().item('adapters/review.yaml').capabilityHash, base, 'a repeated capability is the same set');
  });
});

function binding(f: EvaFixture): void {
  f.write('ws/config/capabilities/rs.yaml', `${SKILL_BINDING}default_provider: review-skill\n`);
}

describe('Eva covered content limits (eva.md §6.1)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture();
  });
  afterEach(() => f.remove());

  it('covers at most 4096 files of a skill folder', function () {
    this.timeout(60000);
    const dir = f.mkdir('ws/skill');
    for (let i = 0; i < MAX_HASHED_FILES; i++) fs.writeFileSync(path.join(dir, `f${i}`), '');
    const at = coverDirectory(dir, f.ws, null);
    assert.equal(at.ok && at.files.length, MAX_HASHED_FILES);
    fs.writeFileSync(path.join(dir, 'one-more'), '');
    assert.deepEqual(coverDirectory(dir, f.ws, null), {
      ok: false,
      cause: 'limit',
      message: `skill content exceeds the review limit (${MAX_HASHED_FILES} files / ${MAX_HASHED_BYTES} bytes)`,
    });
  });

  it('refuses a covered file outside the project and home, a link anywhere, and an unreadable folder', () => {
    f.write('ws/skill/a', 'a');
    assert.deepEqual(coverDirectory(f.path('ws/skill'), f.path('elsewhere'), null), {
      ok: false,
      cause: 'outside',
      message: 'a covered file lies outside the project and the home directory',
    });
    const home = coverDirectory(f.path('ws/skill'), f.path('elsewhere'), f.ws);
    assert.deepEqual(home.ok && home.files.map((x) => [x.domain, x.rel]), [['eva-home-file', 'skill/a']]);
    f.symlink(f.path('ws/skill/a'), 'ws/skill/sub/l');
    assert.deepEqual(coverDirectory(f.path('ws/skill'), f.ws, null), {
      ok: false,
      cause: 'symlink',
      message: 'a file covered by this skill is a symbolic link; it cannot be reviewed',
    });
    const missing = coverDirectory(f.path('none'), f.ws, null);
    assert.equal(missing.ok, false);
    assert.match(!missing.ok ? missing.message : '', /^failed to read skill directory: /);
  });

  it('refuses content past 64 MiB in all, by size, without reading it', () => {
    const big = f.write('ws/big.bin', '');
    fs.truncateSync(big, MAX_HASHED_BYTES + 1);
    assert.deepEqual(
      evaContentHash('lua-skill', Buffer.from('x'), [{ abs: big, domain: 'eva-project-file', rel: 'big.bin' }]),
      {
        ok: false,
        cause: 'limit',
        message: `skill content exceeds the review limit (${MAX_HASHED_FILES} files / ${MAX_HASHED_BYTES} bytes)`,
      },
    );
    const small = f.write('ws/s.bin', 'ab');
    fs.truncateSync(big, MAX_HASHED_BYTES - 1);
    const sum = evaContentHash('lua-skill', Buffer.from('x'), [
      { abs: big, domain: 'eva-project-file', rel: 'big.bin' },
      { abs: small, domain: 'eva-project-file', rel: 's.bin' },
    ]);
    assert.equal(sum.ok, false, 'the limit is on the total');
    const link = f.symlink(small, 'ws/l.bin');
    assert.deepEqual(
      evaContentHash('lua-skill', Buffer.from('x'), [{ abs: link, domain: 'eva-project-file', rel: 'l.bin' }]),
      {
        ok: false,
        cause: 'symlink',
        message: 'a file covered by this skill is a symbolic link; it cannot be reviewed',
      },
    );
    const dir = f.mkdir('ws/d');
    const notFile = evaContentHash('lua-skill', Buffer.from('x'), [{ abs: dir, domain: 'eva-project-file', rel: 'd' }]);
    assert.deepEqual(notFile.ok ? '' : notFile.message.slice(0, 28), 'failed to read covered file ');
  });

  it('hashes a file named twice once, and lists files with their home form', () => {
    const a = f.write('ws/a', 'a');
    const once = evaContentHash('lua-skill', Buffer.from('x'), [{ abs: a, domain: 'eva-project-file', rel: 'a' }]);
    const twice = evaContentHash('lua-skill', Buffer.from('x'), [
      { abs: a, domain: 'eva-project-file', rel: 'a' },
      { abs: a, domain: 'eva-project-file', rel: 'a' },
    ]);
    assert.deepEqual(twice, once);
    const home = evaContentHash('skill-adapter', Buffer.from('x'), [{ abs: a, domain: 'eva-home-file', rel: 'a' }]);
    assert.deepEqual(home.ok && home.files.map((x) => x.path), ['~/a']);
    assert.ok(home.ok && once.ok && home.contentHash !== once.contentHash);
  });
});

describe('The Eva index (evaIndex.ts)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  const ctx = { trust: { available: true as const, lookup: () => undefined }, workspaceTrusted: true };

  function loaded(workspaces = [f.ws]): EvaIndex {
    const index = new EvaIndex({ workspaces, evaHome: f.home });
    for (const load of index.scan()) load();
    return index;
  }

  it('loads nothing for folders that are not Eva projects', () => {
    const plain = f.mkdir('plain');
    const index = new EvaIndex({ workspaces: [plain], evaHome: f.home });
    assert.deepEqual(index.scan(), []);
    assert.deepEqual(index.compose(ctx), { items: [], diagnostics: [] });
    assert.deepEqual(index.watchedTrees(), [
      { base: plain, pattern: 'config' },
      { base: plain, pattern: 'config/eva.yaml' },
      { base: plain, pattern: 'config/eva.user.yaml' },
      { base: plain, pattern: 'config/profiles/*.yaml' },
      { base: plain, pattern: 'config/environments/*.yaml' },
    ]);
  });

  it('composes the project items, then the user items, gated by the trust given', () => {
    f.adapter(A0);
    f.user('foo');
    const index = loaded();
    const { items } = index.compose(ctx);
    assert.deepEqual(
      items.map((i) => i.id),
      [f.id('adapters/review.yaml'), 'eva:user:codex:foo'],
    );
    assert.deepEqual(items[0]?.reasons, UNREVIEWED);
    const restricted = index.compose({ ...ctx, workspaceTrusted: false }).items;
    assert.deepEqual(restricted[0]?.reasons, [...UNREVIEWED, 'workspace_untrusted']);
  });

  it('watches the configuration roots, covered skill folders and the user skill folders beside a project', () => {
    f.write('ws/skills/review/SKILL.md', 's');
    f.write('ws/schemas/s.json', '{}');
    f.adapter(A0.replace('  id: review\n', '  id: review\n  path: skills/review/SKILL.md\n'));
    const index = loaded();
    const trees = index.watchedTrees();
    for (const root of ['config/adapters', 'config/capabilities', 'config/policies', 'config/schemas', 'skills/review'])
      assert.ok(
        trees.some((t) => t.base === f.path('ws', root) && t.pattern === '**'),
        root,
      );
    assert.ok(trees.some((t) => t.base === f.home && t.pattern === '{.codex,.agents}/skills/**'));
    assert.deepEqual(index.watchedPaths(), [f.path('ws/skills/review/SKILL.md')]);
    assert.deepEqual(
      new EvaIndex({ workspaces: [f.ws], evaHome: null }).watchedTrees().length,
      5,
      'not loaded, no home',
    );
  });

  it('re-reads a project when its config, a root or a covered file changes; the user items with any project', () => {
    f.write('ws/docs/review.md', 'x');
    f.adapter(A0.replace('  id: review\n', '  id: review\n  path: docs/review.md\n'));
    const index = loaded();
    const before = index.compose(ctx).items[0]?.contentHash;
    f.write('ws/docs/review.md', 'changed');
    index.refresh([f.path('ws/unrelated.txt')]);
    assert.equal(index.compose(ctx).items[0]?.contentHash, before, 'an unrelated path changes nothing');
    index.refresh([f.path('ws/docs/review.md')]);
    const after = index.compose(ctx).items[0]?.contentHash;
    assert.notEqual(after, before, 'a covered file');
    f.adapter(A0.replace('network: false', 'network: true'));
    index.refresh([f.path('ws/config/adapters/review.yaml')]);
    assert.equal(index.compose(ctx).items[0]?.decision, 'rejected', 'a configuration root');
    f.user('foo');
    index.refresh([f.path('home/.codex/skills/foo/SKILL.md')]);
    assert.deepEqual(
      index.compose(ctx).items.map((i) => i.kind),
      ['skill-adapter', 'skill'],
      'a user skill folder',
    );
    fs.rmSync(f.path('home/.codex'), { recursive: true });
    index.refresh([f.path('home')]);
    assert.deepEqual(
      index.compose(ctx).items.map((i) => i.kind),
      ['skill-adapter'],
      'an ancestor of the user roots',
    );
    f.write('ws/config/eva.yaml', 'x: [\n');
    index.refresh([f.path('ws/config')]);
    assert.ok(
      index.compose(ctx).diagnostics.some((d) => d.code === 'eva.project.config-invalid'),
      'config/ itself',
    );
  });

  it('re-reads a covered skill folder when a file is added to it', () => {
    f.write('ws/skills/review/SKILL.md', 's');
    f.adapter(A0.replace('  id: review\n', '  id: review\n  path: skills/review/SKILL.md\n'));
    const index = loaded();
    const before = index.compose(ctx).items[0]?.contentHash;
    f.write('ws/skills/review/extra.md', 'e');
    index.refresh([f.path('ws/skills/review/extra.md')]);
    assert.notEqual(index.compose(ctx).items[0]?.contentHash, before);
  });

  it('defaults to no change for a folder that is not a project, and to the normal runtime', () => {
    const plain = f.mkdir('plain');
    f.adapter(A0.replace('runtime_gate: normal', 'runtime_gate: team'));
    const index = loaded([f.ws, plain]);
    index.refresh([f.path('plain/x')]);
    assert.deepEqual(index.compose(ctx).items[0]?.reasons, ['runtime_gate_mismatch', 'not_reviewed']);
    const team = new EvaIndex({
      workspaces: [f.ws],
      evaHome: f.home,
      evaRuntime: { mode: 'team', teamWorker: false, interactiveUser: false },
    });
    for (const load of team.scan()) load();
    assert.deepEqual(team.compose(ctx).items[0]?.reasons, ['policy_denied', 'not_reviewed']);
  });
});
