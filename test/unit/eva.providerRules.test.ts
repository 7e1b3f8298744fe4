import * as assert from 'node:assert/strict';
import { A0, EvaFixture } from './helpers/evaFixture';
import { checkAdapterManifest } from '../../src/core/systems/eva/adapterContract';
import { checkSkillAdapter } from '../../src/core/systems/eva/skillAdapterContract';
import type { ContractResult } from '../../src/core/systems/eva/contracts';
import { EMBEDDED_SCHEMAS } from '../../src/core/systems/eva/schemas';
import { parseEvaYaml, type YamlDocument } from '../../src/core/systems/eva/yamlDocument';

/**
 * The adapter loader's provider rules (eva.md §2.2; upstream `manifest/adapter.rs`):
 * `permissions.env` names, `supervision.restart`, `supervision.run_as` and
 * `credentials.vault`. Each is a shipped-loader refusal (`schema_invalid`, and Eva-CLI stops
 * loading the project), reported once with upstream's message at the field it names.
 */

function doc(text: string): YamlDocument {
  const r = parseEvaYaml('/p/config/adapters/x.yaml', text);
  if (!r.ok) throw new Error(r.message);
  return r.document;
}

/** A0 with its `permissions` line replaced and `extra` appended. */
function manifest(permissions: string, extra = ''): string {
  const out = A0.replace(/^permissions: .*$/m, `permissions: ${permissions}`);
  assert.notEqual(out, A0);
  return out + extra;
}

/** The same, process-backed (a runner command), so supervision may apply. */
function processBacked(permissions: string, extra = ''): string {
  return manifest(permissions, 'command: ./run.sh\n' + extra);
}

const skill = (text: string, schema: unknown = EMBEDDED_SCHEMAS.adapter) => checkSkillAdapter(doc(text), schema);

/** `code line message` of the one error, lines 1-based. */
function refusal(r: ContractResult): string {
  assert.equal(r.invalid, true, 'refused');
  assert.equal(r.shippedError, true, 'the shipped loader refuses it');
  assert.equal(r.diagnostics.length, 1, r.diagnostics.map((d) => d.message).join(' | '));
  const d = r.diagnostics[0];
  assert.ok(d);
  return `${d.code} ${d.range.start.line + 1} ${d.message}`;
}

function accepted(r: ContractResult): void {
  assert.deepEqual(
    r.diagnostics.map((d) => d.message),
    [],
  );
  assert.equal(r.invalid, false);
}

/** The line (1-based) of the first line of `text` that starts with `prefix` (after indentation). */
function lineOf(text: string, prefix: string): number {
  const i = text.split('\n').findIndex((l) => l.trimStart().startsWith(prefix));
  assert.ok(i >= 0, prefix);
  return i + 1;
}

const RESERVED = 'credential env target is invalid or reserved by the provider supervisor';
const PERMS_LINE = lineOf(A0, 'permissions:');

/** A schema without the provider objects: what reaches the typed loader when a project's schema does not close them. */
const OPEN_SCHEMA = (() => {
  const s = JSON.parse(JSON.stringify(EMBEDDED_SCHEMAS.adapter)) as { properties: Record<string, unknown> };
  delete s.properties['supervision'];
  delete s.properties['credentials'];
  return s;
})();

