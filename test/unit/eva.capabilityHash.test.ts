import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { A0, EvaFixture, L0 } from './helpers/evaFixture';

/**
 * eva.md §6.3: the capability hash is SHA-256 of `"skillgate-eva-capabilities-v1\0"`
 * followed by byte-sorted `key\0value\0` pairs, list values sorted and joined with `\n`,
 * over exactly these keys: kind, eva_kind, id, skill_id, skill_source, entry_type,
 * runner_command, transport, capabilities, gate_modes, gate_disallow_team_worker,
 * gate_requires_interactive_user, read_workspace, write_workspace, network, shell, env,
 * fs_read, fs_write, adapter_capabilities, adapter_providers. The expected hashes below
 * are built from that definition, not read back from the code.
 */
function specHash(pairs: Record<string, string>): string {
  const keys = Object.keys(pairs).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const h = createHash('sha256').update('skillgate-eva-capabilities-v1\0');
  for (const k of keys) h.update(`${k}\0${pairs[k]}\0`);
  return h.digest('hex');
}

const NONE = {
  runner_command: '',
  gate_modes: '',
  gate_disallow_team_worker: 'false',
  gate_requires_interactive_user: 'false',
  write_workspace: 'false',
  network: 'false',
  shell: 'false',
  env: '',
  fs_read: '',
  fs_write: '',
  adapter_capabilities: '',
  adapter_providers: '',
};

/** L0's pairs by the definition: a lua_skill for normal mode, no team worker, that reads the workspace's files. */
const L0_PAIRS = {
  ...NONE,
  kind: 'lua-skill',
  eva_kind: 'lua_skill',
  id: 'lint-skill',
  skill_id: '',
  skill_source: '',
  entry_type: '',
  transport: '',
  capabilities: 'workflow.lint',
  gate_modes: 'normal',
  gate_disallow_team_worker: 'true',
  read_workspace: 'false',
  fs_read: 'workspace',
};

/** A0's pairs by the definition: a workflow skill adapter that reads the workspace and asks for nothing else. */
const A0_PAIRS = {
  ...NONE,
  kind: 'skill-adapter',
  eva_kind: 'workflow_skill',
  id: 'review-skill',
  skill_id: 'review',
  skill_source: 'codex',
  entry_type: 'codex_skill',
  transport: 'skill',
  capabilities: 'workflow.review',
  gate_modes: 'normal',
  read_workspace: 'true',
};

describe('Eva capability hashes from the definition (eva.md §6.3)', () => {
  let f: EvaFixture;
  beforeEach(() => (f = new EvaFixture().p0()));
  afterEach(() => f.remove());

  it('hashes the skill adapter A0 over every key of the definition', () => {
    f.adapter(A0);
    const item = f.index().item('adapters/review.yaml');
    assert.equal(item.capabilityHash, specHash(A0_PAIRS));
  });

  it('hashes the lua_skill L0 with its gate and file permissions', () => {
    f.l0();
    const item = f.index().item('capabilities/lint.yaml');
    assert.equal(item.capabilityHash, specHash(L0_PAIRS));
  });

  it('puts each permission an adapter asks for under its own key, lists sorted and joined with newlines', () => {
    f.adapter(
      A0.replace(
        'permissions: {read_workspace: true, write_workspace: false, network: false, shell: false, env: []}',
        'permissions: {read_workspace: false, write_workspace: true, network: true, shell: true, env: [ZED, ALPHA]}',
      ).replace('capabilities: [workflow.review]', 'capabilities: [workflow.z, workflow.review]'),
    );
    const item = f.index().item('adapters/review.yaml');
    const asked = {
      ...A0_PAIRS,
      capabilities: 'workflow.review\nworkflow.z',
      read_workspace: 'false',
      write_workspace: 'true',
      network: 'true',
      shell: 'true',
      env: 'ALPHA\nZED',
    };
    assert.equal(item.capabilityHash, specHash(asked));
  });
});

