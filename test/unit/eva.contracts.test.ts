import * as assert from 'node:assert/strict';
import { A0, L0 } from './helpers/evaFixture';
import { checkAdapterManifest } from '../../src/core/systems/eva/adapterContract';
import { checkCapabilityManifest } from '../../src/core/systems/eva/capabilityContract';
import { checkLuaSkill } from '../../src/core/systems/eva/luaSkillContract';
import { checkSkillAdapter } from '../../src/core/systems/eva/skillAdapterContract';
import type { ContractResult } from '../../src/core/systems/eva/contracts';
import { EMBEDDED_SCHEMAS } from '../../src/core/systems/eva/schemas';
import { parseEvaYaml, type YamlDocument } from '../../src/core/systems/eva/yamlDocument';
import { MAX_DIAGNOSTICS_PER_FILE } from '../../src/core/diagnostics/fileCap';

/**
 * The manifest contracts (eva.md §2.2–§2.7), checked file by file without an index: the
 * upstream schema, then the typed loader, then the skill contract of the design. One
 * negative test per rule, asserting the code, the message, where it points and whether
 * the shipped Eva-CLI would refuse the file.
 */

function doc(text: string): YamlDocument {
  const r = parseEvaYaml('/p/config/x.yaml', text);
  if (!r.ok) throw new Error(r.message);
  return r.document;
}

function edit(base: string, from: string | RegExp, to: string): string {
  const out = base.replace(from, to);
  assert.notEqual(out, base, `the test must change the manifest (${String(from)})`);
  return out;
}

const adapter = (text: string) => checkSkillAdapter(doc(text), EMBEDDED_SCHEMAS.adapter);
const lua = (text: string) => checkLuaSkill(doc(text));

/** `code severity line` of each diagnostic (lines 1-based, as an editor shows them). */
function found(r: ContractResult): string[] {
  return r.diagnostics.map((d) => `${d.code} ${d.severity[0]?.toUpperCase()} ${d.range.start.line + 1}`);
}

function only(r: ContractResult, code: string): { message: string; line: number } {
  const ds = r.diagnostics.filter((d) => d.code === code);
  assert.equal(ds.length, 1, `one ${code} in ${found(r).join(', ')}`);
  return { message: ds[0]?.message as string, line: (ds[0]?.range.start.line as number) + 1 };
}

const OTHER_ADAPTER =
  'id: other\nname: Other\nversion: 1.0.0\nenabled: true\ntransport: stdio\ncapabilities: [repo.read]\npermissions: {}\nlimits: {}\nrouting: {}\n';
const CAPABILITY = 'id: c\nname: C\nversion: 1.0.0\nenabled: true\nkind: mcp_tool\ncapability: repo.read\n';

describe('Eva adapter manifests: upstream schema and loader (eva.md §2.2, §2.7)', () => {
  it('accepts A0 with a full contract read from it', () => {
    const r = adapter(A0);
    assert.deepEqual([r.invalid, r.shippedError, found(r)], [false, false, []]);
    const k = r.contract;
    assert.ok(k);
    assert.deepEqual(
      [k.id, k.name, k.kind, k.transport, k.skillId, k.skillSource, k.entryType, k.enabled],
      ['review-skill', 'Review Skill', 'workflow_skill', 'skill', 'review', 'codex', 'codex_skill', true],
    );
    assert.deepEqual(k.runtimeGate, {
      allowedModes: ['normal'],
      disallowTeamWorker: false,
      requiresInteractiveUser: false,
      form: 'string',
    });
    assert.deepEqual(
      k.capabilities.map((c) => [c.name, c.field]),
      [['workflow.review', ['capabilities', 0]]],
    );
    assert.deepEqual(k.permissions, {
      readWorkspace: true,
      writeWorkspace: false,
      network: false,
      shell: false,
      env: [],
      fsRead: [],
      fsWrite: [],
      adapterCapabilities: [],
      adapterProviders: [],
    });
    assert.deepEqual({ ...k.limits }, { timeout_ms: 60000 });
    assert.deepEqual(
      [k.hasCredentials, k.allowUnknownCapability, k.runnerCommand, k.topCommand],
      [false, false, null, null],
    );
    assert.deepEqual(
      [k.skillPath, k.script, k.gateField, k.schemaField],
      [null, null, ['skill', 'runtime_gate'], ['skill']],
    );
  });

  it('a missing required key is the shipped error, named with its path, at the root', () => {
    const r = adapter(edit(A0, 'routing: {priority: 10}\n', ''));
    assert.deepEqual([r.invalid, r.shippedError, r.contract], [true, true, null]);
    assert.deepEqual(only(r, 'eva.schema.required'), { message: 'required field is missing: $.routing', line: 1 });
  });

  it('a wrong type is reported at its key, and a YAML 1.1 boolean word gets a fix writing the boolean', () => {
    const yes = adapter(edit(A0, 'enabled: true', 'enabled: yes'));
    assert.deepEqual(only(yes, 'eva.schema.type'), {
      message: 'schema type mismatch: expected boolean, got string',
      line: 4,
    });
    const fix = yes.diagnostics[0]?.fix;
    assert.equal(fix?.title, 'Write true (a YAML 1.2 boolean)');
    assert.deepEqual(
      fix?.edits.map((e) => [e.newText, e.range.start.line, e.range.start.character, e.range.end.character]),
      [['true', 3, 9, 12]],
    );
    for (const [word, meant] of [
      ['off', 'false'],
      ['N', 'false'],
      ['"true"', 'true'],
      ['On', 'true'],
      ['"no"', 'false'],
      ['y', 'true'],
      ['"false"', 'false'],
    ])
      assert.equal(
        adapter(edit(A0, 'enabled: true', `enabled: ${word}`)).diagnostics[0]?.fix?.edits[0]?.newText,
        meant,
        word,
      );
    assert.equal(adapter(edit(A0, 'enabled: true', 'enabled: maybe')).diagnostics[0]?.fix, undefined);
    assert.equal(adapter(edit(A0, 'version: 1.0.0', 'version: 1.0')).diagnostics[0]?.fix, undefined, 'not a boolean');
  });

  it('adds a bad transport as information when the first error is elsewhere, never twice', () => {
    const r = checkAdapterManifest(
      doc(edit(OTHER_ADAPTER, 'name: Other\n', '').replace('stdio', 'grpc')),
      EMBEDDED_SCHEMAS.adapter,
    );
    assert.deepEqual(found(r), ['eva.schema.required E 1', 'eva.schema.enum I 4']);
    const first = checkAdapterManifest(doc(OTHER_ADAPTER.replace('stdio', 'grpc')), EMBEDDED_SCHEMAS.adapter);
    assert.deepEqual(found(first), ['eva.schema.enum E 5']);
    const fine = checkAdapterManifest(doc(edit(OTHER_ADAPTER, 'name: Other\n', '')), EMBEDDED_SCHEMAS.adapter);
    assert.deepEqual(found(fine), ['eva.schema.required E 1'], 'a valid transport adds nothing');
  });

  it('checks the id against eva-core after the schema pattern: too long', () => {
    const r = adapter(edit(A0, 'id: review-skill', `id: ${'a'.repeat(129)}`));
    assert.deepEqual(only(r, 'eva.id.invalid'), { message: 'identifier is too long', line: 1 });
    assert.deepEqual([r.invalid, r.shippedError], [true, true]);
  });

  it('refuses an empty or padded name and version', () => {
    assert.deepEqual(only(adapter(edit(A0, 'name: Review Skill', 'name: ""')), 'eva.field.empty'), {
      message: 'required field cannot be empty',
      line: 2,
    });
    assert.deepEqual(only(adapter(edit(A0, 'version: 1.0.0', 'version: " 1.0.0"')), 'eva.field.empty'), {
      message: 'field cannot contain leading or trailing whitespace',
      line: 3,
    });
  });

  it('refuses a bad capability name at its index, as the shipped loader does', () => {
    const r = adapter(edit(A0, '[workflow.review]', '[workflow.review, workflow..x]'));
    assert.deepEqual(only(r, 'eva.capability.name-invalid'), {
      message: 'capability name cannot contain empty segments',
      line: 14,
    });
    assert.deepEqual([r.invalid, r.shippedError, r.contract], [true, true, null]);
    const context = checkAdapterManifest(
      doc(OTHER_ADAPTER.replace('[repo.read]', '[repo..read]')),
      EMBEDDED_SCHEMAS.adapter,
    );
    assert.deepEqual([context.invalid, context.shippedError], [true, true]);
    assert.deepEqual(found(checkAdapterManifest(doc(OTHER_ADAPTER), EMBEDDED_SCHEMAS.adapter)), []);
  });
});