describe('Eva provider rules: permissions.env (adapter.rs validated_credential_env)', () => {
  it('refuses names that steer loading, lookup or the supervisor, in any letter case', () => {
    for (const name of [
      'PATH',
      'pathext',
      'COMSPEC',
      'PYTHONPATH',
      'NODE_OPTIONS',
      'BASH_ENV',
      'ENV',
      'IFS',
      'LD_PRELOAD',
      'ld_library_path',
      'DYLD_INSERT_LIBRARIES',
      'EVA_PROVIDER_SESSION_ID',
      'EVA_PROVIDER_SESSION_CUSTOM',
    ])
      assert.equal(
        refusal(skill(manifest(`{env: [TOKEN, ${name}]}`))),
        `eva.provider.invalid ${PERMS_LINE} ${RESERVED}`,
        name,
      );
  });

  it('refuses names that are not portable: a leading digit, other bytes, empty, over 128 bytes', () => {
    for (const name of ['1A', 'A-B', '"A B"', '""', '"É"', 'A'.repeat(129)])
      assert.equal(
        refusal(skill(manifest(`{env: [${name}]}`))),
        `eva.provider.invalid ${PERMS_LINE} ${RESERVED}`,
        name,
      );
    accepted(skill(manifest(`{env: [_A, a1, ${'B'.repeat(128)}, PATHS, LD, ENV_X]}`, 'command: ./run.sh\n')));
  });

  it('refuses a name listed twice, at the second', () => {
    const text = manifest('\n  env:\n    - A\n    - B\n    - A\n', 'command: ./run.sh\n');
    assert.equal(refusal(skill(text)), `eva.provider.invalid ${PERMS_LINE + 4} credential env target is duplicated`);
  });

  it('refuses a list that is not one of strings, with upstream words', () => {
    assert.equal(
      refusal(skill(manifest('{env: TOKEN}'))),
      `eva.provider.invalid ${PERMS_LINE} permissions.env must be a string list`,
    );
    assert.equal(
      refusal(skill(manifest('{env: [A, 1]}'))),
      `eva.provider.invalid ${PERMS_LINE} credential env target must be a string`,
    );
  });

  it('runs after the id, name and capability rules, as upstream does', () => {
    const r = skill(manifest('{env: [PATH]}').replace('[workflow.review]', '[workflow/review]'));
    assert.deepEqual(
      r.diagnostics.map((d) => d.code),
      ['eva.capability.name-invalid'],
    );
  });

  it('applies to context adapters too, on the file', () => {
    const stdio = manifest('{env: [PATH]}').replace('transport: skill', 'transport: stdio');
    assert.equal(
      refusal(checkAdapterManifest(doc(stdio), EMBEDDED_SCHEMAS.adapter)),
      `eva.provider.invalid ${PERMS_LINE} ${RESERVED}`,
    );
  });
});

