import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { DEFAULT_POLICY, readPolicy, type PolicyReading } from '../../src/core/systems/eva/policy';
import { EMBEDDED_SCHEMAS } from '../../src/core/systems/eva/schemas';
import { parseEvaYaml } from '../../src/core/systems/eva/yamlDocument';

/**
 * The skill policy knobs of `adapter_policy` (eva.md §3.3): defaults when the domain or a
 * key is absent, a later document replacing an earlier one wholesale, and a malformed
 * policy failing closed with an error at the field.
 */

function read(...texts: string[]): PolicyReading {
  return readPolicy(
    texts.map((text, i) => {
      const file = `/p/config/policies/${i}.yaml`;
      const r = parseEvaYaml(file, text);
      if (!r.ok) throw new Error(r.message);
      return { file, document: r.document };
    }),
    EMBEDDED_SCHEMAS.policy,
  );
}

/** `message @line` of each diagnostic (1-based lines). */
function problems(r: PolicyReading): string[] {
  return r.diagnostics.map((d) => `${d.code} ${d.message} @${d.range.start.line + 1}`);
}

describe('Eva adapter_policy (eva.md §3.3)', () => {
  it('without an adapter_policy domain the built-in defaults apply: deny-all, {normal}, schemas required', () => {
    const r = read('lua_sandbox: {x: 1}\n');
    assert.equal(r.policy, DEFAULT_POLICY);
    assert.deepEqual(DEFAULT_POLICY, {
      failClosed: false,
      defaults: { readWorkspace: false, writeWorkspace: false, network: false, shell: false, maxTimeoutMs: null },
      allowWriteWorkspace: [],
      denyCapabilities: [],
      requireSchema: true,
      allowUserLocalSkills: false,
      allowedRuntimeGates: ['normal'],
      denyKinds: [],
      source: null,
    });
    assert.deepEqual([r.diagnostics, r.failing], [[], []]);
    assert.equal(read().policy, DEFAULT_POLICY);
  });

  it('reads every knob of a full adapter_policy, and records the file it came from', () => {
    const r = read(
      [
        'adapter_policy:',
        '  defaults: {read_workspace: true, write_workspace: true, network: true, shell: true, max_timeout_ms: 120000}',
        '  allow_write_workspace: [codex-cli]',
        '  deny_capabilities: [shell.execute]',
        '  skill: {require_schema: false, allow_user_local_skills: true, allowed_runtime_gates: [normal, team], deny_kinds: [runtime_worker]}',
        '',
      ].join('\n'),
    );
    assert.deepEqual(r.policy, {
      failClosed: false,
      defaults: { readWorkspace: true, writeWorkspace: true, network: true, shell: true, maxTimeoutMs: 120000 },
      allowWriteWorkspace: ['codex-cli'],
      denyCapabilities: ['shell.execute'],
      requireSchema: false,
      allowUserLocalSkills: true,
      allowedRuntimeGates: ['normal', 'team'],
      denyKinds: ['runtime_worker'],
      source: path.resolve('/p/config/policies/0.yaml'),
    });
    assert.deepEqual([r.diagnostics, r.failing], [[], []]);
  });

  it('an empty adapter_policy keeps the defaults; a skill section without allowed_runtime_gates allows no gate', () => {
    const empty = read('adapter_policy: {}\n').policy;
    assert.deepEqual(
      [empty.allowedRuntimeGates, empty.denyKinds, empty.requireSchema, empty.failClosed, empty.defaults.maxTimeoutMs],
      [['normal'], [], true, false, null],
    );
    const skill = read('adapter_policy: {skill: {require_schema: true}}\n').policy;
    assert.deepEqual([skill.allowedRuntimeGates, skill.denyKinds, skill.allowUserLocalSkills], [[], [], false]);
  });

  it('a later document replaces an earlier adapter_policy wholesale; one without the domain changes nothing', () => {
    const r = read(
      'adapter_policy: {defaults: {network: true}, deny_capabilities: [a.b]}\n',
      'adapter_policy: {defaults: {shell: true}}\n',
      'other: {x: 1}\n',
    );
    assert.deepEqual(
      [r.policy.defaults.network, r.policy.defaults.shell, r.policy.denyCapabilities],
      [false, true, []],
    );
    assert.equal(r.policy.source, path.resolve('/p/config/policies/1.yaml'));
  });

  it('refuses an empty document and a document of no properties, and skips it (fail closed via failing)', () => {
    for (const text of ['{}\n', '']) {
      const r = read(text, 'adapter_policy: {defaults: {network: true}}\n');
      assert.deepEqual(r.failing, ['/p/config/policies/0.yaml']);
      assert.equal(r.diagnostics[0]?.code, 'eva.policy.invalid');
      assert.equal(r.policy.defaults.network, true, 'the valid document still counts');
    }
    assert.match(
      problems(read('{}\n'))[0] as string,
      /^eva\.policy\.invalid object must contain at least 1 propertie\(s\) \(\$\) @1$/,
    );
    assert.deepEqual(problems(read('')), ['eva.policy.invalid schema type mismatch: expected object, got null ($) @1']);
  });

  it('refuses a padded or empty domain key', () => {
    for (const text of ['" adapter_policy": {}\n', '"": {}\n']) {
      const r = read(text);
      assert.deepEqual(problems(r), ['eva.policy.invalid policy domain keys must be non-empty strings @1']);
      assert.deepEqual(r.failing, ['/p/config/policies/0.yaml']);
    }
  });

  it('fails closed on an adapter_policy that is not a mapping', () => {
    const r = read('x: 1\nadapter_policy: [a]\n');
    assert.equal(r.policy.failClosed, true);
    assert.deepEqual(problems(r), ['eva.policy.invalid policy domain field must be a mapping @2']);
    assert.deepEqual(r.failing, ['/p/config/policies/0.yaml']);
  });

  it('fails closed on each malformed knob, with the message at its field', () => {
    const cases: [string, string, number][] = [
      ['defaults: 3', 'policy domain field must be a mapping', 2],
      ['skill: [x]', 'policy domain field must be a mapping', 2],
      ['defaults: {network: "yes"}', 'policy field must be a boolean', 2],
      ['defaults: {read_workspace: 1}', 'policy field must be a boolean', 2],
      ['defaults: {write_workspace: 1}', 'policy field must be a boolean', 2],
      ['defaults: {shell: 1}', 'policy field must be a boolean', 2],
      ['defaults: {max_timeout_ms: 1.5}', 'policy field must be an unsigned integer', 2],
      ['defaults: {max_timeout_ms: "10"}', 'policy field must be an unsigned integer', 2],
      ['skill: {require_schema: "yes"}', 'policy field must be a boolean', 2],
      ['skill: {allow_user_local_skills: 1}', 'policy field must be a boolean', 2],
      ['allow_write_workspace: codex-cli', 'policy field must be a list of strings', 2],
      [
        'allow_write_workspace: ["a b"]',
        "identifier may only contain ASCII letters, digits, '.', '_', '-', and ':'",
        2,
      ],
      ['deny_capabilities: [shell..execute]', 'capability name cannot contain empty segments', 2],
      ['deny_capabilities: [3]', 'policy field must be a list of strings (got number)', 2],
      ['skill: {allowed_runtime_gates: normal}', 'policy field must be a list of strings', 2],
      ['skill: {deny_kinds: [1]}', 'policy field must be a list of strings (got number)', 2],
    ];
    for (const [knob, message, line] of cases) {
      const r = read(`x: 1\nadapter_policy: {${knob}}\n`);
      assert.equal(r.policy.failClosed, true, knob);
      assert.deepEqual(problems(r), [`eva.policy.invalid ${message} @${line}`], knob);
      assert.deepEqual(r.failing, ['/p/config/policies/0.yaml'], knob);
    }
  });

  it('keeps the valid entries of a list and the values read, while failing closed', () => {
    const r = read('adapter_policy: {allow_write_workspace: [ok, "not ok"], defaults: {network: true}}\n');
    assert.deepEqual(
      [r.policy.failClosed, r.policy.allowWriteWorkspace, r.policy.defaults.network],
      [true, ['ok'], true],
    );
    const multi = read('adapter_policy:\n  defaults: {network: 1}\n  skill: {require_schema: 2}\n');
    assert.deepEqual(problems(multi), [
      'eva.policy.invalid policy field must be a boolean @2',
      'eva.policy.invalid policy field must be a boolean @3',
    ]);
    assert.deepEqual(multi.failing, ['/p/config/policies/0.yaml'], 'the file is listed once');
  });

  it('reports the first bad entry of a list, not each one (a list of aliases is one diagnostic)', () => {
    const r = read(`adapter_policy:\n  deny_capabilities: [a.b, &x [1], ${Array(300).fill('*x').join(', ')}, c..d]\n`);
    assert.deepEqual(problems(r), ['eva.policy.invalid policy field must be a list of strings (got array) @2']);
    assert.deepEqual([r.policy.failClosed, r.policy.denyCapabilities], [true, ['a.b']]);
  });

  it('a valid later policy after a malformed one: the malformed domain is the one read when it is last', () => {
    const r = read('adapter_policy: {defaults: {network: true}}\n', 'adapter_policy: {defaults: {network: 1}}\n');
    assert.equal(r.policy.failClosed, true);
    assert.deepEqual(r.failing, ['/p/config/policies/1.yaml']);
  });
});