describe('Eva transport: skill contract (eva.md §2.3)', () => {
  it('refuses a missing or non-mapping skill block at transport; the shipped loader would not', () => {
    const noBlock = A0.replace(/skill:\n(  .*\n)+/, '');
    for (const text of [noBlock, noBlock + 'skill: 3\n']) {
      const r = adapter(text);
      assert.deepEqual([r.invalid, r.shippedError, r.contract], [true, false, null]);
      assert.deepEqual(only(r, 'eva.skill.block-missing'), {
        message: 'transport: skill requires a skill mapping',
        line: 5,
      });
    }
  });

  it('refuses a missing, blank or non-string skill.id at skill', () => {
    for (const to of ['', '  id: "  "\n', '  id: 7\n']) {
      const r = adapter(edit(A0, '  id: review\n', to));
      assert.deepEqual(only(r, 'eva.skill.id-missing'), { message: 'Skill adapter is missing skill.id', line: 6 });
      assert.deepEqual([r.invalid, r.shippedError], [true, false]);
      assert.ok(r.contract, 'the rest of the contract is still read');
    }
    assert.equal(adapter(edit(A0, '  id: review\n', '  id: 7\n')).contract?.skillId, null);
  });

  it('reads a blank skill.id with Rust trim: U+0085 is blank, a byte-order mark is not', () => {
    const missing = (id: string) =>
      found(adapter(edit(A0, '  id: review\n', `  id: "${id}"\n`))).some((f) => f.startsWith('eva.skill.id-missing'));
    assert.equal(missing('\\u0085'), true);
    assert.equal(missing('\\ufeff'), false);
  });

  it('refuses a missing or non-string skill.kind at skill, and any kind but the two invokable ones at skill.kind', () => {
    assert.deepEqual(only(adapter(edit(A0, '  kind: workflow_skill\n', '')), 'eva.skill.kind-missing'), {
      message: 'skill.kind is required for transport: skill',
      line: 6,
    });
    assert.equal(only(adapter(edit(A0, 'kind: workflow_skill', 'kind: [x]')), 'eva.skill.kind-missing').line, 6);
    const bad = adapter(edit(A0, 'kind: workflow_skill', 'kind: lua_skill'));
    assert.deepEqual(only(bad, 'eva.skill.kind-invalid'), {
      message: 'Skill adapter kind is not invokable (expected workflow_skill or runtime_worker)',
      line: 9,
    });
    assert.equal(bad.contract?.kind, 'workflow_skill', 'the kind read stays the default');
    assert.equal(adapter(edit(A0, 'kind: workflow_skill', 'kind: runtime_worker')).contract?.kind, 'runtime_worker');
  });

  it('refuses a missing or null runtime gate at skill', () => {
    for (const to of ['', '  runtime_gate: null\n', '  runtime_gate:\n']) {
      const r = adapter(edit(A0, '  runtime_gate: normal\n', to));
      assert.deepEqual(only(r, 'eva.skill.gate-missing'), {
        message: 'skill.runtime_gate is required for transport: skill',
        line: 6,
      });
      assert.equal(r.contract?.runtimeGate, null);
    }
  });

  it('refuses a blank string gate and every malformed gate mapping at the gate', () => {
    for (const gate of [
      '""',
      '"  "',
      '7',
      '[normal]',
      '{}',
      '{allowed_modes: []}',
      '{allowed_modes: normal}',
      '{allowed_modes: [normal, 1]}',
      '{allowed_modes: [normal], disallow_team_worker: "yes"}',
      '{allowed_modes: [normal], requires_interactive_user: 1}',
      // A null flag is no boolean, not its default (which would admit more runtimes): fail closed.
      '{allowed_modes: [normal], disallow_team_worker: ~}',
      '{allowed_modes: [normal], requires_interactive_user: null}',
    ]) {
      const r = adapter(edit(A0, 'runtime_gate: normal', `runtime_gate: ${gate}`));
      assert.deepEqual(
        only(r, 'eva.skill.gate-invalid'),
        { message: 'runtime gate must be a mode string or a mapping with allowed_modes', line: 10 },
        gate,
      );
      assert.equal(r.invalid, true);
    }
  });

  it('reads a gate mapping with its defaults and notes that shipped Eva-CLI wants a string', () => {
    const r = adapter(edit(A0, 'runtime_gate: normal', 'runtime_gate: {allowed_modes: [normal, team]}'));
    assert.deepEqual(r.contract?.runtimeGate, {
      allowedModes: ['normal', 'team'],
      disallowTeamWorker: false,
      requiresInteractiveUser: false,
      form: 'mapping',
    });
    assert.deepEqual(found(r), ['eva.compat.gate-mapping I 10']);
    assert.equal(r.invalid, false);
    const flags = adapter(
      edit(
        A0,
        'runtime_gate: normal',
        'runtime_gate: {allowed_modes: [normal], disallow_team_worker: true, requires_interactive_user: true}',
      ),
    );
    assert.deepEqual(
      [flags.contract?.runtimeGate?.disallowTeamWorker, flags.contract?.runtimeGate?.requiresInteractiveUser],
      [true, true],
    );
  });

  it('warns of an unknown mode once per mode, and knows normal, team, swarm and ralph', () => {
    const r = adapter(
      edit(A0, 'runtime_gate: normal', 'runtime_gate: {allowed_modes: [normal, team, swarm, ralph, turbo, x]}'),
    );
    assert.deepEqual(
      r.diagnostics.filter((d) => d.code === 'eva.gate.unknown-mode').map((d) => [d.message, d.severity]),
      [
        ['unknown runtime mode turbo', 'warning'],
        ['unknown runtime mode x', 'warning'],
      ],
    );
    assert.equal(r.invalid, false);
    // A mode repeated is one warning; 300 modes are the file's first 100 diagnostics and one that counts the rest.
    const repeated = adapter(
      edit(A0, 'runtime_gate: normal', `runtime_gate: {allowed_modes: [${Array(300).fill('x')}]}`),
    );
    assert.equal(repeated.diagnostics.filter((d) => d.code === 'eva.gate.unknown-mode').length, 1);
    const modes = Array.from({ length: 300 }, (_, i) => `m${i}`).join(', ');
    const many = adapter(edit(A0, 'runtime_gate: normal', `runtime_gate: {allowed_modes: [${modes}]}`));
    assert.equal(many.diagnostics.length, MAX_DIAGNOSTICS_PER_FILE + 1);
    assert.deepEqual(
      [many.diagnostics.at(-1)?.code, many.diagnostics.at(-1)?.severity, many.invalid],
      ['skillgate.diagnostics.truncated', 'warning', false],
    );
  });

  it('refuses a schema that is not a mapping, and an input schema whose type is not object', () => {
    const notMapping = adapter(edit(A0, /  input_schema: .*\n/, '  input_schema: [a]\n'));
    assert.deepEqual(only(notMapping, 'eva.schema.type'), {
      message: 'schema type mismatch: expected object, got array',
      line: 12,
    });
    assert.equal(notMapping.contract?.inputSchema, null);
    const outputArray = adapter(edit(A0, /  output_schema: .*\n/, '  output_schema: "x"\n'));
    assert.deepEqual(only(outputArray, 'eva.schema.type').message, 'schema type mismatch: expected object, got string');
    const inputArray = adapter(edit(A0, /  input_schema: .*\n/, '  input_schema: {type: array}\n'));
    assert.deepEqual(only(inputArray, 'eva.skill.schema-type'), {
      message: 'Skill input schema type is unsupported',
      line: 12,
    });
    assert.deepEqual(JSON.parse(JSON.stringify(inputArray.contract?.inputSchema)), { inline: { type: 'array' } });
    const outputTyped = adapter(edit(A0, /  output_schema: .*\n/, '  output_schema: {type: array}\n'));
    assert.deepEqual([outputTyped.invalid, found(outputTyped)], [false, []], 'only the input schema must be an object');
  });

  it('reads an absent or null schema as absent (C8 decides), without an error here', () => {
    const r = adapter(edit(A0, /  input_schema: .*\n/, '  input_schema: null\n').replace(/  output_schema: .*\n/, ''));
    assert.deepEqual([r.invalid, r.contract?.inputSchema, r.contract?.outputSchema], [false, null, null]);
  });

  it('refuses a skill.path that is not a string or holds a NUL byte', () => {
    const number = adapter(A0.replace('  id: review\n', '  id: review\n  path: 5\n'));
    assert.deepEqual(only(number, 'eva.schema.type'), {
      message: 'schema type mismatch: expected string, got number',
      line: 9,
    });
    const nul = adapter(A0.replace('  id: review\n', '  id: review\n  path: "a\\0b"\n'));
    assert.deepEqual(only(nul, 'eva.schema.type'), { message: 'skill.path contains a NUL byte', line: 9 });
    assert.equal(nul.contract?.skillPath, null);
    const ok = adapter(A0.replace('  id: review\n', '  id: review\n  path: ~/.codex/skills/review/SKILL.md\n'));
    assert.deepEqual(ok.contract?.skillPath, { declared: '~/.codex/skills/review/SKILL.md', field: ['skill', 'path'] });
  });

  it('refuses a permission flag that is not a boolean, reading it as false (fail closed)', () => {
    for (const key of ['read_workspace', 'write_workspace', 'network', 'shell']) {
      const r = adapter(edit(A0, `${key}: ${key === 'read_workspace' ? 'true' : 'false'}`, `${key}: "yes"`));
      assert.deepEqual(only(r, 'eva.schema.type').message, 'schema type mismatch: expected boolean, got string', key);
      assert.equal(r.invalid, true);
      assert.equal(r.shippedError, false);
    }
    const granted = adapter(
      edit(A0, 'network: false, shell: false', 'network: true, shell: true').replace(
        'write_workspace: false',
        'write_workspace: true',
      ),
    );
    assert.deepEqual(
      [
        granted.contract?.permissions.writeWorkspace,
        granted.contract?.permissions.network,
        granted.contract?.permissions.shell,
      ],
      [true, true, true],
    );
  });

  it('refuses permissions.env that is not a list of strings, as the shipped loader does', () => {
    for (const [env, message] of [
      ['GITHUB_TOKEN', 'permissions.env must be a string list'],
      ['[A, 1]', 'credential env target must be a string'],
    ]) {
      const r = adapter(edit(A0, 'env: []', `env: ${env}`));
      assert.deepEqual([only(r, 'eva.provider.invalid').message, r.shippedError], [message, true]);
    }
    assert.deepEqual(adapter(edit(A0, 'env: []', 'env: [A, B]')).contract?.permissions.env, ['A', 'B']);
    assert.deepEqual(adapter(edit(A0, ', env: []', '')).contract?.permissions.env, []);
    assert.deepEqual(
      adapter(edit(A0, /permissions: .*\n/, 'permissions: {}\n')).contract?.permissions.readWorkspace,
      false,
    );
  });

  it('reads entry, runner, top-level command, credentials and limits', () => {
    const r = adapter(
      edit(
        A0,
        '  entry: {type: codex_skill}\n',
        '  entry: {type: process}\n  runner: {command: ./bin/run, args: [x]}\n',
      ).replace('env: []', 'env: [A]') + 'command: node\ncredentials: {vault: [{env: A, ref: "vault://r"}]}\n',
    );
    const k = r.contract;
    assert.deepEqual(
      [k?.entryType, k?.runnerCommand, k?.topCommand, k?.hasCredentials],
      ['process', './bin/run', 'node', true],
    );
    const none = adapter(edit(A0, '  entry: {type: codex_skill}\n', '') + 'credentials: {vault: []}\nlimits2: 1\n');
    assert.deepEqual([none.contract?.entryType, none.contract?.hasCredentials], ['codex_skill', false]);
    const limits = adapter(
      edit(A0, 'limits: {timeout_ms: 60000}', 'limits: {timeout_ms: 5, note: x, max_concurrency: 2}'),
    );
    assert.deepEqual({ ...limits.contract?.limits }, { timeout_ms: 5, max_concurrency: 2 });
  });

  it('reads enabled: false as not enabled', () => {
    assert.equal(adapter(edit(A0, 'enabled: true', 'enabled: false')).contract?.enabled, false);
  });

  it('notes allow_unknown_capability as not honoured, and records it from the top level or the skill block', () => {
    const top = adapter(A0 + 'allow_unknown_capability: true\n');
    assert.deepEqual(found(top), ['eva.capability.allow-unknown-ignored I 18']);
    assert.equal(top.contract?.allowUnknownCapability, true);
    const inSkill = adapter(A0.replace('  id: review\n', '  id: review\n  allow_unknown_capability: true\n'));
    assert.deepEqual([inSkill.contract?.allowUnknownCapability, found(inSkill)], [true, []]);
    assert.equal(adapter(A0 + 'allow_unknown_capability: false\n').contract?.allowUnknownCapability, false);
  });
});