describe('Eva provider rules: supervision.restart (adapter.rs parse_provider_restart)', () => {
  it('refuses mode none with attempts or a backoff, at restart', () => {
    for (const r of ['{mode: none, max_attempts: 3}', '{mode: none, backoff_ms: 1}']) {
      const text = processBacked('{}', `supervision:\n  restart: ${r}\n`);
      assert.equal(
        refusal(skill(text)),
        `eva.provider.invalid ${lineOf(text, 'restart:')} restart mode none requires zero max_attempts and backoff_ms`,
        r,
      );
    }
    accepted(skill(processBacked('{}', 'supervision:\n  restart: {mode: none, max_attempts: 0, backoff_ms: 0}\n')));
  });

  it('refuses automatic restart without positive attempts and backoff', () => {
    for (const r of [
      '{mode: always}',
      '{mode: on_failure, max_attempts: 1}',
      '{mode: always, backoff_ms: 5, max_attempts: 0}',
    ]) {
      const text = processBacked('{}', `supervision:\n  restart: ${r}\n`);
      assert.equal(
        refusal(skill(text)),
        `eva.provider.invalid ${lineOf(text, 'restart:')} automatic restart requires positive max_attempts and backoff_ms`,
        r,
      );
    }
    accepted(
      skill(
        processBacked(
          '{}',
          'supervision:\n  restart: {mode: on_failure, max_attempts: 4294967295, backoff_ms: 18446744073709551615}\n',
        ),
      ),
    );
  });

  it('refuses max_attempts past u32, at that field, before the mode rules', () => {
    const text = processBacked('{}', 'supervision:\n  restart:\n    mode: none\n    max_attempts: 4294967296\n');
    assert.equal(
      refusal(skill(text)),
      `eva.provider.invalid ${lineOf(text, 'max_attempts:')} provider restart max_attempts exceeds u32`,
    );
  });

  it('refuses a negative count as serde does, before any loader rule', () => {
    const text = processBacked('{}', 'supervision:\n  restart:\n    mode: none\n    max_attempts: -1\n').replace(
      'name: Review Skill',
      'name: " Review Skill"',
    );
    assert.equal(
      refusal(skill(text)),
      `eva.provider.invalid ${lineOf(text, 'max_attempts:')} failed to parse YAML: supervision.restart.max_attempts: invalid type: integer \`-1\`, expected u64`,
    );
  });

  it('refuses automatic restart of a process-free skill, at mode', () => {
    const text = manifest('{}', 'supervision:\n  restart:\n    mode: always\n    max_attempts: 1\n    backoff_ms: 1\n');
    assert.equal(
      refusal(skill(text)),
      `eva.provider.invalid ${lineOf(text, 'mode:')} automatic restart requires a process-backed Adapter transport`,
    );
    // A runner command makes it process-backed, as a top-level command does.
    accepted(
      skill(text.replace('  entry: {type: codex_skill}', '  entry: {type: codex_skill}\n  runner: {command: ./r}')),
    );
  });

  it('refuses an http adapter restart, and accepts a stdio one (context adapters)', () => {
    const base = processBacked('{}', 'supervision:\n  restart: {mode: on_failure, max_attempts: 1, backoff_ms: 1}\n');
    accepted(checkAdapterManifest(doc(base.replace('transport: skill', 'transport: stdio')), EMBEDDED_SCHEMAS.adapter));
    assert.match(
      refusal(checkAdapterManifest(doc(base.replace('transport: skill', 'transport: http')), EMBEDDED_SCHEMAS.adapter)),
      /automatic restart requires a process-backed Adapter transport$/,
    );
  });

  it('when the schema leaves them open: unknown fields, a missing or unknown mode', () => {
    const cases: [string, string, string][] = [
      [
        'supervision:\n  restart: {mode: none}\n  extra: 1\n',
        'extra:',
        'provider config contains an unsupported field',
      ],
      [
        'supervision:\n  restart:\n    mode: none\n    jitter: 1\n',
        'jitter:',
        'provider config contains an unsupported field',
      ],
      ['supervision:\n  restart:\n    max_attempts: 0\n', 'restart:', 'explicit provider restart config requires mode'],
      ['supervision:\n  restart:\n    mode: sometimes\n', 'mode:', 'unsupported provider restart mode'],
      ['credentials:\n  file: x\n', 'file:', 'provider config contains an unsupported field'],
    ];
    for (const [extra, at, message] of cases) {
      const text = processBacked('{}', extra);
      assert.equal(refusal(skill(text, OPEN_SCHEMA)), `eva.provider.invalid ${lineOf(text, at)} ${message}`, extra);
    }
  });
});