describe("Each Eva contract field's place in the capability pairs (eva.md §6.3)", () => {
  let f: EvaFixture;
  beforeEach(() => (f = new EvaFixture().p0()));
  afterEach(() => f.remove());

  const adapterHash = (text: string) => {
    f.adapter(text);
    return f.index().item('adapters/review.yaml').capabilityHash;
  };

  it('puts each field of a skill adapter under its own key: a change to one field moves exactly that pair', () => {
    const cases: [string, string, Partial<typeof A0_PAIRS>][] = [
      ['id: review-skill', 'id: other-skill', { id: 'other-skill' }],
      ['kind: workflow_skill', 'kind: runtime_worker', { eva_kind: 'runtime_worker' }],
      ['  id: review\n', '  id: other\n', { skill_id: 'other' }],
      ['source: codex', 'source: agents', { skill_source: 'agents' }],
      ['entry: {type: codex_skill}', 'entry: {type: process}', { entry_type: 'process' }],
      ['entry: {type: codex_skill}', 'runner: {command: bin/run.sh}', { runner_command: 'bin/run.sh' }],
      ['runtime_gate: normal', 'runtime_gate: {allowed_modes: [team, normal]}', { gate_modes: 'normal\nteam' }],
      [
        'runtime_gate: normal',
        'runtime_gate: {allowed_modes: [normal], disallow_team_worker: true}',
        { gate_disallow_team_worker: 'true' },
      ],
      [
        'runtime_gate: normal',
        'runtime_gate: {allowed_modes: [normal], requires_interactive_user: true}',
        { gate_requires_interactive_user: 'true' },
      ],
      ['read_workspace: true', 'read_workspace: false', { read_workspace: 'false' }],
      ['write_workspace: false', 'write_workspace: true', { write_workspace: 'true' }],
      ['network: false', 'network: true', { network: 'true' }],
      ['shell: false', 'shell: true', { shell: 'true' }],
      ['env: []', 'env: [TOKEN]', { env: 'TOKEN' }],
    ];
    for (const [from, to, pairs] of cases)
      assert.equal(adapterHash(A0.replace(from, to)), specHash({ ...A0_PAIRS, ...pairs }), to);
  });

  it('takes the runner command before a top-level command, and a top-level command without a runner', () => {
    assert.equal(
      adapterHash(`${A0}command: tools/top.sh\n`),
      specHash({ ...A0_PAIRS, runner_command: 'tools/top.sh' }),
    );
    assert.equal(
      adapterHash(
        `${A0.replace('entry: {type: codex_skill}', 'runner: {command: bin/run.sh}')}command: tools/top.sh\n`,
      ),
      specHash({ ...A0_PAIRS, runner_command: 'bin/run.sh' }),
    );
  });

  it('hashes a gate that cannot be read as no modes and no flags', () => {
    assert.equal(adapterHash(A0.replace('  runtime_gate: normal\n', '')), specHash({ ...A0_PAIRS, gate_modes: '' }));
  });

  it('hashes a skill adapter whose contract cannot be read by its kind and id alone', () => {
    const noSkill = A0.replace(/skill:\n(  .*\n)+/, '');
    assert.equal(adapterHash(noSkill), specHash({ kind: 'skill-adapter', id: 'review-skill' }));
    assert.equal(
      adapterHash(noSkill.replace('id: review-skill', 'id: [x]')),
      specHash({ kind: 'skill-adapter', id: '' }),
    );
  });

  it("puts a lua_skill's file, adapter and environment permissions under their own keys", () => {
    f.l0(
      L0.replace(
        'permissions: {fs: {read: [workspace], write: []}, network: false, shell: false}',
        'permissions: {fs: {read: [workspace], write: [out, build]}, network: true, shell: true, env: [B, A], adapters: {capabilities: [repo.read, fs.list], providers: [review-skill]}}',
      ).replace(
        '{allowed_modes: [normal], disallow_team_worker: true}',
        '{allowed_modes: [normal], requires_interactive_user: true}',
      ),
    );
    const l0 = {
      ...L0_PAIRS,
      gate_disallow_team_worker: 'false',
      gate_requires_interactive_user: 'true',
      network: 'true',
      shell: 'true',
      env: 'A\nB',
      fs_write: 'build\nout',
      adapter_capabilities: 'fs.list\nrepo.read',
      adapter_providers: 'review-skill',
    };
    assert.equal(f.index().item('capabilities/lint.yaml').capabilityHash, specHash(l0));
  });
});