describe('Eva capability manifests (eva.md §2.4)', () => {
  const check = (text: string) => checkCapabilityManifest(doc(text), EMBEDDED_SCHEMAS.capability);

  it('accepts a conforming manifest and refuses a bad capability name as the shipped loader does', () => {
    assert.deepEqual(found(check(CAPABILITY)), []);
    const r = check(CAPABILITY.replace('capability: repo.read', 'capability: repo..read'));
    assert.deepEqual(only(r, 'eva.capability.name-invalid'), {
      message: 'capability name cannot contain empty segments',
      line: 6,
    });
    assert.deepEqual([r.invalid, r.shippedError], [true, true]);
  });

  it('checks the id with eva-core rules only (no schema pattern: a colon is allowed)', () => {
    assert.deepEqual(found(check(CAPABILITY.replace('id: c', 'id: ns:c'))), []);
    assert.deepEqual(only(check(CAPABILITY.replace('id: c', 'id: "c d"')), 'eva.id.invalid').line, 1);
  });

  it('reports an unknown kind by the schema enum', () => {
    assert.deepEqual(found(check(CAPABILITY.replace('kind: mcp_tool', 'kind: lua_skil'))), ['eva.schema.enum E 5']);
  });
});

describe('Eva kind: lua_skill contract (eva.md §2.5)', () => {
  it('accepts L0 with a full contract and always warns that shipped Eva-CLI refuses the kind', () => {
    const r = lua(L0);
    assert.deepEqual([r.invalid, r.shippedError, found(r)], [false, true, ['eva.compat.lua-skill W 2']]);
    const k = r.contract;
    assert.ok(k);
    assert.deepEqual(
      [k.id, k.name, k.kind, k.transport, k.enabled, k.entryType, k.skillId],
      ['lint-skill', 'lint-skill', 'lua_skill', null, true, null, null],
    );
    assert.deepEqual(k.script, { declared: 'config/skills/lint.lua', field: ['lua', 'script'] });
    assert.deepEqual(k.inputSchema, { file: 'schemas/lint.input.json', field: 'input_schema' });
    assert.deepEqual(k.runtimeGate, {
      allowedModes: ['normal'],
      disallowTeamWorker: true,
      requiresInteractiveUser: false,
      form: 'mapping',
    });
    assert.deepEqual([k.gateField, k.schemaField, k.capabilitiesField], [['runtime_gate'], [], ['capabilities']]);
    assert.deepEqual([k.permissions.fsRead, k.permissions.fsWrite], [['workspace'], []]);
  });

  it('requires id, version and lua; each missing one is an error naming its path', () => {
    for (const [from, field, line] of [
      ['id: lint-skill\n', 'id', 1],
      ['version: 1.0.0\n', 'version', 1],
      [/lua: .*\n/, 'lua', 1],
    ] as const) {
      const r = lua(edit(L0, from, ''));
      assert.deepEqual(only(r, 'eva.schema.required'), { message: `required field is missing: $.${field}`, line });
      assert.equal(r.invalid, true);
    }
    assert.equal(lua(edit(L0, 'id: lint-skill\n', '')).contract, null, 'no id: no contract');
  });

  it('refuses id, version, name, enabled and lua of the wrong type', () => {
    for (const [from, to, message] of [
      ['id: lint-skill', 'id: 5', 'schema type mismatch: expected string, got number'],
      ['version: 1.0.0', 'version: 1.0', 'schema type mismatch: expected string, got number'],
      ['kind: lua_skill', 'kind: lua_skill\nname: [x]', 'schema type mismatch: expected string, got array'],
      ['kind: lua_skill', 'kind: lua_skill\nenabled: "no"', 'schema type mismatch: expected boolean, got string'],
      [/lua: .*/, 'lua: config/skills/lint.lua', 'schema type mismatch: expected object, got string'],
    ] as const)
      assert.equal(only(lua(edit(L0, from, to)), 'eva.schema.type').message, message, String(to));
  });

  it('reads the fields serde reads itself through a local tag, as Eva does (a tagged id was a rejected skill)', () => {
    // `RawCapabilityManifest`'s `String`s and `bool` ignore the tag; its schema types them through it.
    const r = lua(
      edit(L0, 'id: lint-skill', 'id: !t lint-skill\nname: !t Lint\nenabled: !t false').replace(
        'capabilities: [workflow.lint]',
        'capability: !t workflow.lint',
      ),
    );
    assert.deepEqual([r.invalid, found(r)], [false, ['eva.compat.lua-skill W 4']]);
    assert.deepEqual(
      [r.contract?.id, r.contract?.name, r.contract?.enabled, r.contract?.capabilities.map((c) => c.name)],
      ['lint-skill', 'Lint', false, ['workflow.lint']],
    );
    // A number is still no string to the schema.
    assert.equal(
      only(lua(edit(L0, 'id: lint-skill', 'id: !t 5')), 'eva.schema.type').message,
      'schema type mismatch: expected string, got number',
    );
  });

  it('reads permissions as serde reads the struct: through its tag, a local tag in what it buffers refused', () => {
    // `permissions: !t {network: true}` asks for network to Eva: the policy must see it (it was dropped).
    const tagged = lua(edit(L0, 'permissions: {', 'permissions: !t {').replace('network: false', 'network: true'));
    assert.deepEqual([tagged.invalid, tagged.contract?.permissions.network], [false, true]);
    const adapters = lua(
      edit(L0, 'network: false', 'adapters: !t {providers: !t [p], capabilities: [!t repo.read]}, network: false'),
    );
    assert.deepEqual(
      [
        adapters.invalid,
        adapters.contract?.permissions.adapterProviders,
        adapters.contract?.permissions.adapterCapabilities,
      ],
      [false, ['p'], ['repo.read']],
    );
    // serde's `Content` refuses a local tag where the struct buffers it: Eva reads none of the file.
    for (const [from, to, at] of [
      ['{fs: {read: [workspace], write: []}', '{fs: !t {read: [workspace], write: [x]}', 'permissions.fs'],
      ['limits: {timeout_ms: 30000}', 'limits: {timeout_ms: !t 30000}', 'limits.timeout_ms'],
      ['network: false', 'adapters: {extra: !t 1}, network: false', 'permissions.adapters.extra'],
    ] as const) {
      const r = lua(edit(L0, from, to));
      assert.deepEqual([r.invalid, r.contract], [true, null], to);
      assert.equal(
        only(r, 'eva.yaml.parse').message,
        `failed to parse YAML: ${at}: untagged and internally tagged enums do not support enum input`,
        to,
      );
    }
  });

  it('reads nothing under a lua that is not a mapping', () => {
    const r = lua(edit(L0, /lua: .*/, 'lua: config/skills/lint.lua'));
    assert.deepEqual(
      r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
      ['schema type mismatch: expected object, got string'],
    );
    assert.equal(r.contract?.script, null);
  });

  it('name and enabled are optional, defaulting to the id and true; enabled: false is read', () => {
    const named = lua(L0.replace('kind: lua_skill', 'kind: lua_skill\nname: Lint\nenabled: false'));
    assert.deepEqual([named.contract?.name, named.contract?.enabled, named.invalid], ['Lint', false, false]);
  });

  it('applies the loader identity rules only once the types hold, without requiring a name', () => {
    assert.deepEqual(only(lua(edit(L0, 'id: lint-skill', 'id: "lint skill"')), 'eva.id.invalid').line, 1);
    assert.deepEqual(
      only(lua(edit(L0, 'version: 1.0.0', 'version: ""')), 'eva.field.empty').message,
      'required field cannot be empty',
    );
    const both = lua(edit(L0, 'id: lint-skill', 'id: "lint skill"').replace('version: 1.0.0', 'version: 1'));
    assert.deepEqual(
      both.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
      ['eva.schema.type'],
      'the type error first; the loader does not run',
    );
  });

  it('takes the union of capabilities and capability, deduplicated, each checked', () => {
    const r = lua(
      L0.replace(
        'capabilities: [workflow.lint]',
        'capabilities: [workflow.lint, workflow.fix]\ncapability: workflow.lint',
      ),
    );
    assert.deepEqual(
      r.contract?.capabilities.map((c) => [c.name, c.field]),
      [
        ['workflow.lint', ['capabilities', 0]],
        ['workflow.fix', ['capabilities', 1]],
      ],
    );
    const single = lua(edit(L0, 'capabilities: [workflow.lint]', 'capability: workflow.lint'));
    assert.deepEqual(single.contract?.capabilitiesField, ['capability']);
    assert.deepEqual(
      single.contract?.capabilities.map((c) => c.field),
      [['capability']],
    );
    const neither = lua(edit(L0, 'capabilities: [workflow.lint]\n', ''));
    assert.deepEqual(
      [neither.contract?.capabilitiesField, neither.contract?.capabilities, neither.invalid],
      [[], [], false],
    );
    const bad = lua(edit(L0, 'capabilities: [workflow.lint]', 'capability: workflow..lint'));
    assert.deepEqual(only(bad, 'eva.capability.name-invalid'), {
      message: 'capability name cannot contain empty segments',
      line: 4,
    });
  });

  it('refuses capabilities that is not a list, a non-string entry, and a non-string capability', () => {
    assert.equal(
      only(lua(edit(L0, 'capabilities: [workflow.lint]', 'capabilities: workflow.lint')), 'eva.schema.type').message,
      'schema type mismatch: expected array, got string',
    );
    const entry = lua(edit(L0, 'capabilities: [workflow.lint]', 'capabilities: [workflow.lint, 3]'));
    assert.deepEqual(only(entry, 'eva.schema.type'), {
      message: 'schema type mismatch: expected string, got number',
      line: 4,
    });
    assert.equal(
      only(lua(edit(L0, 'capabilities: [workflow.lint]', 'capability: [workflow.lint]')), 'eva.schema.type').message,
      'schema type mismatch: expected string, got array',
    );
  });

  it('reports the first bad element of capabilities, as the schema reports a list: one diagnostic, not one per element', () => {
    // Fuzz seed 7005: 20,000 aliases of `[x, y]` gave 20,001 errors for one file.
    const many = lua(
      edit(
        L0,
        'capabilities: [workflow.lint]',
        `capabilities: [workflow.lint, &a [x], ${Array(500).fill('*a').join(', ')}]`,
      ),
    );
    assert.deepEqual(only(many, 'eva.schema.type'), {
      message: 'schema type mismatch: expected string, got array',
      line: 4,
    });
    assert.deepEqual(
      many.contract?.capabilities.map((c) => c.name),
      ['workflow.lint'],
      'the strings are still read',
    );
    const names = lua(edit(L0, 'capabilities: [workflow.lint]', 'capabilities: [workflow.lint, a..b, c..d, e..f]'));
    assert.equal(only(names, 'eva.capability.name-invalid').message, 'capability name cannot contain empty segments');
    assert.equal(names.invalid, true);
  });

  it('requires lua.script and refuses one that is not a string', () => {
    assert.deepEqual(only(lua(edit(L0, 'script: config/skills/lint.lua, ', '')), 'eva.schema.required'), {
      message: 'required field is missing: $.lua.script',
      line: 5,
    });
    assert.equal(only(lua(edit(L0, 'script: config/skills/lint.lua', 'script: 1')), 'eva.schema.type').line, 5);
  });

  it('requires runtime_gate at the root and accepts a string gate', () => {
    assert.deepEqual(only(lua(edit(L0, /runtime_gate: .*\n/, '')), 'eva.skill.gate-missing'), {
      message: 'runtime_gate is required for lua_skill',
      line: 1,
    });
    const s = lua(edit(L0, /runtime_gate: .*/, 'runtime_gate: team'));
    assert.deepEqual([s.contract?.runtimeGate?.form, s.contract?.runtimeGate?.allowedModes], ['string', ['team']]);
    assert.deepEqual(found(s), ['eva.compat.lua-skill W 2'], 'no gate-mapping note for a lua_skill');
  });

  it('reads a schema as a file path or an inline mapping; refuses a NUL byte and any other type', () => {
    const inline = lua(edit(L0, 'input_schema: schemas/lint.input.json', 'input_schema: {type: object}'));
    assert.deepEqual(JSON.parse(JSON.stringify(inline.contract?.inputSchema)), { inline: { type: 'object' } });
    const nul = lua(edit(L0, 'output_schema: schemas/lint.output.json', 'output_schema: "a\\0b"'));
    assert.deepEqual(only(nul, 'eva.schema.type'), { message: 'output_schema path contains a NUL byte', line: 8 });
    assert.equal(nul.contract?.outputSchema, null);
    assert.equal(
      only(lua(edit(L0, 'input_schema: schemas/lint.input.json', 'input_schema: 3')), 'eva.schema.type').message,
      'schema type mismatch: expected string or object, got number',
    );
    assert.equal(lua(edit(L0, 'input_schema: schemas/lint.input.json\n', '')).contract?.inputSchema, null);
  });

  it('reads fs, network, shell, env and adapter permissions; refuses lists that are not lists of strings', () => {
    const r = lua(
      edit(
        L0,
        /permissions: .*/,
        'permissions: {fs: {read: [a], write: [workspace]}, network: true, shell: true, env: [E], adapters: {capabilities: [repo.read], providers: [p]}}',
      ),
    );
    assert.deepEqual(
      { ...r.contract?.permissions },
      {
        readWorkspace: false,
        writeWorkspace: false,
        network: true,
        shell: true,
        env: ['E'],
        fsRead: ['a'],
        fsWrite: ['workspace'],
        adapterCapabilities: ['repo.read'],
        adapterProviders: ['p'],
      },
    );
    for (const [perm, line] of [
      ['{fs: {write: workspace}}', 9],
      ['{fs: {read: [1]}}', 9],
      ['{adapters: {providers: p}}', 9],
      ['{adapters: {capabilities: [1]}}', 9],
      ['{env: E}', 9],
      ['{network: "no"}', 9],
    ] as const)
      assert.equal(only(lua(edit(L0, /permissions: .*/, `permissions: ${perm}`)), 'eva.schema.type').line, line, perm);
    const none = lua(edit(L0, /permissions: .*\n/, 'permissions: 3\n'));
    assert.deepEqual([none.invalid, none.contract?.permissions.fsWrite], [false, []]);
  });

  it('records allow_unknown_capability, and notes it as not honoured at its key (eva.md §4.4)', () => {
    const flagged = lua(L0 + 'allow_unknown_capability: true\n');
    assert.equal(flagged.contract?.allowUnknownCapability, true);
    assert.deepEqual(
      flagged.diagnostics
        .filter((d) => d.code === 'eva.capability.allow-unknown-ignored')
        .map((d) => [d.severity, d.range.start.line + 1, d.message]),
      [['information', 11, 'allow_unknown_capability is not honoured without a policy that allows it']],
    );
    assert.equal(flagged.invalid, false);
    assert.equal(lua(L0).contract?.allowUnknownCapability, false);
    assert.deepEqual(
      lua(L0).diagnostics.filter((d) => d.code === 'eva.capability.allow-unknown-ignored'),
      [],
    );
  });
});