describe('Eva provider rules: supervision.run_as (adapter.rs parse_provider_run_as)', () => {
  const cases: [string, string, string][] = [
    ['{kind: current, uid: 1}', 'run_as:', 'current identity cannot declare uid, gid, or account'],
    ['{kind: current, account: x}', 'run_as:', 'current identity cannot declare uid, gid, or account'],
    ['{kind: unix, uid: 1, gid: 1, account: x}', 'run_as:', 'Unix identity cannot declare a Windows account'],
    ['{kind: unix, uid: 4294967296, gid: 0}', 'run_as:', 'run_as numeric identity is required and must fit u32'],
    ['{kind: unix, uid: 1}', 'run_as:', 'run_as numeric identity is required and must fit u32'],
    ['{kind: windows, gid: 1, account: x}', 'run_as:', 'Windows identity cannot declare Unix uid or gid'],
    ['{kind: windows}', 'run_as:', 'Windows identity requires an account'],
    [
      '{kind: windows, account: " LocalService"}',
      'run_as:',
      'Windows account is empty, untrimmed, oversized, or contains controls',
    ],
    [
      '{kind: windows, account: "a\\u0085"}',
      'run_as:',
      'Windows account is empty, untrimmed, oversized, or contains controls',
    ],
    [
      '{kind: windows, account: "a\\x7fb"}',
      'run_as:',
      'Windows account is empty, untrimmed, oversized, or contains controls',
    ],
    [
      `{kind: windows, account: ${'é'.repeat(129)}}`,
      'run_as:',
      'Windows account is empty, untrimmed, oversized, or contains controls',
    ],
  ];
  for (const [runAs, at, message] of cases)
    it(`refuses run_as ${runAs.slice(0, 60)}`, () => {
      const text = processBacked('{}', `supervision:\n  run_as: ${runAs}\n`);
      assert.equal(refusal(skill(text)), `eva.provider.invalid ${lineOf(text, at)} ${message}`);
    });

  it('accepts unix and windows identities on a process-backed adapter', () => {
    accepted(skill(processBacked('{}', 'supervision:\n  run_as: {kind: unix, uid: 4294967295, gid: 0}\n')));
    accepted(skill(processBacked('{}', `supervision:\n  run_as: {kind: windows, account: ${'é'.repeat(128)}}\n`)));
    accepted(skill(manifest('{}', 'supervision:\n  run_as: {kind: current}\n')));
  });

  it('reads the transport as serde does: `transport: !t skill` with a command is process-backed', () => {
    // A project schema that leaves `transport` open: Eva parses the `String` "skill".
    const open = JSON.parse(JSON.stringify(OPEN_SCHEMA)) as { properties: Record<string, unknown> };
    open.properties['transport'] = {};
    const text = processBacked('{}', 'supervision:\n  run_as: {kind: unix, uid: 1000, gid: 1000}\n').replace(
      'transport: skill',
      'transport: !t skill',
    );
    accepted(skill(text, open));
    const processFree = text.replace('command: ./run.sh\n', '');
    assert.equal(
      refusal(skill(processFree, open)),
      `eva.provider.invalid ${lineOf(processFree, 'run_as:')} non-current identity requires a process-backed Adapter transport`,
    );
  });

  it('refuses a non-current identity on a process-free skill, at kind', () => {
    const text = manifest('{}', 'supervision:\n  run_as:\n    kind: unix\n    uid: 1\n    gid: 1\n');
    assert.equal(
      refusal(skill(text)),
      `eva.provider.invalid ${lineOf(text, 'kind: unix')} non-current identity requires a process-backed Adapter transport`,
    );
  });

  it('when the schema leaves them open: a missing or unknown kind', () => {
    let text = processBacked('{}', 'supervision:\n  run_as:\n    uid: 1\n');
    assert.equal(
      refusal(skill(text, OPEN_SCHEMA)),
      `eva.provider.invalid ${lineOf(text, 'run_as:')} explicit run_as config requires kind`,
    );
    text = processBacked('{}', 'supervision:\n  run_as:\n    kind: container\n');
    assert.equal(
      refusal(skill(text, OPEN_SCHEMA)),
      `eva.provider.invalid ${lineOf(text, 'kind: container')} unsupported provider run_as kind`,
    );
  });
});