describe('Eva adapter_policy: where each problem is and what a malformed knob reads as', () => {
  const BLOCK = [
    'adapter_policy:', //                    1
    '  defaults:', //                        2
    '    read_workspace: 1', //              3
    '    write_workspace: 1', //             4
    '    network: 1', //                     5
    '    shell: 1', //                       6
    '    max_timeout_ms: x', //              7
    '  allow_write_workspace:', //           8
    '    - ok', //                           9
    '    - "not ok"', //                     10
    '  deny_capabilities: [a..b]', //        11
    '  skill:', //                           12
    '    require_schema: 1', //              13
    '    allow_user_local_skills: 1', //     14
    '    allowed_runtime_gates: normal', //  15
    '    deny_kinds: [1]', //                16
    '',
  ].join('\n');

  it('reports every malformed knob at its own line, list entries at the entry', () => {
    assert.deepEqual(
      read(BLOCK)
        .diagnostics.map((d) => [d.range.start.line + 1, d.range.start.character, d.message])
        .sort((a, b) => (a[0] as number) - (b[0] as number)),
      [
        [3, 4, 'policy field must be a boolean'],
        [4, 4, 'policy field must be a boolean'],
        [5, 4, 'policy field must be a boolean'],
        [6, 4, 'policy field must be a boolean'],
        [7, 4, 'policy field must be an unsigned integer'],
        [10, 6, "identifier may only contain ASCII letters, digits, '.', '_', '-', and ':'"],
        [11, 22, 'capability name cannot contain empty segments'],
        [13, 4, 'policy field must be a boolean'],
        [14, 4, 'policy field must be a boolean'],
        [15, 4, 'policy field must be a list of strings'],
        [16, 17, 'policy field must be a list of strings (got number)'],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
  });

  it('reads a malformed boolean as its default (deny), a malformed list as empty', () => {
    const p = read(BLOCK).policy;
    assert.deepEqual(p.defaults, {
      readWorkspace: false,
      writeWorkspace: false,
      network: false,
      shell: false,
      maxTimeoutMs: null,
    });
    assert.deepEqual(
      [p.requireSchema, p.allowUserLocalSkills, p.allowedRuntimeGates, p.denyKinds, p.allowWriteWorkspace],
      [true, false, [], [], ['ok']],
    );
    assert.deepEqual(
      read('adapter_policy: {allow_write_workspace: x, deny_capabilities: 3}\n').policy.denyCapabilities,
      [],
    );
    assert.deepEqual(read('adapter_policy: {allow_write_workspace: x}\n').policy.allowWriteWorkspace, []);
  });

  it('reads absent keys of present sections as their defaults', () => {
    const p = read('adapter_policy: {defaults: {}, skill: {}}\n').policy;
    assert.deepEqual(p.defaults, {
      readWorkspace: false,
      writeWorkspace: false,
      network: false,
      shell: false,
      maxTimeoutMs: null,
    });
    assert.deepEqual(
      [p.requireSchema, p.allowUserLocalSkills, p.allowedRuntimeGates, p.failClosed],
      [true, false, [], false],
    );
  });

  it("checks domain keys even under a project's own schema without minProperties", () => {
    const permissive = (text: string) => {
      const r = parseEvaYaml('/p/x.yaml', text);
      if (!r.ok) throw new Error(r.message);
      return readPolicy([{ file: '/p/x.yaml', document: r.document }], {}).diagnostics.map((d) => d.message);
    };
    assert.deepEqual(permissive('{}\n'), ['policy document cannot be empty']);
    // policy.rs: `Value::Mapping` matched itself (not through a tag), then each key as `Value::String`.
    assert.deepEqual(permissive('- a\n'), ['policy document must be a mapping']);
    assert.deepEqual(permissive('--- !t\nadapter_policy: {}\n'), ['policy document must be a mapping']);
    assert.deepEqual(permissive('1: a\n'), ['policy domain keys must be non-empty strings']);
    assert.deepEqual(permissive('!t adapter_policy: {}\n'), ['policy domain keys must be non-empty strings']);
    assert.deepEqual(permissive('a: 1\n'), []);
  });
});

describe('Eva adapter_policy values as eva-policy reads them (domains.rs on serde_yaml 0.9 Value)', () => {
  const knobs = (r: PolicyReading) => [
    r.policy.failClosed,
    r.policy.defaults.network,
    r.policy.defaults.maxTimeoutMs,
    r.policy.denyCapabilities,
    r.policy.allowedRuntimeGates,
    r.policy.denyKinds,
    problems(r),
  ];

  it('reads a value through its tag (as_mapping, as_bool, as_u64, as_sequence, as_str look through it)', () => {
    const r = read(
      [
        'adapter_policy: !t',
        '  defaults: !t {network: !t true, max_timeout_ms: !t 5}',
        '  deny_capabilities: !t [!t a.b]',
        '  skill: !t {allowed_runtime_gates: !t [!t team], deny_kinds: [!t lua_skill]}',
        '',
      ].join('\n'),
    );
    assert.deepEqual(knobs(r), [false, true, 5, ['a.b'], ['team'], ['lua_skill'], []]);
  });

  it('finds a knob by its string key only: a tagged key is another key (get(Value::String))', () => {
    const r = read('adapter_policy: {defaults: {!t network: true}, !t skill: {}, !t deny_capabilities: [a.b]}\n');
    assert.deepEqual(knobs(r), [false, false, null, [], ['normal'], [], []]);
    const both = read('adapter_policy: {defaults: {network: true, !t network: false}}\n');
    assert.deepEqual(knobs(both), [false, true, null, [], ['normal'], [], []]);
  });

  it('max_timeout_ms is an unsigned integer as serde_yaml types it: 0x10 is 16; -5, 1_000, "5" and 5.0 are refused', () => {
    assert.equal(read('adapter_policy: {defaults: {max_timeout_ms: 0x10}}\n').policy.defaults.maxTimeoutMs, 16);
    for (const v of ['-5', '1_000', '"5"', '5.0', '~']) {
      const r = read(`adapter_policy: {defaults: {max_timeout_ms: ${v}}}\n`);
      assert.deepEqual(
        [r.policy.failClosed, r.policy.defaults.maxTimeoutMs, problems(r)],
        [true, null, ['eva.policy.invalid policy field must be an unsigned integer @1']],
        v,
      );
    }
  });

  it('a malformed adapter_policy fails the gate even when a later document replaces it (from_documents stops at it)', () => {
    const r = read('adapter_policy: {defaults: {network: 1}}\n', 'adapter_policy: {defaults: {shell: true}}\n');
    assert.equal(r.policy.failClosed, true);
    assert.deepEqual(problems(r), ['eva.policy.invalid policy field must be a boolean @1']);
    assert.deepEqual(r.failing, ['/p/config/policies/0.yaml']);
  });

  it('reads adapter_policy.retry, whose malformed values fail the gate as any other knob', () => {
    const cases: [string, string][] = [
      ['retry: 5', 'policy domain field must be a mapping'],
      ['retry: {default: [1]}', 'policy domain field must be a mapping'],
      ['retry: {default: {max_attempts: -1}}', 'policy field must be an unsigned integer'],
      ['retry: {default: {max_attempts: 4294967296}}', 'retry max_attempts is too large'],
      ['retry: {capabilities: [a.b]}', 'policy domain field must be a mapping'],
      ['retry: {capabilities: {a.b: 3}}', 'policy domain field must be a mapping'],
      ['retry: {capabilities: {a.b: {max_attempts: 4294967296}}}', 'retry max_attempts is too large'],
      ['retry: {capabilities: {a.b: {backoff_ms: 1s}}}', 'policy field must be an unsigned integer'],
      ['retry: {capabilities: {" a.b": {}}}', 'policy mapping key must be non-empty and trimmed'],
      ['retry: {capabilities: {a..b: {}}}', 'capability name cannot contain empty segments'],
      ['retry: {capabilities: {1: {}}}', 'policy field must be a string'],
    ];
    for (const [knob, message] of cases) {
      const r = read(`adapter_policy: {${knob}}\n`);
      assert.deepEqual([r.policy.failClosed, problems(r)], [true, [`eva.policy.invalid ${message} @1`]], knob);
    }
    const ok = read(
      [
        'adapter_policy:',
        '  retry: !t',
        '    default: !t {max_attempts: !t 4294967295}',
        '    capabilities: {!t repo.analyze: {backoff_ms: 1000}, chat.reply: !t {max_attempts: 0x2}}',
        '',
      ].join('\n'),
    );
    assert.deepEqual([ok.policy.failClosed, problems(ok)], [false, []]);
  });
});
