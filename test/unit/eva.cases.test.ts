import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { cpuTime } from './helpers/cpuTime';
import { A0, EvaFixture, L0 } from './helpers/evaFixture';
import type { TrustView } from '../../src/core/decisions/trustView';
import type { EvaItem } from '../../src/core/systems/eva/item';

/** eva.md §7.2, one test per case, through the Eva entry point `indexEva`. */

const UNREVIEWED = ['loaded_unreviewed', 'not_reviewed'];

function trusting(item: EvaItem): TrustView {
  const key = item.detail.bundleKey as string;
  return {
    available: true,
    lookup: (k) =>
      k === key
        ? {
            enabled: false,
            trust: { contentHash: item.contentHash as string, capabilityHash: item.capabilityHash as string },
          }
        : undefined,
  };
}

function a0(edit: (text: string) => string): string {
  const out = edit(A0);
  assert.notEqual(out, A0, 'the case must change A0');
  return out;
}

function l0(edit: (text: string) => string): string {
  const out = edit(L0);
  assert.notEqual(out, L0, 'the case must change L0');
  return out;
}

/** Eva's decision and reasons, then the final (trust-gated) ones. */
function decided(item: EvaItem): [string, readonly string[], string, readonly string[]] {
  return [item.detail.eva.evaDecision, item.detail.eva.evaReasons, item.decision, item.reasons];
}