describe('Eva provider rules: credentials.vault (adapter.rs parse_provider_vault_refs)', () => {
  const vault = (entries: string) => `credentials:\n  vault:\n${entries}`;

  it('refuses an env target that permissions.env does not list, at that env', () => {
    const text = processBacked(
      '{env: [TOKEN]}',
      vault('    - {env: TOKEN, ref: "vault://a#b"}\n    - env: OTHER\n      ref: vault://a\n'),
    );
    assert.equal(
      refusal(skill(text)),
      `eva.provider.invalid ${lineOf(text, '- env: OTHER')} vault secret env target is not allowed by permissions.env`,
    );
  });

  it('refuses an env target named twice, and a reserved one', () => {
    let text = processBacked(
      '{env: [TOKEN]}',
      vault('    - {env: TOKEN, ref: "vault://a"}\n    - {env: TOKEN, ref: "vault://b"}\n'),
    );
    assert.equal(
      refusal(skill(text)),
      `eva.provider.invalid ${lineOf(text, '- {env: TOKEN, ref: "vault://b"}')} vault secret env target is duplicated`,
    );
    text = processBacked('{env: [TOKEN]}', vault('    - {env: "1X", ref: "vault://a"}\n'));
    assert.equal(refusal(skill(text)), `eva.provider.invalid ${lineOf(text, '- {env')} ${RESERVED}`);
  });

  it('refuses refs that are not vault:// or whose path or key is invalid', () => {
    const bad: [string, string][] = [
      ['env:TOKEN', 'vault reference must start with vault://'],
      ['VAULT://a', 'vault reference must start with vault://'],
      ['vault://', 'vault reference path or key is invalid'],
      ['vault://../x', 'vault reference path or key is invalid'],
      ['vault://a/./b', 'vault reference path or key is invalid'],
      ['vault://a//b', 'vault reference path or key is invalid'],
      ['vault://a/', 'vault reference path or key is invalid'],
      ['vault://a#', 'vault reference path or key is invalid'],
      ['vault://a#b#c', 'vault reference path or key is invalid'],
      ['vault://a b', 'vault reference path or key is invalid'],
      ['vault://a#k:y', 'vault reference path or key is invalid'],
      [`vault://${'a'.repeat(385)}`, 'vault reference path or key is invalid'],
      [`vault://a#${'k'.repeat(129)}`, 'vault reference path or key is invalid'],
      [`vault://${'a/'.repeat(191)}a#${'k'.repeat(128)}`, 'vault reference path or key is invalid'],
    ];
    for (const [ref, message] of bad) {
      const text = processBacked('{env: [TOKEN]}', vault(`    - env: TOKEN\n      ref: "${ref}"\n`));
      assert.equal(refusal(skill(text)), `eva.provider.invalid ${lineOf(text, 'ref:')} ${message}`, ref);
    }
    for (const ref of [
      'vault://kv/app.prod/x-y_z#token.v1',
      `vault://${'a'.repeat(384)}`,
      `vault://${'a/'.repeat(186)}a#${'k'.repeat(128)}`,
    ])
      accepted(skill(processBacked('{env: [TOKEN]}', vault(`    - env: TOKEN\n      ref: "${ref}"\n`))));
  });

  it('when the schema leaves them open: a missing env or ref', () => {
    let text = processBacked('{env: [TOKEN]}', vault('    - ref: vault://a\n'));
    assert.equal(
      refusal(skill(text, OPEN_SCHEMA)),
      `eva.provider.invalid ${lineOf(text, '- ref:')} vault secret reference requires an env target`,
    );
    text = processBacked('{env: [TOKEN]}', vault('    - env: TOKEN\n'));
    assert.equal(
      refusal(skill(text, OPEN_SCHEMA)),
      `eva.provider.invalid ${lineOf(text, '- env:')} vault secret reference requires ref`,
    );
  });
});

