import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Fixture } from './helpers/fixture';
import { A0, L0 } from './helpers/evaFixture';
import { checkLuaSkill } from '../../src/core/systems/eva/luaSkillContract';
import { checkSkillAdapter } from '../../src/core/systems/eva/skillAdapterContract';
import {
  decideProjectSkill,
  isWorkflowCapability,
  type DecideContext,
  type ProjectSkillDecision,
} from '../../src/core/systems/eva/decide';
import { decisionOf, primaryFirst } from '../../src/core/systems/eva/reasonOrder';
import { allowedRoot } from '../../src/core/systems/eva/paths';
import { DEFAULT_POLICY, type EvaPolicy } from '../../src/core/systems/eva/policy';
import { DEFAULT_EVA_RUNTIME, type EvaRuntime } from '../../src/core/systems/eva/runtime';
import { EMBEDDED_SCHEMAS } from '../../src/core/systems/eva/schemas';
import { parseEvaYaml } from '../../src/core/systems/eva/yamlDocument';

/**
 * Eva's ordered decision procedure for one project skill (eva.md §4.2 C4–C12), called
 * directly: every reason that holds is kept in check order, the first is primary (but
 * `duplicate_id_shadowed` always leads), one policy reason with one diagnostic per failed
 * sub-check, and the registration target.
 */

type PolicyPatch = Partial<Omit<EvaPolicy, 'defaults'>> & { defaults?: Partial<EvaPolicy['defaults']> };