describe('eva.md §7.2 acceptance cases', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('case 1: P0 + A0 is registered; with no receipt loaded_unreviewed, not_reviewed; no warnings', () => {
    f.adapter(A0);
    const r = f.index();
    assert.deepEqual(decided(r.item('adapters/review.yaml')), ['registered', ['registered'], 'registered', UNREVIEWED]);
    assert.deepEqual(r.codes(false), []);
  });

  it('case 2: A0 trusted at its current token is registered [registered]', () => {
    f.adapter(A0);
    const first = f.index().item('adapters/review.yaml');
    const r = f.index({ trust: trusting(first) });
    const item = r.item('adapters/review.yaml');
    assert.equal(item.trust, 'trusted');
    assert.deepEqual([item.decision, item.reasons], ['registered', ['registered']]);
  });

  it('case 3: the upstream code-review adapter with the SKILL.md present is registered into the AdapterRegistry, no diagnostic on it', () => {
    f.write(
      'ws/config/adapters/code-review-skill.yaml',
      fs.readFileSync(`${__dirname}/../fixtures/corpus/eva/config/adapters/code-review-skill.yaml`),
    );
    f.user('code-review');
    const r = f.index();
    const item = r.item('adapters/code-review-skill.yaml');
    assert.deepEqual(decided(item), ['registered', ['registered'], 'registered', UNREVIEWED]);
    assert.equal(item.detail.eva.target, 'AdapterRegistry');
    assert.deepEqual(
      r.diagnostics().filter((d) => d.itemId === item.id),
      [],
    );
  });

  it('case 4: the user item ~/.codex/skills/code-review is shadowed by the adapter that wraps it', () => {
    f.write(
      'ws/config/adapters/code-review-skill.yaml',
      fs.readFileSync(`${__dirname}/../fixtures/corpus/eva/config/adapters/code-review-skill.yaml`),
    );
    f.user('code-review');
    const r = f.index();
    const user = r.item('user:codex:code-review');
    assert.deepEqual(
      [user.decision, user.reasons],
      ['shadowed', ['duplicate_id_shadowed', 'manifest_required', 'capability_missing_schema']],
    );
    assert.equal(user.shadowedBy, r.item('adapters/code-review-skill.yaml').id);
    assert.ok(r.diagnostics('eva.conflict.shadowed').some((d) => d.itemId === user.id && d.severity === 'information'));
  });

  it('case 5: without SKILL.md under $HOME the adapter is registered, warns at skill.path, and its content hash records the missing file', () => {
    f.write(
      'ws/config/adapters/code-review-skill.yaml',
      fs.readFileSync(`${__dirname}/../fixtures/corpus/eva/config/adapters/code-review-skill.yaml`),
    );
    const r = f.index();
    const item = r.item('adapters/code-review-skill.yaml');
    assert.deepEqual([item.decision, item.reasons], ['registered', UNREVIEWED]);
    const [warning] = r.diagnostics('eva.skill.path-missing');
    assert.equal(warning?.severity, 'warning');
    assert.equal(warning?.range.start.line, 24, 'at skill.path');
    // The missing SKILL.md is an `M\0` record: it appearing later changes the hash.
    const before = item.contentHash;
    f.user('code-review');
    assert.notEqual(f.index().item('adapters/code-review-skill.yaml').contentHash, before);
  });

  it('case 6: a user skill without a manifest is display_only [manifest_required, capability_missing_schema]', () => {
    f.user('foo');
    const r = f.index();
    const item = r.item('user:codex:foo');
    assert.deepEqual(
      [item.decision, item.reasons],
      ['display_only', ['manifest_required', 'capability_missing_schema']],
    );
    assert.equal(item.contentHash, null, 'not a bundle');
    assert.deepEqual(r.codes().sort(), [
      'eva.skill.schema-missing W',
      'eva.user.manifest-required I',
      'eva.user.policy I',
    ]);
  });

  it('case 7: allow_user_local_skills: true does not make a user skill registrable, only drops eva.user.policy', () => {
    f.user('foo');
    f.policy(
      'adapter_policy:\n  skill: {require_schema: true, allow_user_local_skills: true, allowed_runtime_gates: [normal]}\n',
    );
    const r = f.index();
    assert.deepEqual(
      [r.item('user:codex:foo').decision, r.item('user:codex:foo').reasons],
      ['display_only', ['manifest_required', 'capability_missing_schema']],
    );
    assert.deepEqual(r.codes().sort(), ['eva.skill.schema-missing W', 'eva.user.manifest-required I']);
  });

  it('case 8: a user runtime_worker (directory worker) lists C7, C8, C9 in order', () => {
    f.user('worker');
    const r = f.index();
    const item = r.item('user:codex:worker');
    assert.deepEqual(
      [item.decision, item.reasons],
      ['display_only', ['manifest_required', 'capability_missing_schema', 'runtime_worker_display_only']],
    );
    assert.ok(r.codes().includes('eva.kind.runtime-worker I'));
    assert.ok(r.codes().includes('eva.user.manifest-required I'));
  });

  it('case 9: A0 without output_schema is rejected [capability_missing_schema] with the design message at skill', () => {
    f.adapter(a0((t) => t.replace(/  output_schema:.*\n/, '')));
    const r = f.index();
    assert.deepEqual(decided(r.item('adapters/review.yaml')), [
      'rejected',
      ['capability_missing_schema'],
      'rejected',
      ['capability_missing_schema', 'not_reviewed'],
    ]);
    const [d] = r.diagnostics('eva.skill.schema-missing');
    assert.equal(d?.message, 'workflow skill is missing output_schema');
    assert.equal(d?.severity, 'error');
    assert.equal(d?.range.start.line, 5, 'at the skill key');
  });

  it('case 10: A0 without both schemas has one reason and two diagnostics', () => {
    f.adapter(a0((t) => t.replace(/  (in|out)put_schema:.*\n/g, '')));
    const r = f.index();
    // capability_missing_schema is display_only for a user item; for a workflow skill adapter it is rejected.
    assert.deepEqual(decided(r.item('adapters/review.yaml')), [
      'rejected',
      ['capability_missing_schema'],
      'rejected',
      ['capability_missing_schema', 'not_reviewed'],
    ]);
    assert.deepEqual(r.codes(), ['eva.skill.schema-missing E', 'eva.skill.schema-missing E']);
  });

  it('case 11: an input_schema of type array is schema_invalid at skill.input_schema.type', () => {
    f.adapter(a0((t) => t.replace(/  input_schema:.*\n/, '  input_schema: {type: array}\n')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['schema_invalid', 'not_reviewed']);
    const [d] = r.diagnostics('eva.skill.schema-type');
    assert.equal(d?.message, 'Skill input schema type is unsupported');
    assert.equal(d?.range.start.line, 11);
    assert.equal('  input_schema: {type: array}'.slice(d?.range.start.character, d?.range.end.character), 'type');
  });

  it('case 12: A0 without skill.kind is schema_invalid (eva.skill.kind-missing)', () => {
    f.adapter(a0((t) => t.replace(/  kind: workflow_skill\n/, '')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['schema_invalid', 'not_reviewed']);
    assert.deepEqual(r.codes(false), ['eva.skill.kind-missing E']);
  });

  it('case 13: skill.kind lua_skill is schema_invalid (eva.skill.kind-invalid)', () => {
    f.adapter(a0((t) => t.replace('kind: workflow_skill', 'kind: lua_skill')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['schema_invalid', 'not_reviewed']);
    assert.deepEqual(r.codes(false), ['eva.skill.kind-invalid E']);
  });

  it('case 14: A0 without skill.runtime_gate is schema_invalid (eva.skill.gate-missing)', () => {
    f.adapter(a0((t) => t.replace(/  runtime_gate: normal\n/, '')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['schema_invalid', 'not_reviewed']);
    assert.deepEqual(r.codes(false), ['eva.skill.gate-missing E']);
  });

  it("case 15: A0 without skill.id is schema_invalid with upstream's message", () => {
    f.adapter(a0((t) => t.replace(/  id: review\n/, '')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['schema_invalid', 'not_reviewed']);
    assert.deepEqual(
      r.diagnostics('eva.skill.id-missing').map((d) => d.message),
      ['Skill adapter is missing skill.id'],
    );
  });

  it('case 16: A0 without the skill block is schema_invalid at transport', () => {
    f.adapter(a0((t) => t.replace(/skill:\n(  .*\n)+/, '')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['schema_invalid', 'not_reviewed']);
    const [d] = r.diagnostics('eva.skill.block-missing');
    assert.equal(d?.range.start.line, 4, 'at transport');
  });

  it('case 17: a runtime_worker gated to team is display_only [runtime_worker_display_only, runtime_gate_mismatch]', () => {
    f.adapter(
      a0((t) =>
        t.replace('kind: workflow_skill', 'kind: runtime_worker').replace('runtime_gate: normal', 'runtime_gate: team'),
      ),
    );
    const r = f.index();
    assert.deepEqual(decided(r.item('adapters/review.yaml')), [
      'display_only',
      ['runtime_worker_display_only', 'runtime_gate_mismatch'],
      'display_only',
      ['runtime_worker_display_only', 'runtime_gate_mismatch', 'not_reviewed'],
    ]);
    assert.deepEqual(r.codes(), ['eva.kind.runtime-worker I', 'eva.gate.mismatch I']);
  });

  it('case 18: case 17 under the team runtime is registered into the TeamRuntime', () => {
    f.adapter(
      a0((t) =>
        t.replace('kind: workflow_skill', 'kind: runtime_worker').replace('runtime_gate: normal', 'runtime_gate: team'),
      ),
    );
    const r = f.index({ runtime: { mode: 'team', teamWorker: false, interactiveUser: false } });
    const item = r.item('adapters/review.yaml');
    assert.deepEqual([item.decision, item.reasons, item.detail.eva.target], ['registered', UNREVIEWED, 'TeamRuntime']);
    assert.deepEqual(r.codes(), []);
  });

  it('case 19: a workflow_skill gated to team in the normal runtime is display_only [runtime_gate_mismatch]', () => {
    f.adapter(a0((t) => t.replace('runtime_gate: normal', 'runtime_gate: team')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['runtime_gate_mismatch', 'not_reviewed']);
    assert.deepEqual(r.codes(), ['eva.gate.mismatch I']);
  });

  it('case 20: case 19 under the team runtime is policy_denied: team is not an allowed runtime gate', () => {
    f.adapter(a0((t) => t.replace('runtime_gate: normal', 'runtime_gate: team')));
    const r = f.index({ runtime: { mode: 'team', teamWorker: false, interactiveUser: false } });
    assert.deepEqual(decided(r.item('adapters/review.yaml')).slice(0, 2), ['rejected', ['policy_denied']]);
    assert.deepEqual(
      r.diagnostics('eva.policy.gate-denied').map((d) => d.message),
      ['skill runtime gate team is not allowed'],
    );
  });

  it('case 21: write_workspace: true is policy_denied at permissions.write_workspace', () => {
    f.adapter(a0((t) => t.replace('write_workspace: false', 'write_workspace: true')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['policy_denied', 'not_reviewed']);
    const [d] = r.diagnostics('eva.policy.write-denied');
    assert.equal(d?.range.start.line, 14);
    assert.equal(A0.split('\n')[14]?.slice(d?.range.start.character, d?.range.end.character), 'write_workspace');
  });

  it('case 22: write_workspace with the id in allow_write_workspace is registered', () => {
    f.adapter(a0((t) => t.replace('write_workspace: false', 'write_workspace: true')));
    f.policy(
      'adapter_policy:\n  allow_write_workspace: [codex-cli, review-skill]\n  skill: {require_schema: true, allowed_runtime_gates: [normal], deny_kinds: [runtime_worker]}\n',
    );
    const r = f.index();
    assert.deepEqual(decided(r.item('adapters/review.yaml')), ['registered', ['registered'], 'registered', UNREVIEWED]);
    assert.deepEqual(r.codes(false), []);
  });

  it('case 23: network: true is policy_denied', () => {
    f.adapter(a0((t) => t.replace('network: false', 'network: true')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['policy_denied', 'not_reviewed']);
    assert.deepEqual(r.codes(false), ['eva.policy.network-denied E']);
  });

  it('case 24: shell and network give one reason and two diagnostics', () => {
    f.adapter(a0((t) => t.replace('network: false', 'network: true').replace('shell: false', 'shell: true')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').detail.eva.evaReasons, ['policy_denied']);
    assert.deepEqual(r.codes(false), ['eva.policy.network-denied E', 'eva.policy.shell-denied E']);
  });

  it('case 25: a globally denied capability is policy_denied and capability_unknown', () => {
    f.adapter(
      a0((t) => t.replace('capabilities: [workflow.review]', 'capabilities: [workflow.review, shell.execute]')),
    );
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').detail.eva.evaReasons, ['policy_denied', 'capability_unknown']);
    assert.deepEqual(
      r.diagnostics('eva.policy.capability-denied').map((d) => d.message),
      ['capability shell.execute is globally denied'],
    );
    assert.deepEqual(r.codes(false), ['eva.policy.capability-denied E', 'eva.capability.unknown W']);
  });

  it('case 26: a capability outside workflow.* is display_only [capability_unknown] at capabilities[0]', () => {
    f.adapter(a0((t) => t.replace('capabilities: [workflow.review]', 'capabilities: [repo.analyze]')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['capability_unknown', 'not_reviewed']);
    assert.equal(r.item('adapters/review.yaml').decision, 'display_only');
    const [d] = r.diagnostics('eva.capability.unknown');
    assert.equal(
      A0.replace('[workflow.review]', '[repo.analyze]')
        .split('\n')[13]
        ?.slice(d?.range.start.character, d?.range.end.character),
      'repo.analyze',
    );
  });

  it('case 27: no capability is display_only [capability_unknown] "skill declares no capability"', () => {
    f.adapter(a0((t) => t.replace('capabilities: [workflow.review]', 'capabilities: []')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['capability_unknown', 'not_reviewed']);
    assert.deepEqual(
      r.diagnostics('eva.capability.unknown').map((d) => d.message),
      ['skill declares no capability'],
    );
  });

  it("case 28: an empty capability segment is schema_invalid with upstream's message", () => {
    f.adapter(a0((t) => t.replace('capabilities: [workflow.review]', 'capabilities: [workflow..review]')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['schema_invalid', 'not_reviewed']);
    assert.deepEqual(
      r.diagnostics('eva.capability.name-invalid').map((d) => d.message),
      ['capability name cannot contain empty segments'],
    );
  });

  it('case 29: enabled: false is disabled [disabled_by_manifest]', () => {
    f.adapter(a0((t) => t.replace('enabled: true', 'enabled: false')));
    const r = f.index();
    const item = r.item('adapters/review.yaml');
    assert.deepEqual(
      [item.decision, item.reasons, item.enabled],
      ['disabled', ['disabled_by_manifest', 'not_reviewed'], null],
    );
    assert.deepEqual(r.codes(), ['eva.manifest.disabled I']);
  });

  it('case 30: a disabled manifest still lists the policy denial', () => {
    f.adapter(
      a0((t) =>
        t.replace('enabled: true', 'enabled: false').replace('write_workspace: false', 'write_workspace: true'),
      ),
    );
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['disabled_by_manifest', 'policy_denied', 'not_reviewed']);
    assert.deepEqual(r.codes(), ['eva.manifest.disabled I', 'eva.policy.write-denied E']);
  });

  it('case 31: enabled: yes is a string under YAML 1.2 core: schema type mismatch at enabled', () => {
    f.adapter(a0((t) => t.replace('enabled: true', 'enabled: yes')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['schema_invalid', 'not_reviewed']);
    const [d] = r.diagnostics('eva.schema.type');
    assert.equal(d?.message, 'schema type mismatch: expected boolean, got string');
    assert.equal(d?.range.start.line, 3);
  });

  it('case 32: A0 without routing is schema_invalid (required) and aborts the shipped load', () => {
    f.adapter(a0((t) => t.replace('routing: {priority: 10}\n', '')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['schema_invalid', 'not_reviewed']);
    assert.deepEqual(r.codes(false), ['eva.schema.required E', 'eva.project.load-aborted W']);
    assert.match(r.diagnostics('eva.schema.required')[0]?.message ?? '', /^required field is missing: \$\.routing$/);
  });

  it('case 33: an id with a space breaks the schema pattern at id', () => {
    f.adapter(a0((t) => t.replace('id: review-skill', 'id: Review Skill')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['schema_invalid', 'not_reviewed']);
    const [d] = r.diagnostics('eva.schema.pattern');
    assert.equal(d?.message, 'string does not match schema pattern');
    assert.equal(d?.range.start.line, 0);
  });

  it('case 34: the same id in a.yaml and b.yaml: a registered, b shadowed by a, with the upstream error and the load abort on b', () => {
    f.adapter(A0, 'a.yaml');
    f.adapter(A0, 'b.yaml');
    const r = f.index();
    const a = r.item('adapters/a.yaml');
    const b = r.item('adapters/b.yaml');
    assert.deepEqual([a.decision, a.reasons], ['registered', UNREVIEWED]);
    assert.deepEqual(
      [b.decision, b.reasons, b.shadowedBy],
      ['shadowed', ['duplicate_id_shadowed', 'not_reviewed'], a.id],
    );
    const dup = r.diagnostics('eva.conflict.duplicate-adapter-id');
    assert.deepEqual(
      dup.map((d) => [d.itemId, d.range.start.line]),
      [[b.id, 0]],
    );
    assert.deepEqual(
      r.diagnostics('eva.project.load-aborted').map((d) => d.itemId),
      [b.id],
    );
    // b is never loaded, so it is no second provider of a's capability or skill (§4.3 rule 6).
    assert.deepEqual(r.diagnostics('eva.conflict.multiple-providers'), []);
  });

  it('case 35: a shadowing context adapter gives shadowedBy null, and the error names a.yaml', () => {
    f.adapter(A0, 'b.yaml');
    f.adapter(
      fs
        .readFileSync(`${__dirname}/../fixtures/corpus/eva/config/adapters/codex-cli.yaml`, 'utf8')
        .replace('id: codex-cli', 'id: review-skill'),
      'a.yaml',
    );
    const r = f.index();
    const b = r.item('adapters/b.yaml');
    assert.deepEqual(
      [b.decision, b.reasons, b.shadowedBy],
      ['shadowed', ['duplicate_id_shadowed', 'not_reviewed'], null],
    );
    assert.match(r.diagnostics('eva.conflict.duplicate-adapter-id')[0]?.message ?? '', /config\/adapters\/a\.yaml/);
  });

  it('case 36: one id for an adapter and a lua_skill is not a conflict; both say the id is shared', () => {
    f.adapter(a0((t) => t.replace('id: review-skill', 'id: lint-skill')));
    f.l0();
    const r = f.index();
    assert.equal(r.item('adapters/review.yaml').decision, 'registered');
    assert.equal(r.item('capabilities/lint.yaml').decision, 'registered');
    assert.deepEqual(
      r
        .diagnostics('eva.conflict.cross-namespace-id')
        .map((d) => r.rel(d.file))
        .sort(),
      ['config/adapters/review.yaml', 'config/capabilities/lint.yaml'],
    );
    assert.ok(r.diagnostics('eva.compat.lua-skill').length === 1);
  });

  it('case 37: skill.path escaping the project is path_not_allowed at skill.path', () => {
    f.adapter(a0((t) => t.replace('  id: review\n', '  id: review\n  path: ../outside/SKILL.md\n')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['path_not_allowed', 'not_reviewed']);
    const [d] = r.diagnostics('eva.path.not-allowed');
    assert.equal(d?.range.start.line, 8);
  });

  it('case 38: skill.path through a symbolic link to /etc/hostname is path_not_allowed via symbolic link', () => {
    f.symlink('/etc/hostname', 'ws/config/skills/review/SKILL.md');
    f.adapter(a0((t) => t.replace('  id: review\n', '  id: review\n  path: config/skills/review/SKILL.md\n')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['path_not_allowed', 'not_reviewed']);
    assert.match(r.diagnostics('eva.path.not-allowed')[0]?.message ?? '', /via symbolic link$/);
  });

  it('case 39: an absolute skill.path outside the allowed roots is path_not_allowed', () => {
    f.adapter(a0((t) => t.replace('  id: review\n', '  id: review\n  path: /etc/hosts\n')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['path_not_allowed', 'not_reviewed']);
    assert.deepEqual(r.codes(false), ['eva.path.not-allowed E']);
  });

  it('case 40: P0 + L0 is registered into the CapabilityRegistry, with the compat warning and the load abort', () => {
    f.l0();
    const r = f.index();
    const item = r.item('capabilities/lint.yaml');
    assert.deepEqual(decided(item), ['registered', ['registered'], 'registered', UNREVIEWED]);
    assert.equal(item.detail.eva.target, 'CapabilityRegistry');
    assert.deepEqual(r.codes(false), ['eva.compat.lua-skill W', 'eva.project.load-aborted W']);
    assert.equal(r.diagnostics('eva.compat.lua-skill')[0]?.range.start.line, 1, 'at kind');
  });

  it('case 41: L0 without its script is rejected [script_missing] at lua.script', () => {
    f.l0();
    fs.rmSync(f.path('ws/config/skills/lint.lua'));
    const r = f.index();
    assert.deepEqual(r.item('capabilities/lint.yaml').reasons, ['script_missing', 'not_reviewed']);
    assert.equal(r.diagnostics('eva.lua.script-missing')[0]?.range.start.line, 4);
  });

  it('case 42: lua.script outside the project is path_not_allowed and the bundle has no hashes', () => {
    f.write('x.lua', 'return {}\n');
    f.l0(l0((t) => t.replace('script: config/skills/lint.lua', 'script: ../x.lua')));
    const r = f.index();
    const item = r.item('capabilities/lint.yaml');
    assert.deepEqual(item.reasons, ['path_not_allowed', 'not_reviewed']);
    assert.deepEqual([item.contentHash, item.capabilityHash], [null, null]);
  });

  it('case 43: L0 without its output schema file is rejected [capability_missing_schema] at output_schema', () => {
    f.l0();
    fs.rmSync(f.path('ws/schemas/lint.output.json'));
    const r = f.index();
    assert.deepEqual(decided(r.item('capabilities/lint.yaml')), [
      'rejected',
      ['capability_missing_schema'],
      'rejected',
      ['capability_missing_schema', 'not_reviewed'],
    ]);
    const [d] = r.diagnostics('eva.skill.schema-file-missing');
    assert.equal(d?.severity, 'error');
    assert.equal(d?.range.start.line, 7);
  });

  it('case 44: an input_schema path escaping the project is path_not_allowed at input_schema', () => {
    f.l0(l0((t) => t.replace('input_schema: schemas/lint.input.json', 'input_schema: ../../etc/schema.json')));
    const r = f.index();
    assert.deepEqual(r.item('capabilities/lint.yaml').reasons, ['path_not_allowed', 'not_reviewed']);
    assert.equal(r.diagnostics('eva.path.not-allowed')[0]?.range.start.line, 6);
  });

  it('case 45: a schema file that is a link to JSON outside the workspace is path_not_allowed via symbolic link', () => {
    f.l0();
    f.write('outside.json', '{"type":"object"}');
    fs.rmSync(f.path('ws/schemas/lint.input.json'));
    f.symlink(f.path('outside.json'), 'ws/schemas/lint.input.json');
    const r = f.index();
    assert.deepEqual(r.item('capabilities/lint.yaml').reasons, ['path_not_allowed', 'not_reviewed']);
    assert.match(r.diagnostics('eva.path.not-allowed')[0]?.message ?? '', /via symbolic link$/);
  });

  it('case 46: a schema file that is not JSON is schema_invalid "failed to parse JSON Schema"', () => {
    f.l0();
    f.write('ws/schemas/lint.input.json', '{"type": ');
    const r = f.index();
    assert.deepEqual(r.item('capabilities/lint.yaml').reasons, ['schema_invalid', 'not_reviewed']);
    assert.deepEqual(
      r.diagnostics('eva.skill.schema-file-invalid').map((d) => d.message),
      ['failed to parse JSON Schema'],
    );
  });

  it('case 47: L0 without runtime_gate is schema_invalid (eva.skill.gate-missing)', () => {
    f.l0(l0((t) => t.replace(/runtime_gate:.*\n/, '')));
    const r = f.index();
    assert.deepEqual(r.item('capabilities/lint.yaml').reasons, ['schema_invalid', 'not_reviewed']);
    assert.deepEqual(
      r.diagnostics('eva.skill.gate-missing').map((d) => d.message),
      ['runtime_gate is required for lua_skill'],
    );
  });

  it('case 48: a lua_skill writing the workspace is policy_denied at permissions.fs.write', () => {
    f.l0(l0((t) => t.replace('write: []', 'write: [workspace]')));
    const r = f.index();
    assert.deepEqual(r.item('capabilities/lint.yaml').reasons, ['policy_denied', 'not_reviewed']);
    const [d] = r.diagnostics('eva.policy.write-denied');
    assert.equal(L0.split('\n')[8]?.slice(d?.range.start.character, d?.range.end.character), 'write');
  });

  it('case 49: L0 for a team worker is display_only [runtime_gate_mismatch] (disallow_team_worker)', () => {
    f.l0();
    const r = f.index({ runtime: { mode: 'normal', teamWorker: true, interactiveUser: false } });
    assert.deepEqual(r.item('capabilities/lint.yaml').reasons, ['runtime_gate_mismatch', 'not_reviewed']);
    assert.ok(r.codes().includes('eva.gate.mismatch I'));
  });

  it('case 50: a gate requiring an interactive user does not admit the default runtime', () => {
    f.l0(
      l0((t) =>
        t.replace('disallow_team_worker: true}', 'disallow_team_worker: true, requires_interactive_user: true}'),
      ),
    );
    const r = f.index();
    assert.deepEqual(r.item('capabilities/lint.yaml').reasons, ['runtime_gate_mismatch', 'not_reviewed']);
    assert.ok(r.codes().includes('eva.gate.mismatch I'), r.codes().join(', '));
  });

  it('case 51: kind lua_skil is not a skill item: context with the schema errors on the file and the load abort', () => {
    f.l0(l0((t) => t.replace('kind: lua_skill', 'kind: lua_skil')));
    const r = f.index();
    assert.deepEqual(r.items, []);
    // Upstream's rule order reports the first missing required key (`name`) first; the enum
    // error at `kind` is the file's further, independent diagnostic (eva.md §2.1).
    const [d] = r.diagnostics('eva.schema.enum');
    assert.deepEqual([d?.itemId, d?.range.start.line, d?.message], [null, 1, 'value is not allowed by schema enum']);
    assert.deepEqual(
      r.diagnostics('eva.schema.required').map((x) => [x.itemId, x.severity, x.message]),
      [[null, 'error', 'required field is missing: $.name']],
    );
    assert.equal(r.diagnostics('eva.project.load-aborted').length, 1);
  });

  it("an unknown capability kind the project's own schema lets through is the loader's error, and Eva loads nothing", () => {
    // eva.md §2.4: the loader refuses a kind outside its four, whatever the project's schema says.
    const schema = f.path('ws/config/schemas/capability.schema.json');
    const relaxed = JSON.parse(fs.readFileSync(schema, 'utf8')) as { properties: { kind: { enum?: unknown } } };
    delete relaxed.properties.kind.enum;
    f.write('ws/config/schemas/capability.schema.json', JSON.stringify(relaxed));
    f.adapter(A0);
    const weird =
      'id: weird\nname: Weird\nversion: 1.0.0\nenabled: true\nkind: frobnicator\ncapability: workflow.weird\n';
    f.write('ws/config/capabilities/weird.yaml', weird);
    const r = f.index();
    const [d] = r.diagnostics('eva.capability.kind-unsupported');
    assert.deepEqual(
      [d?.severity, d?.message, d?.range.start.line, d?.file],
      ['error', 'unsupported capability kind', 4, f.path('ws/config/capabilities/weird.yaml')],
    );
    const [aborted] = r.diagnostics('eva.project.load-aborted');
    assert.equal(aborted?.file, f.path('ws/config/capabilities/weird.yaml'));
  });

  it('case 52: a manifest padded past 1 MiB is rejected [manifest_too_large]', () => {
    const padded = A0 + '#' + 'x'.repeat(1_048_577 - A0.length - 2) + '\n';
    assert.equal(Buffer.byteLength(padded), 1_048_577);
    f.adapter(padded, 'big.yaml');
    const r = f.index();
    assert.deepEqual(decided(r.item('adapters/big.yaml')), [
      'rejected',
      ['manifest_too_large'],
      'rejected',
      ['manifest_too_large'],
    ]);
    assert.deepEqual(r.codes(), ['eva.manifest.too-large E']);
  });

  it('case 53: an unclosed flow mapping on line 9 is a parse error at line 9; the raw text makes it a skill item', () => {
    f.adapter(a0((t) => t.replace('  entry: {type: codex_skill}', '  entry: {type: codex_skill')));
    const r = f.index();
    assert.deepEqual(decided(r.item('adapters/review.yaml')), [
      'rejected',
      ['schema_invalid'],
      'rejected',
      ['schema_invalid'],
    ]);
    const [d] = r.diagnostics('eva.yaml.parse');
    assert.ok(d && d.range.start.line + 1 >= 9, `parse error at line ${(d?.range.start.line ?? 0) + 1}`);
    assert.match(d?.message ?? '', /^failed to parse YAML: .* at line \d+ column \d+$/);
  });

  it('case 54: an alias bomb is a parse error within a second', () => {
    const levels = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= 9; i++)
      levels.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    f.adapter(A0 + 'bomb:\n' + levels.map((l) => `  ${l}`).join('\n') + '\n');
    const { result: r, ms } = cpuTime(() => f.index());
    assert.ok(ms < 1000, `bounded (${ms} ms of CPU)`);
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['schema_invalid']);
    assert.match(r.diagnostics('eva.yaml.parse')[0]?.message ?? '', /repetition limit exceeded/);
  });

  // serde_yaml 0.9 makes a tagged value only of a tag that still starts with `!` once resolved:
  // `!!js/function` is no tag, so the id is the plain string and fails the id pattern (upstream over the spec).
  it('case 55: a !!js/function tag is inert: the plain string fails the id pattern, never executed', () => {
    const marker = f.path('pwn');
    f.adapter(
      a0((t) =>
        t.replace('id: review-skill', `id: !!js/function "function(){ require('fs').writeFileSync('${marker}','x') }"`),
      ),
    );
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['schema_invalid', 'not_reviewed']);
    const [d] = r.diagnostics('eva.schema.pattern');
    assert.equal(d?.message, 'string does not match schema pattern');
    assert.equal(d?.range.start.line, 0);
    assert.equal(fs.existsSync(marker), false);
  });

  it('case 56: a merge key is not applied, so skill.kind is missing', () => {
    const text = a0((t) =>
      t
        .replace(/skill:\n(  .*\n)+/, 'skill: {<<: *base, id: review}\n')
        .replace(
          'id: review-skill\n',
          'id: review-skill\nx-base: &base {source: codex, kind: workflow_skill, runtime_gate: normal, input_schema: {type: object}, output_schema: {type: object}}\n',
        ),
    );
    f.adapter(text);
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['schema_invalid', 'not_reviewed']);
    assert.ok(r.codes().includes('eva.skill.kind-missing E'));
  });

  it('case 57: a UTF-16LE manifest cannot be read as UTF-8', () => {
    f.adapter(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(A0, 'utf16le')]));
    const r = f.index();
    assert.deepEqual(decided(r.item('adapters/review.yaml')), [
      'rejected',
      ['schema_invalid'],
      'rejected',
      ['schema_invalid'],
    ]);
    assert.match(
      r.diagnostics('eva.manifest.read')[0]?.message ?? '',
      /^failed to read configuration file: stream did not contain valid UTF-8$/,
    );
  });

  it('case 58: a byte 0xE9 in name is invalid UTF-8', () => {
    f.adapter(Buffer.from(A0.replace('name: Review Skill', 'name: Review Sk\u00e9ll'), 'latin1'));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['schema_invalid']);
    assert.deepEqual(r.codes(false), ['eva.manifest.read E', 'eva.project.load-aborted W']);
  });

  it('case 59: a UTF-8 BOM and CRLF line ends are fine', () => {
    f.adapter('\ufeff' + A0.replace(/\n/g, '\r\n'));
    const r = f.index();
    assert.deepEqual(
      [r.item('adapters/review.yaml').decision, r.item('adapters/review.yaml').reasons],
      ['registered', UNREVIEWED],
    );
    assert.deepEqual(r.codes(false), []);
  });

  it('case 60: review.YAML is not enumerated (the extension is case-sensitive)', () => {
    f.adapter(A0, 'review.YAML');
    const r = f.index();
    assert.deepEqual([r.items, r.codes()], [[], []]);
  });

  it('case 61: a symbolic link in the adapter root is skipped, with an information', () => {
    f.write('ws/elsewhere/review.yaml', A0);
    f.symlink(f.path('ws/elsewhere/review.yaml'), 'ws/config/adapters/link.yaml');
    const r = f.index();
    assert.deepEqual([r.items, r.codes()], [[], ['eva.scan.symlink-ignored I']]);
  });

  it('case 62: a hidden .yml file in a subdirectory is enumerated and registered', () => {
    f.adapter(A0, 'team/.review.yml');
    const r = f.index();
    assert.deepEqual(
      [r.item('adapters/team/.review.yml').decision, r.item('adapters/team/.review.yml').reasons],
      ['registered', UNREVIEWED],
    );
  });

  it('case 63: the upstream lua_capability manifest is context, not a skill item', () => {
    f.write(
      'ws/config/capabilities/config-lint-skill.yaml',
      fs.readFileSync(`${__dirname}/../fixtures/corpus/eva/config/capabilities/config-lint-skill.yaml`),
    );
    f.write('ws/config/capabilities/config-lint.lua', '-- placeholder\n');
    const r = f.index();
    assert.deepEqual([r.items, r.codes(false)], [[], []]);
  });

  it('case 64: an adapter root outside the workspace is not scanned', () => {
    f.write('elsewhere/review.yaml', A0);
    const evaYaml = fs
      .readFileSync(f.path('ws/config/eva.yaml'), 'utf8')
      .replace(/(config:\n(?:.*\n)*?  adapter_dir: )config\/adapters/, '$1../elsewhere');
    f.write('ws/config/eva.yaml', evaYaml);
    const r = f.index();
    assert.deepEqual(r.items, []);
    const [d] = r.diagnostics('eva.project.root-outside');
    assert.equal(d?.severity, 'error');
    assert.equal(evaYaml.split('\n')[d?.range.start.line ?? 0]?.trim(), 'adapter_dir: ../elsewhere');
  });

  it('case 65: without config/eva.yaml there are no Eva items, not even user items', () => {
    fs.rmSync(f.path('ws/config/eva.yaml'));
    f.user('foo');
    const r = f.index();
    assert.deepEqual([r.items, r.codes()], [[], []]);
  });

  it('case 66: the same skill directory under both user roots: both listed, both told', () => {
    f.user('foo', 'codex');
    f.user('foo', 'agents');
    const r = f.index();
    for (const id of ['user:codex:foo', 'user:agents:foo'])
      assert.deepEqual(
        [r.item(id).decision, r.item(id).reasons],
        ['display_only', ['manifest_required', 'capability_missing_schema']],
      );
    assert.deepEqual(
      r.diagnostics('eva.conflict.same-skill-multiple-directory').map((d) => d.severity),
      ['information', 'information'],
    );
  });

  it('case 67: two adapters for one capability are both registered; each says where Eva-CLI routes', () => {
    f.adapter(A0);
    f.adapter(A0.replace('id: review-skill', 'id: review-two'), 'review-two.yaml');
    const r = f.index();
    for (const rel of ['adapters/review.yaml', 'adapters/review-two.yaml'])
      assert.deepEqual([r.item(rel).decision, r.item(rel).reasons], ['registered', UNREVIEWED]);
    const d = r.diagnostics('eva.conflict.multiple-providers');
    assert.equal(d.length, 2);
    for (const x of d) assert.match(x.message, /routes to review-skill/);
  });

  it('case 68: a malformed adapter policy fails closed: policy_denied for every skill', () => {
    f.policy('adapter_policy:\n  skill: {require_schema: "yes"}\n');
    f.adapter(A0);
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['policy_denied', 'not_reviewed']);
    const [invalid] = r.diagnostics('eva.policy.invalid');
    assert.equal(invalid?.range.start.line, 1);
    assert.equal(invalid?.severity, 'error');
    assert.deepEqual(
      r.diagnostics('eva.policy.fail-closed').map((d) => d.severity),
      ['error'],
    );
  });

  it('case 69: a skill section without allowed_runtime_gates allows no gate', () => {
    f.policy('adapter_policy:\n  skill: {require_schema: true}\n');
    f.adapter(A0);
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['policy_denied', 'not_reviewed']);
    assert.deepEqual(
      r.diagnostics('eva.policy.gate-denied').map((d) => d.message),
      ['skill runtime gate normal is not allowed'],
    );
  });

  it('case 70: a process-free skill asking for an environment variable is policy_denied', () => {
    f.adapter(a0((t) => t.replace('env: []', 'env: [GITHUB_TOKEN]')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['policy_denied', 'not_reviewed']);
    assert.deepEqual(r.codes(false), ['eva.policy.credentials E']);
  });

  it('case 71: unknown keys at the top and in skill are accepted', () => {
    f.adapter(a0((t) => t + 'foo: 1\n').replace('  id: review\n', '  id: review\n  bar: 2\n'));
    const r = f.index();
    assert.deepEqual(
      [r.item('adapters/review.yaml').decision, r.item('adapters/review.yaml').reasons],
      ['registered', UNREVIEWED],
    );
    assert.deepEqual(r.codes(false), []);
  });

  it('case 72: version: 1.0 is a number, not a string', () => {
    f.adapter(a0((t) => t.replace('version: 1.0.0', 'version: 1.0')));
    const r = f.index();
    assert.deepEqual(r.item('adapters/review.yaml').reasons, ['schema_invalid', 'not_reviewed']);
    assert.deepEqual(
      r.diagnostics('eva.schema.type').map((d) => d.message),
      ['schema type mismatch: expected string, got number'],
    );
  });

  it('case 73: a kind: skill binding follows its provider: loaded with it while unreviewed, registered once it is trusted (§2.6)', () => {
    f.adapter(A0);
    f.write(
      'ws/config/capabilities/rs.yaml',
      'id: rs\nname: Review binding\nversion: 1.0.0\nenabled: true\nkind: skill\ncapability: workflow.review\ndefault_provider: review-skill\n',
    );
    const untrusted = f.index();
    const provider = untrusted.item('adapters/review.yaml');
    const binding = untrusted.item('capabilities/rs.yaml');
    assert.equal(binding.kind, 'skill-binding');
    assert.equal(binding.parent, provider.id);
    assert.deepEqual([binding.decision, binding.reasons], ['registered', ['loaded_unreviewed']]);
    const trusted = f.index({ trust: trusting(provider) }).item('capabilities/rs.yaml');
    assert.deepEqual([trusted.decision, trusted.reasons], ['registered', ['registered']]);
    // Provider not registered by Eva (disabled): the binding is inactive.
    f.adapter(A0.replace('enabled: true', 'enabled: false'));
    const inactive = f.index().item('capabilities/rs.yaml');
    assert.deepEqual([inactive.decision, inactive.reasons], ['disabled', ['bundle_inactive']]);
  });
});