describe('Eva contracts: what the shipped loader refuses, and where', () => {
  /** A0 written in block style: each field on its own line, for ranges. */
  const A0_BLOCK = [
    'id: review-skill', //              1
    'name: Review Skill', //            2
    'version: 1.0.0', //                3
    'enabled: true', //                 4
    'transport: skill', //              5
    'skill:', //                        6
    '  source: codex', //               7
    '  id: review', //                  8
    '  kind: workflow_skill', //        9
    '  runtime_gate: normal', //        10
    '  input_schema: {type: object}', //11
    '  output_schema: {type: object}', //12
    'capabilities:', //                 13
    '  - workflow.review', //           14
    'permissions:', //                  15
    '  read_workspace: true', //        16
    '  env: []', //                     17
    'limits: {}', //                    18
    'routing: {}', //                   19
    '',
  ].join('\n');

  const at = (r: ContractResult, code: string) =>
    r.diagnostics
      .filter((d) => d.code === code)
      .map((d) => [d.range.start.line + 1, d.range.start.character, d.range.end.character]);

  it('the skill-contract rules are not errors of the shipped loader', () => {
    for (const [from, to] of [
      ['runtime_gate: normal', 'runtime_gate: 7'],
      ['input_schema: {type: object}', 'input_schema: [x]'],
      ['input_schema: {type: object}', 'input_schema: {type: array}'],
      ['  id: review\n', '  id: review\n  path: 5\n'],
      ['  id: review\n', '  id: review\n  path: "a\\0b"\n'],
      ['read_workspace: true', 'read_workspace: "yes"'],
    ]) {
      const r = adapter(edit(A0_BLOCK, from as string, to as string));
      assert.deepEqual([r.invalid, r.shippedError], [true, false], to);
    }
  });

  it('the typed loader rules are errors of the shipped loader, and stop at the first', () => {
    const name = adapter(edit(A0_BLOCK, 'name: Review Skill', 'name: ""').replace('version: 1.0.0', 'version: " 1"'));
    assert.deepEqual([name.invalid, name.shippedError, name.contract], [true, true, null]);
    assert.deepEqual(
      name.diagnostics.map((d) => d.message),
      ['required field cannot be empty'],
    );
    const id = adapter(
      edit(A0_BLOCK, 'id: review-skill', `id: ${'a'.repeat(129)}`).replace('workflow.review', 'workflow..x'),
    );
    assert.deepEqual([id.contract, id.diagnostics.map((d) => d.code)], [null, ['eva.id.invalid']]);
    assert.deepEqual(at(id, 'eva.id.invalid'), [[1, 0, 2]], 'at the id key');
    const context = checkAdapterManifest(
      doc(edit(OTHER_ADAPTER, 'routing: {}\n', '').replace('[repo.read]', '[repo..read]')),
      EMBEDDED_SCHEMAS.adapter,
    );
    assert.deepEqual(
      context.diagnostics.map((d) => d.code),
      ['eva.schema.required'],
      'the loader does not run after a schema error',
    );
    const capContext = checkCapabilityManifest(
      doc(CAPABILITY.replace('version: 1.0.0\n', '').replace('capability: repo.read', 'capability: repo..read')),
      EMBEDDED_SCHEMAS.capability,
    );
    assert.deepEqual(
      capContext.diagnostics.map((d) => d.code),
      ['eva.schema.required'],
    );
    const capName = checkCapabilityManifest(
      doc(CAPABILITY.replace('name: C', 'name: ""').replace('capability: repo.read', 'capability: repo..read')),
      EMBEDDED_SCHEMAS.capability,
    );
    assert.deepEqual(
      capName.diagnostics.map((d) => d.code),
      ['eva.field.empty'],
    );
  });

  it('adds no information about transport when it is absent', () => {
    const r = checkAdapterManifest(
      doc(edit(OTHER_ADAPTER, 'name: Other\n', '').replace('transport: stdio\n', '')),
      EMBEDDED_SCHEMAS.adapter,
    );
    assert.deepEqual(found(r), ['eva.schema.required E 1']);
  });

  it('offers the boolean fix only for a boolean field, trimming the word; no fix property otherwise', () => {
    assert.equal(adapter(edit(A0, 'enabled: true', 'enabled: " yes "')).diagnostics[0]?.fix?.edits[0]?.newText, 'true');
    const caps = checkAdapterManifest(doc(OTHER_ADAPTER.replace('[repo.read]', '"yes"')), EMBEDDED_SCHEMAS.adapter);
    assert.equal(caps.diagnostics[0]?.message, 'schema type mismatch: expected array, got string');
    assert.equal('fix' in (caps.diagnostics[0] ?? {}), false);
  });

  it('points each skill-contract error at its own field in a block manifest', () => {
    assert.deepEqual(at(adapter(edit(A0_BLOCK, 'read_workspace: true', 'read_workspace: 1')), 'eva.schema.type'), [
      [16, 2, 16],
    ]);
    assert.deepEqual(at(adapter(edit(A0_BLOCK, 'env: []', 'env: x')), 'eva.provider.invalid'), [[17, 2, 5]]);
    assert.deepEqual(at(adapter(edit(A0_BLOCK, 'runtime_gate: normal', 'runtime_gate: 7')), 'eva.skill.gate-invalid'), [
      [10, 2, 14],
    ]);
    assert.deepEqual(
      at(adapter(edit(A0_BLOCK, 'input_schema: {type: object}', 'input_schema: [x]')), 'eva.schema.type'),
      [[11, 2, 14]],
    );
    assert.deepEqual(
      at(
        adapter(edit(A0_BLOCK, 'input_schema: {type: object}', 'input_schema: {type: array}')),
        'eva.skill.schema-type',
      ),
      [[11, 17, 21]],
    );
    assert.deepEqual(at(adapter(edit(A0_BLOCK, '  kind: workflow_skill\n', '')), 'eva.skill.kind-missing'), [
      [6, 0, 5],
    ]);
    assert.deepEqual(adapter(A0_BLOCK.replace('  input_schema: {type: object}\n', '')).contract?.schemaField, [
      'skill',
    ]);
  });

  it('reads a malformed permission as not granted and a non-string source as none; a malformed env fails the loader', () => {
    const r = adapter(
      edit(
        A0_BLOCK,
        'read_workspace: true',
        'read_workspace: "yes"\n  network: 1\n  shell: "true"\n  write_workspace: 1',
      ),
    );
    assert.deepEqual(
      [
        r.contract?.permissions.readWorkspace,
        r.contract?.permissions.network,
        r.contract?.permissions.shell,
        r.contract?.permissions.writeWorkspace,
      ],
      [false, false, false, false],
    );
    const env = adapter(edit(A0_BLOCK, 'env: []', 'env: [A, 1]'));
    assert.deepEqual([env.contract, env.shippedError], [null, true]);
    assert.equal(adapter(edit(A0_BLOCK, 'source: codex', 'source: 5')).contract?.skillSource, null);
    assert.equal(adapter(edit(A0_BLOCK, '  source: codex\n', '')).contract?.skillSource, null);
  });

  it('words the compatibility notes as the catalogue does', () => {
    assert.equal(
      adapter(edit(A0, 'runtime_gate: normal', 'runtime_gate: {allowed_modes: [normal]}')).diagnostics[0]?.message,
      'current Eva-CLI invokes skill adapters only with a string runtime gate equal to normal',
    );
    assert.equal(
      adapter(A0 + 'allow_unknown_capability: true\n').diagnostics[0]?.message,
      'allow_unknown_capability is not honoured without a policy that allows it',
    );
    assert.equal(
      lua(L0).diagnostics[0]?.message,
      'current Eva-CLI does not know capability kind lua_skill (unsupported capability kind); this manifest follows the skill design',
    );
  });

  it('reads a lua_skill without a permissions mapping as asking for nothing', () => {
    assert.deepEqual(
      { ...lua(edit(L0, /permissions: .*\n/, 'permissions: 3\n')).contract?.permissions },
      {
        readWorkspace: false,
        writeWorkspace: false,
        network: false,
        shell: false,
        env: [],
        fsRead: [],
        fsWrite: [],
        adapterCapabilities: [],
        adapterProviders: [],
      },
    );
    const l = lua(edit(L0, /permissions: .*\n/, 'permissions: {fs: {write: x}, env: 1}\n'));
    assert.deepEqual([l.contract?.permissions.fsWrite, l.contract?.permissions.env], [[], []]);
    assert.deepEqual(
      { ...lua(edit(L0, /limits: .*\n/, 'limits: {timeout_ms: 5, mode: x}\n')).contract?.limits },
      { timeout_ms: 5 },
    );
  });

  it('points lua_skill errors at their fields in a block manifest', () => {
    const L0_BLOCK = [
      'id: lint-skill', //                       1
      'kind: lua_skill', //                      2
      'version: 1.0.0', //                       3
      'capabilities:', //                        4
      '  - workflow.lint', //                    5
      'capability: workflow.x', //               6
      'lua:', //                                 7
      '  script: config/skills/lint.lua', //     8
      'runtime_gate: normal', //                 9
      'input_schema: schemas/lint.input.json', //10
      'output_schema: schemas/lint.output.json', //11
      'permissions:', //                         12
      '  fs:', //                                13
      '    read: []', //                         14
      '    write: []', //                        15
      '  adapters:', //                          16
      '    capabilities: []', //                 17
      '    providers: []', //                    18
      '  env: []', //                            19
      '',
    ].join('\n');
    const typeAt = (from: string, to: string) => at(lua(edit(L0_BLOCK, from, to)), 'eva.schema.type');
    assert.deepEqual(typeAt('read: []', 'read: x'), [[14, 4, 8]]);
    assert.deepEqual(typeAt('write: []', 'write: x'), [[15, 4, 9]]);
    assert.deepEqual(typeAt('capabilities: []', 'capabilities: x'), [[17, 4, 16]]);
    assert.deepEqual(typeAt('providers: []', 'providers: x'), [[18, 4, 13]]);
    assert.deepEqual(typeAt('env: []', 'env: x'), [[19, 2, 5]]);
    assert.deepEqual(typeAt('capabilities:\n  - workflow.lint', 'capabilities: x'), [[4, 0, 12]]);
    assert.deepEqual(typeAt('capability: workflow.x', 'capability: 1'), [[6, 0, 10]]);
    assert.deepEqual(typeAt('  - workflow.lint', '  - 1'), [[5, 4, 5]]);
    assert.deepEqual(typeAt('input_schema: schemas/lint.input.json', 'input_schema: 1'), [[10, 0, 12]]);
    assert.deepEqual(typeAt('input_schema: schemas/lint.input.json', 'input_schema: "a\\0"'), [[10, 0, 12]]);
    assert.deepEqual(typeAt('script: config/skills/lint.lua', 'script: 1'), [[8, 2, 8]]);
    assert.deepEqual(typeAt('id: lint-skill', 'id: 1'), [[1, 0, 2]]);
    assert.deepEqual(typeAt('version: 1.0.0', 'version: 1'), [[3, 0, 7]]);
    assert.deepEqual(at(lua(edit(L0_BLOCK, '  script: config/skills/lint.lua', '  entry: x')), 'eva.schema.required'), [
      [7, 0, 3],
    ]);
    assert.deepEqual(at(lua(edit(L0_BLOCK, 'version: 1.0.0\n', '')), 'eva.schema.required'), [[1, 0, 14]]);
    assert.deepEqual(
      at(lua(edit(L0_BLOCK, 'capability: workflow.x', 'capability: a..b')), 'eva.capability.name-invalid'),
      [[6, 0, 10]],
    );
    assert.deepEqual(at(lua(edit(L0_BLOCK, 'runtime_gate: normal\n', '')), 'eva.skill.gate-missing'), [[1, 0, 14]]);
    assert.deepEqual(lua(L0_BLOCK).contract?.capabilitiesField, ['capabilities']);
  });
});