describe('Eva decision procedure (eva.md §4.2)', () => {
  let f: Fixture;
  let root: string;
  let home: string;
  beforeEach(() => {
    f = new Fixture();
    root = f.mkdir('ws');
    home = f.mkdir('home');
    f.write('ws/config/skills/lint.lua', 'return {}\n');
    f.write('ws/schemas/lint.input.json', '{"type":"object"}');
    f.write('ws/schemas/lint.output.json', '{"type":"object"}');
  });
  afterEach(() => f.remove());

  function ctx(policy: PolicyPatch = {}, runtime: EvaRuntime = DEFAULT_EVA_RUNTIME): DecideContext {
    const projectRoots = [allowedRoot(root)];
    return {
      projectRoot: root,
      home,
      runtime,
      policy: { ...DEFAULT_POLICY, ...policy, defaults: { ...DEFAULT_POLICY.defaults, ...policy.defaults } },
      projectRoots,
      skillPathRoots: [...projectRoots, allowedRoot(path.join(home, '.codex', 'skills'))],
    };
  }

  function decide(
    text: string,
    options: { policy?: PolicyPatch; runtime?: EvaRuntime; shadowed?: boolean; lua?: boolean } = {},
  ): ProjectSkillDecision {
    const parsed = parseEvaYaml(path.join(root, 'config/adapters/x.yaml'), text);
    if (!parsed.ok) throw new Error(parsed.message);
    const doc = parsed.document;
    const checked = options.lua ? checkLuaSkill(doc) : checkSkillAdapter(doc, EMBEDDED_SCHEMAS.adapter);
    assert.ok(checked.contract, 'the test manifest has a contract');
    return decideProjectSkill(
      { doc, contract: checked.contract, invalid: checked.invalid, shadowed: options.shadowed ?? false },
      ctx(options.policy, options.runtime),
    );
  }

  const codes = (d: ProjectSkillDecision) => d.diagnostics.map((x) => `${x.code} @${x.range.start.line + 1}`);
  const messages = (d: ProjectSkillDecision, code: string) =>
    d.diagnostics.filter((x) => x.code === code).map((x) => x.message);

  it('A0 registers into the AdapterRegistry with no diagnostic', () => {
    const d = decide(A0);
    assert.deepEqual(
      [d.decision, d.reasons, d.target, codes(d)],
      ['registered', ['registered'], 'AdapterRegistry', []],
    );
    assert.deepEqual(d.schemaStates, { input: 'inline', output: 'inline' });
  });

  it('L0 registers into the CapabilityRegistry, its script and schema files resolved', () => {
    const d = decide(L0, { lua: true });
    assert.deepEqual([d.decision, d.reasons, d.target], ['registered', ['registered'], 'CapabilityRegistry']);
    assert.deepEqual(d.schemaStates, { input: 'file', output: 'file' });
    assert.deepEqual(
      [d.script?.display, d.schemaFiles.map((p) => p.display)],
      ['config/skills/lint.lua', ['schemas/lint.input.json', 'schemas/lint.output.json']],
    );
  });

  it('a manifest invalid at C2 is rejected with schema_invalid only, no other check run', () => {
    const d = decide(A0.replace('kind: workflow_skill', 'kind: bogus').replace('network: false', 'network: true'));
    assert.deepEqual([d.decision, d.reasons, d.target, d.diagnostics], ['rejected', ['schema_invalid'], null, []]);
    assert.deepEqual([d.skillPath, d.script, d.schemaFiles], [null, null, []]);
    const shadowed = decide(A0.replace('kind: workflow_skill', 'kind: bogus'), { shadowed: true });
    assert.deepEqual([shadowed.decision, shadowed.reasons], ['shadowed', ['duplicate_id_shadowed', 'schema_invalid']]);
  });

  it('shadowing is always primary, whatever else holds', () => {
    const d = decide(A0.replace('enabled: true', 'enabled: false'), { shadowed: true });
    assert.deepEqual(
      [d.decision, d.reasons, d.target],
      ['shadowed', ['duplicate_id_shadowed', 'disabled_by_manifest'], null],
    );
  });

  it('C4: enabled: false disables, naming the manifest kind', () => {
    const d = decide(A0.replace('enabled: true', 'enabled: false'));
    assert.deepEqual([d.decision, d.reasons, d.target], ['disabled', ['disabled_by_manifest'], null]);
    assert.deepEqual(messages(d, 'eva.manifest.disabled'), ['adapter manifest is disabled']);
    const l = decide(L0.replace('kind: lua_skill', 'kind: lua_skill\nenabled: false'), { lua: true });
    assert.deepEqual(messages(l, 'eva.manifest.disabled'), ['capability manifest is disabled']);
  });

  it('C5: a skill.path outside the allowed roots is path_not_allowed at skill.path; inside a user root it is allowed', () => {
    const escape = decide(A0.replace('  id: review\n', '  id: review\n  path: ../outside/SKILL.md\n'));
    assert.deepEqual([escape.decision, escape.reasons], ['rejected', ['path_not_allowed']]);
    assert.deepEqual(codes(escape), ['eva.path.not-allowed @9']);
    assert.deepEqual(messages(escape, 'eva.path.not-allowed'), [
      `path is outside the allowed roots: ${f.path('outside/SKILL.md')}`,
    ]);
    f.write('home/.codex/skills/review/SKILL.md', 'x');
    const user = decide(A0.replace('  id: review\n', '  id: review\n  path: ~/.codex/skills/review/SKILL.md\n'));
    assert.deepEqual(
      [user.decision, codes(user), user.skillPath?.display],
      ['registered', [], '~/.codex/skills/review/SKILL.md'],
    );
  });

  it('C5: a skill.path whose link escapes says so', () => {
    f.write('outside/SKILL.md', 'x');
    f.symlink(f.path('outside/SKILL.md'), 'ws/config/skills/review/SKILL.md');
    const d = decide(A0.replace('  id: review\n', '  id: review\n  path: config/skills/review/SKILL.md\n'));
    assert.deepEqual(messages(d, 'eva.path.not-allowed'), [
      'path is outside the allowed roots: config/skills/review/SKILL.md via symbolic link',
    ]);
  });

  it('warns when an allowed skill.path does not exist, without a reason', () => {
    const d = decide(A0.replace('  id: review\n', '  id: review\n  path: config/skills/review/SKILL.md\n'));
    assert.deepEqual([d.decision, d.reasons, codes(d)], ['registered', ['registered'], ['eva.skill.path-missing @9']]);
  });

  it('C5/C6: a Lua script outside the project is path_not_allowed (not script_missing); a missing one is script_missing', () => {
    f.write('x.lua', 'return {}');
    const outside = decide(L0.replace('config/skills/lint.lua', '../x.lua'), { lua: true });
    assert.deepEqual([outside.reasons, codes(outside)], [['path_not_allowed'], ['eva.path.not-allowed @5']]);
    const missing = decide(L0.replace('config/skills/lint.lua', 'config/skills/none.lua'), { lua: true });
    assert.deepEqual(
      [missing.decision, missing.reasons, codes(missing)],
      ['rejected', ['script_missing'], ['eva.lua.script-missing @5']],
    );
    assert.deepEqual(messages(missing, 'eva.lua.script-missing'), ['Lua script does not exist']);
  });

  it('C5/C6: a script named through a regular file is script_missing, not outside the roots', () => {
    const d = decide(L0.replace('config/skills/lint.lua', 'config/skills/lint.lua/x.lua'), { lua: true });
    assert.deepEqual([d.reasons, codes(d)], [['script_missing'], ['eva.lua.script-missing @5']]);
  });

  it('C6: a script that is a directory is script_missing', () => {
    f.mkdir('ws/config/skills/dir.lua');
    const d = decide(L0.replace('config/skills/lint.lua', 'config/skills/dir.lua'), { lua: true });
    assert.deepEqual(d.reasons, ['script_missing']);
  });

  it('C6: a script that is a link to a regular file inside the project is accepted', () => {
    f.symlink(f.path('ws/config/skills/lint.lua'), 'ws/config/skills/alias.lua');
    const d = decide(L0.replace('config/skills/lint.lua', 'config/skills/alias.lua'), { lua: true });
    assert.deepEqual(d.reasons, ['registered']);
  });

  it('C8: each missing inline schema is one diagnostic at skill, one reason; rejected for an adapter', () => {
    const d = decide(A0.replace(/  input_schema: .*\n/, '').replace(/  output_schema: .*\n/, ''));
    assert.deepEqual([d.decision, d.reasons], ['rejected', ['capability_missing_schema']]);
    assert.deepEqual(messages(d, 'eva.skill.schema-missing'), [
      'workflow skill is missing input_schema',
      'workflow skill is missing output_schema',
    ]);
    assert.deepEqual(codes(d), ['eva.skill.schema-missing @6', 'eva.skill.schema-missing @6']);
    assert.deepEqual(d.schemaStates, { input: 'absent', output: 'absent' });
  });

  it('C8: the stub fix adds the missing side at the skill block indentation, only for a block mapping', () => {
    const d = decide(A0.replace(/  output_schema: .*\n/, ''));
    const fix = d.diagnostics[0]?.fix;
    assert.equal(fix?.title, 'Add an output_schema stub (type: object)');
    assert.deepEqual(
      fix?.edits.map((e) => [e.newText, e.range.start.line, e.range.start.character]),
      [['  output_schema: {type: object}\n', 12, 0]],
    );
    // The skill block last in the file, with no line break after it.
    const lastBlock =
      'id: review-skill\nname: R\nversion: 1.0.0\nenabled: true\ncapabilities: [workflow.review]\npermissions: {}\nlimits: {}\nrouting: {}\n' +
      'transport: skill\nskill:\n  id: review\n  kind: workflow_skill\n  runtime_gate: normal\n  input_schema: {type: object}';
    const atEnd = decide(lastBlock);
    assert.deepEqual(
      atEnd.diagnostics.find((x) => x.code === 'eva.skill.schema-missing')?.fix?.edits.map((e) => e.newText),
      ['\n  output_schema: {type: object}\n'],
    );
    const flow = decide(
      A0.replace(
        /skill:\n(  .*\n)+/,
        'skill: {id: review, kind: workflow_skill, runtime_gate: normal, input_schema: {type: object}}\n',
      ),
    );
    assert.equal(flow.diagnostics.find((x) => x.code === 'eva.skill.schema-missing')?.fix, undefined);
  });

  it('C8: a lua_skill schema file that is missing is capability_missing_schema at its field', () => {
    const d = decide(L0.replace('schemas/lint.output.json', 'schemas/none.json'), { lua: true });
    assert.deepEqual([d.decision, d.reasons], ['rejected', ['capability_missing_schema']]);
    assert.deepEqual(codes(d), ['eva.skill.schema-file-missing @8']);
    assert.deepEqual(messages(d, 'eva.skill.schema-file-missing'), [
      'output_schema file does not exist: schemas/none.json',
    ]);
    assert.deepEqual(messages(d, 'eva.skill.schema-missing'), [], 'the file, not the key, is missing');
  });

  it('C8: an absent lua_skill schema is display-only under require_schema: false, rejected otherwise', () => {
    const text = L0.replace('input_schema: schemas/lint.input.json\n', '');
    assert.deepEqual(
      [decide(text, { lua: true }).decision, decide(text, { lua: true }).reasons],
      ['rejected', ['capability_missing_schema']],
    );
    const shown = decide(text, { lua: true, policy: { requireSchema: false } });
    assert.deepEqual([shown.decision, shown.target], ['display_only', 'DisplayOnly']);
    const adapterShown = decide(A0.replace(/  input_schema: .*\n/, ''), { policy: { requireSchema: false } });
    assert.equal(adapterShown.decision, 'rejected', 'require_schema: false never relaxes transport: skill');
  });

  it('C8: a schema file that is not a JSON object is schema_invalid with its state invalid', () => {
    f.write('ws/schemas/lint.input.json', '{"type": ');
    f.write('ws/schemas/lint.output.json', '[1]');
    const d = decide(L0, { lua: true });
    assert.deepEqual([d.decision, d.reasons], ['rejected', ['schema_invalid']]);
    assert.deepEqual(messages(d, 'eva.skill.schema-file-invalid'), [
      'failed to parse JSON Schema',
      'schema file must contain a JSON object',
    ]);
    assert.deepEqual(d.schemaStates, { input: 'invalid', output: 'invalid' });
  });

  it('C8: a schema file outside the project is path_not_allowed, and not read', () => {
    f.write('schema.json', '{}');
    const d = decide(L0.replace('schemas/lint.input.json', '../schema.json'), { lua: true });
    assert.deepEqual([d.reasons, codes(d)], [['path_not_allowed'], ['eva.path.not-allowed @7']]);
  });

  it('C9: a runtime_worker is display-only in normal mode; registers into the TeamRuntime of a matching team runtime', () => {
    const worker = A0.replace('kind: workflow_skill', 'kind: runtime_worker').replace(
      'runtime_gate: normal',
      'runtime_gate: team',
    );
    const normal = decide(worker);
    assert.deepEqual(
      [normal.decision, normal.reasons],
      ['display_only', ['runtime_worker_display_only', 'runtime_gate_mismatch']],
    );
    assert.deepEqual(codes(normal), ['eva.kind.runtime-worker @9', 'eva.gate.mismatch @10']);
    const team = decide(worker, { runtime: { mode: 'team', teamWorker: false, interactiveUser: false } });
    assert.deepEqual([team.decision, team.reasons, team.target], ['registered', ['registered'], 'TeamRuntime']);
    const otherTeam = decide(worker, { runtime: { mode: 'swarm', teamWorker: false, interactiveUser: false } });
    assert.deepEqual(otherTeam.reasons, ['runtime_worker_display_only', 'runtime_gate_mismatch']);
    const normalGate = decide(worker.replace('runtime_gate: team', 'runtime_gate: normal'));
    assert.deepEqual(
      normalGate.reasons,
      ['runtime_worker_display_only'],
      'a worker gated to normal is still display-only in normal mode',
    );
  });

  it('C9/C10: a runtime_worker in its team runtime is not subject to deny_kinds or allowed_runtime_gates', () => {
    const worker = A0.replace('kind: workflow_skill', 'kind: runtime_worker').replace(
      'runtime_gate: normal',
      'runtime_gate: team',
    );
    const team = { mode: 'team', teamWorker: false, interactiveUser: false };
    const d = decide(worker, { runtime: team, policy: { denyKinds: ['runtime_worker'], allowedRuntimeGates: [] } });
    assert.deepEqual(d.reasons, ['registered']);
    const normalWorker = decide(worker.replace('runtime_gate: team', 'runtime_gate: normal'), {
      policy: { denyKinds: ['runtime_worker'] },
    });
    assert.deepEqual(
      normalWorker.reasons,
      ['runtime_worker_display_only'],
      'deny_kinds never names runtime_worker (C9 covers it)',
    );
  });

  it('C10 (a): a malformed policy denies every skill, at the first line', () => {
    const d = decide(A0, { policy: { failClosed: true } });
    assert.deepEqual([d.decision, d.reasons], ['rejected', ['policy_denied']]);
    assert.deepEqual(codes(d), ['eva.policy.fail-closed @1']);
    assert.deepEqual(messages(d, 'eva.policy.fail-closed'), [
      'adapter_policy could not be read; every Eva skill is denied until it is fixed',
    ]);
  });

  it('C10 (b): a kind in deny_kinds is denied at its kind field', () => {
    const d = decide(A0, { policy: { denyKinds: ['workflow_skill'] } });
    assert.deepEqual([d.reasons, codes(d)], [['policy_denied'], ['eva.policy.kind-denied @9']]);
    assert.deepEqual(messages(d, 'eva.policy.kind-denied'), [
      'skill kind workflow_skill is denied by adapter_policy.skill.deny_kinds',
    ]);
    const l = decide(L0, { lua: true, policy: { denyKinds: ['lua_skill'] } });
    assert.deepEqual(codes(l), ['eva.policy.kind-denied @2']);
  });

  it('C10 (c): each globally denied capability is one diagnostic at its entry', () => {
    const d = decide(A0.replace('[workflow.review]', '[workflow.review, workflow.deploy]'), {
      policy: { denyCapabilities: ['workflow.review', 'workflow.deploy'] },
    });
    assert.deepEqual(d.reasons, ['policy_denied']);
    assert.deepEqual(messages(d, 'eva.policy.capability-denied'), [
      'capability workflow.review is globally denied',
      'capability workflow.deploy is globally denied',
    ]);
  });

  it('C10 (d): workspace write is denied unless the defaults or allow_write_workspace allow it', () => {
    const write = A0.replace('write_workspace: false', 'write_workspace: true');
    const denied = decide(write);
    assert.deepEqual([denied.reasons, codes(denied)], [['policy_denied'], ['eva.policy.write-denied @15']]);
    assert.deepEqual(messages(denied, 'eva.policy.write-denied'), [
      'skill requests workspace write, which adapter_policy does not allow for review-skill',
    ]);
    assert.deepEqual(decide(write, { policy: { allowWriteWorkspace: ['review-skill'] } }).reasons, ['registered']);
    assert.deepEqual(decide(write, { policy: { defaults: { writeWorkspace: true } } }).reasons, ['registered']);
    assert.deepEqual(decide(write, { policy: { allowWriteWorkspace: ['other'] } }).reasons, ['policy_denied']);
    const luaWrite = decide(L0.replace('write: []', 'write: [workspace]'), { lua: true });
    assert.deepEqual([luaWrite.reasons, codes(luaWrite)], [['policy_denied'], ['eva.policy.write-denied @9']]);
  });

  it('C10 (e, f): network and shell are denied unless the defaults allow them, one diagnostic each', () => {
    const both = A0.replace('network: false, shell: false', 'network: true, shell: true');
    const d = decide(both);
    assert.deepEqual(d.reasons, ['policy_denied']);
    assert.deepEqual(
      d.diagnostics.map((x) => x.code),
      ['eva.policy.network-denied', 'eva.policy.shell-denied'],
    );
    assert.deepEqual(messages(d, 'eva.policy.network-denied'), [
      'skill requests network access, which adapter_policy.defaults does not allow',
    ]);
    assert.deepEqual(messages(d, 'eva.policy.shell-denied'), [
      'skill requests shell access, which adapter_policy.defaults does not allow',
    ]);
    assert.deepEqual(decide(both, { policy: { defaults: { network: true, shell: true } } }).reasons, ['registered']);
    assert.deepEqual(
      decide(both, { policy: { defaults: { network: true } } }).diagnostics.map((x) => x.code),
      ['eva.policy.shell-denied'],
    );
  });

  it('C10 (g): a process-free skill may not consume credentials; a runner or a command may', () => {
    const env = A0.replace('env: []', 'env: [GITHUB_TOKEN]');
    const d = decide(env);
    assert.deepEqual([d.reasons, codes(d)], [['policy_denied'], ['eva.policy.credentials @15']]);
    assert.deepEqual(messages(d, 'eva.policy.credentials'), ['process-free Skill cannot consume provider credentials']);
    // A vault target must be listed in permissions.env (the loader), which is where C10 (g) points.
    const vault = decide(A0.replace('env: []', 'env: [A]') + 'credentials: {vault: [{env: A, ref: "vault://r"}]}\n');
    assert.deepEqual(codes(vault), ['eva.policy.credentials @15']);
    assert.deepEqual(
      decide(env.replace('  entry: {type: codex_skill}\n', '  entry: {type: codex_skill}\n  runner: {command: run}\n'))
        .reasons,
      ['registered'],
    );
    assert.deepEqual(decide(env + 'command: run\n').reasons, ['registered']);
    assert.deepEqual(decide(env.replace('type: codex_skill', 'type: process')).reasons, ['registered']);
  });

  it('C10 (h): the admitted mode must be an allowed runtime gate; an empty set allows none', () => {
    const d = decide(A0, { policy: { allowedRuntimeGates: [] } });
    assert.deepEqual([d.reasons, codes(d)], [['policy_denied'], ['eva.policy.gate-denied @10']]);
    assert.deepEqual(messages(d, 'eva.policy.gate-denied'), ['skill runtime gate normal is not allowed']);
    const team = A0.replace('runtime_gate: normal', 'runtime_gate: team');
    const rt = { mode: 'team', teamWorker: false, interactiveUser: false };
    assert.deepEqual(decide(team, { runtime: rt }).reasons, ['policy_denied']);
    assert.deepEqual(decide(team, { runtime: rt, policy: { allowedRuntimeGates: ['normal', 'team'] } }).reasons, [
      'registered',
    ]);
    assert.deepEqual(
      decide(team).reasons,
      ['runtime_gate_mismatch'],
      'a gate that does not admit the runtime is C11, not C10',
    );
  });

  it('C11: the mismatch names the gate and the assumed runtime at the gate field', () => {
    const d = decide(
      L0.replace(
        'runtime_gate: {allowed_modes: [normal], disallow_team_worker: true}',
        'runtime_gate: {allowed_modes: [normal], requires_interactive_user: true}',
      ),
      { lua: true },
    );
    assert.deepEqual([d.decision, d.reasons, d.target], ['display_only', ['runtime_gate_mismatch'], 'DisplayOnly']);
    assert.deepEqual(messages(d, 'eva.gate.mismatch'), [
      'runtime gate {allowed_modes: [normal], requires_interactive_user} does not admit the current runtime (normal, team worker: false, interactive: false)',
    ]);
    assert.deepEqual(codes(d).slice(-1), ['eva.gate.mismatch @6']);
  });

  it('C12: no capability, or one outside workflow.*, is capability_unknown with one diagnostic each', () => {
    const none = decide(A0.replace('[workflow.review]', '[]'));
    assert.deepEqual(
      [none.decision, none.reasons, codes(none)],
      ['display_only', ['capability_unknown'], ['eva.capability.unknown @14']],
    );
    assert.deepEqual(messages(none, 'eva.capability.unknown'), ['skill declares no capability']);
    const other = decide(A0.replace('[workflow.review]', '[repo.analyze, workflow.review, workflow]'));
    assert.deepEqual(messages(other, 'eva.capability.unknown'), [
      'capability repo.analyze is not a workflow.* capability; skills expose only workflow capabilities',
      'capability workflow is not a workflow.* capability; skills expose only workflow capabilities',
    ]);
    assert.deepEqual(other.reasons, ['capability_unknown']);
  });

  it('keeps every reason in check order, the first deciding', () => {
    const all = A0.replace('enabled: true', 'enabled: false')
      .replace('  id: review\n', '  id: review\n  path: ../out/SKILL.md\n')
      .replace(/  output_schema: .*\n/, '')
      .replace('network: false', 'network: true')
      .replace('runtime_gate: normal', 'runtime_gate: team')
      .replace('[workflow.review]', '[repo.read]');
    const d = decide(all);
    assert.deepEqual(d.reasons, [
      'disabled_by_manifest',
      'path_not_allowed',
      'capability_missing_schema',
      'policy_denied',
      'runtime_gate_mismatch',
      'capability_unknown',
    ]);
    assert.equal(d.decision, 'disabled');
  });

  it('computes effective permissions as requested ∧ policy, with the key that decided each', () => {
    const text = A0.replace(
      'write_workspace: false, network: false, shell: false',
      'write_workspace: true, network: true, shell: true',
    );
    const source = '/p/config/policies/adapter.yaml';
    const d = decide(text, {
      policy: { source, defaults: { readWorkspace: true, network: true }, allowWriteWorkspace: ['review-skill'] },
    });
    assert.deepEqual(d.effectivePermissions, {
      read_workspace: {
        requested: true,
        effective: true,
        decidedBy: { file: source, key: 'adapter_policy.defaults.read_workspace' },
      },
      write_workspace: {
        requested: true,
        effective: true,
        decidedBy: { file: source, key: 'adapter_policy.allow_write_workspace' },
      },
      network: {
        requested: true,
        effective: true,
        decidedBy: { file: source, key: 'adapter_policy.defaults.network' },
      },
      shell: { requested: true, effective: false, decidedBy: { file: source, key: 'adapter_policy.defaults.shell' } },
    });
    const closed = decide(text, {
      policy: { failClosed: true, defaults: { readWorkspace: true, writeWorkspace: true, network: true, shell: true } },
    }).effectivePermissions;
    assert.deepEqual(
      [
        closed['read_workspace']?.effective,
        closed['write_workspace']?.effective,
        closed['network']?.effective,
        closed['shell']?.effective,
      ],
      [false, false, false, false],
      'a policy that fails closed grants nothing, read included',
    );
    assert.equal(closed['write_workspace']?.decidedBy.key, 'adapter_policy.defaults.write_workspace');
    const notRequested = decide(A0.replace('read_workspace: true', 'read_workspace: false'), {
      policy: { defaults: { readWorkspace: true } },
    });
    assert.deepEqual(notRequested.effectivePermissions['read_workspace'], {
      requested: false,
      effective: false,
      decidedBy: { file: null, key: 'adapter_policy.defaults.read_workspace' },
    });
    const luaRead = decide(L0, { lua: true, policy: { defaults: { readWorkspace: true } } }).effectivePermissions;
    assert.deepEqual(
      [luaRead['read_workspace']?.requested, luaRead['read_workspace']?.effective],
      [true, true],
      'fs.read requests read',
    );
    const luaWrite = decide(L0.replace('write: []', 'write: [w]'), {
      lua: true,
      policy: { defaults: { writeWorkspace: true } },
    }).effectivePermissions;
    assert.deepEqual([luaWrite['write_workspace']?.requested, luaWrite['write_workspace']?.effective], [true, true]);
  });

  it('primaryFirst and decisionOf: shadowing leads; each reason implies its decision', () => {
    assert.deepEqual(primaryFirst(['schema_invalid', 'duplicate_id_shadowed']), [
      'duplicate_id_shadowed',
      'schema_invalid',
    ]);
    assert.deepEqual(primaryFirst(['schema_invalid']), ['schema_invalid']);
    assert.equal(decisionOf([], false), 'registered');
    assert.equal(decisionOf(['registered'], false), 'registered');
    assert.equal(decisionOf(['capability_missing_schema'], true), 'display_only');
    assert.equal(decisionOf(['capability_missing_schema'], false), 'rejected');
    assert.equal(decisionOf(['manifest_required', 'capability_missing_schema'], false), 'display_only');
    assert.equal(decisionOf(['path_not_allowed', 'capability_missing_schema'], true), 'rejected');
  });

  it('a workflow capability has the workflow namespace and at least two segments', () => {
    assert.equal(isWorkflowCapability('workflow.review'), true);
    assert.equal(isWorkflowCapability('workflow'), false);
    assert.equal(isWorkflowCapability('workflows.review'), false);
    assert.equal(isWorkflowCapability('repo.workflow'), false);
  });
  it('places each note at its field: disabled at enabled, a missing skill.path at skill.path', () => {
    const d = decide(A0.replace('enabled: true', 'enabled: false'));
    assert.deepEqual(codes(d), ['eva.manifest.disabled @4']);
    const missing = decide(A0.replace('  id: review\n', '  id: review\n  path: docs/none.md\n'));
    assert.deepEqual(messages(missing, 'eva.skill.path-missing'), [
      'skill.path does not exist on this machine; Eva-CLI does not read it, but its instructions cannot be reviewed',
    ]);
    const worker = decide(A0.replace('kind: workflow_skill', 'kind: runtime_worker'));
    assert.deepEqual(messages(worker, 'eva.kind.runtime-worker'), [
      'runtime_worker skills are display-only outside their team runtime',
    ]);
  });

  it('reads a schema file reached through a link inside the project by its real path', () => {
    f.symlink(f.path('ws/schemas/lint.input.json'), 'ws/schemas/alias.json');
    const d = decide(L0.replace('schemas/lint.input.json', 'schemas/alias.json'), { lua: true });
    assert.deepEqual([d.decision, d.reasons, d.diagnostics], ['registered', ['registered'], []]);
  });

  it('tells a missing schema file from an absent schema, side by side', () => {
    const d = decide(
      L0.replace('schemas/lint.input.json', 'schemas/none.json').replace(
        'output_schema: schemas/lint.output.json\n',
        '',
      ),
      { lua: true },
    );
    assert.deepEqual(codes(d), ['eva.skill.schema-file-missing @7', 'eva.skill.schema-missing @1']);
    assert.deepEqual(messages(d, 'eva.skill.schema-missing'), ['workflow skill is missing output_schema']);
    assert.equal('fix' in (d.diagnostics[1] ?? {}), false, 'no stub for a lua_skill');
    const withSkillBlock = decide(L0.replace('output_schema: schemas/lint.output.json\n', '') + 'skill:\n  kind: x\n', {
      lua: true,
    });
    assert.equal('fix' in (withSkillBlock.diagnostics[0] ?? {}), false, 'not even with a skill block');
  });

  it('points each policy denial at its field in a block manifest', () => {
    const block = A0.replace(
      /permissions: .*\n/,
      'permissions:\n  read_workspace: true\n  write_workspace: true\n  network: true\n  shell: true\n  env: [A]\n',
    );
    assert.deepEqual(codes(decide(block)), [
      'eva.policy.write-denied @17',
      'eva.policy.network-denied @18',
      'eva.policy.shell-denied @19',
      'eva.policy.credentials @20',
    ]);
    const luaBlock = L0.replace(
      /permissions: .*\n/,
      'permissions:\n  fs:\n    read: []\n    write: [w]\n  network: false\n',
    );
    assert.deepEqual(codes(decide(luaBlock, { lua: true })), ['eva.policy.write-denied @12']);
  });

  it('grants a permission only when it is both requested and allowed', () => {
    const eff = (text: string, policy: PolicyPatch, lua = false) => {
      const e = decide(text, { policy, lua }).effectivePermissions;
      return Object.fromEntries(Object.entries(e).map(([k, v]) => [k, [v.requested, v.effective]]));
    };
    const all = { defaults: { readWorkspace: true, writeWorkspace: true, network: true, shell: true } };
    assert.deepEqual(eff(A0.replace('read_workspace: true', 'read_workspace: false'), all), {
      read_workspace: [false, false],
      write_workspace: [false, false],
      network: [false, false],
      shell: [false, false],
    });
    const asksAll = A0.replace(
      'write_workspace: false, network: false, shell: false',
      'write_workspace: true, network: true, shell: true',
    );
    assert.deepEqual(eff(asksAll, all), {
      read_workspace: [true, true],
      write_workspace: [true, true],
      network: [true, true],
      shell: [true, true],
    });
    assert.deepEqual(eff(asksAll, {}), {
      read_workspace: [true, false],
      write_workspace: [true, false],
      network: [true, false],
      shell: [true, false],
    });
    assert.deepEqual(eff(L0, all, true)['write_workspace'], [false, false], 'an empty fs.write asks for nothing');
  });
});