describe('Eva provider rules: the adapters Skillgate accepted and Eva-CLI refuses (/tmp/eva-oracle probe)', () => {
  const base = `${A0.replace(/^permissions: .*\n/m, '').replace(
    '  entry: {type: codex_skill}\n',
    '  entry: {type: codex_skill}\n  runner: {command: ./run.sh}\n',
  )}`;
  const cases: [string, string][] = [
    ['permissions: {env: [LD_PRELOAD]}', RESERVED],
    ['permissions: {env: [PATH]}', RESERVED],
    ['permissions: {env: [A, A]}', 'credential env target is duplicated'],
    ['permissions: {env: [1A]}', RESERVED],
    [
      'permissions: {}\nsupervision: {restart: {mode: none, max_attempts: 3}}',
      'restart mode none requires zero max_attempts and backoff_ms',
    ],
    [
      'permissions: {}\nsupervision: {restart: {mode: always}}',
      'automatic restart requires positive max_attempts and backoff_ms',
    ],
    [
      'permissions: {}\nsupervision: {restart: {mode: always, max_attempts: 5000000000, backoff_ms: 1}}',
      'provider restart max_attempts exceeds u32',
    ],
    [
      'permissions: {}\nsupervision: {restart: {mode: none, max_attempts: -1}}',
      'failed to parse YAML: supervision.restart.max_attempts: invalid type: integer `-1`, expected u64',
    ],
    [
      'permissions: {}\nsupervision: {run_as: {kind: unix, uid: 4294967296, gid: 0}}',
      'run_as numeric identity is required and must fit u32',
    ],
    [
      'permissions: {}\nsupervision: {run_as: {kind: current, uid: 1}}',
      'current identity cannot declare uid, gid, or account',
    ],
    [
      'permissions: {env: [TOKEN]}\ncredentials: {vault: [{env: OTHER, ref: "vault://a#b"}]}',
      'vault secret env target is not allowed by permissions.env',
    ],
    [
      'permissions: {env: [TOKEN]}\ncredentials: {vault: [{env: TOKEN, ref: "vault://../x"}]}',
      'vault reference path or key is invalid',
    ],
  ];
  it('refuses each of the 12 with upstream message', () => {
    accepted(skill(`${base}permissions: {env: [TOKEN]}\ncredentials: {vault: [{env: TOKEN, ref: "vault://a#b"}]}\n`));
    const got = cases.map(([extra]) => {
      const r = skill(`${base}${extra}\n`);
      return [r.invalid, r.shippedError, r.diagnostics.map((d) => `${d.code} ${d.message}`)];
    });
    assert.deepEqual(
      got,
      cases.map(([, message]) => [true, true, [`eva.provider.invalid ${message}`]]),
    );
  });
});

describe('Eva provider rules in the index: the decision and the project failure (eva.md §4.2 C2, §4.5)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  it('rejects a skill adapter the loader refuses, with the error on its field and the load aborted there', () => {
    f.adapter(manifest('{env: [LD_PRELOAD]}'));
    const r = f.index();
    const item = r.item('adapters/review.yaml');
    assert.deepEqual(
      [item.decision, item.reasons, item.detail.eva.evaReasons],
      ['rejected', ['schema_invalid', 'not_reviewed'], ['schema_invalid']],
    );
    assert.deepEqual(
      r.diagnostics('eva.provider.invalid').map((d) => [d.message, d.itemId, d.range.start.line + 1]),
      [[RESERVED, item.id, PERMS_LINE]],
    );
    assert.deepEqual(
      r.diagnostics('eva.project.load-aborted').map((d) => [r.rel(d.file), d.itemId]),
      [['config/adapters/review.yaml', item.id]],
    );
  });

  it('shows a context adapter the loader refuses on its file, without an item, and aborts the load there', () => {
    f.adapter(A0);
    f.adapter(
      'id: ctx\nname: Ctx\nversion: 1.0.0\nenabled: true\ntransport: http\ncapabilities: [repo.read]\npermissions: {}\nlimits: {}\nrouting: {}\nsupervision:\n  run_as: {kind: unix, uid: 1, gid: 1}\n',
      'ctx.yaml',
    );
    const r = f.index();
    assert.deepEqual(
      r.diagnostics('eva.provider.invalid').map((d) => [r.rel(d.file), d.message, d.itemId, d.range.start.line + 1]),
      [['config/adapters/ctx.yaml', 'non-current identity requires a process-backed Adapter transport', null, 11]],
    );
    assert.deepEqual(
      r.diagnostics('eva.project.load-aborted').map((d) => r.rel(d.file)),
      ['config/adapters/ctx.yaml'],
    );
    assert.deepEqual(r.item('adapters/review.yaml').detail.eva.evaReasons, ['registered']);
  });
});
