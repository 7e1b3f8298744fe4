import * as assert from 'node:assert/strict';
import { A0, EvaFixture, L0, SKILL_BINDING } from './helpers/evaFixture';
import { checkCapabilityManifest } from '../../src/core/systems/eva/capabilityContract';
import { checkSkillAdapter } from '../../src/core/systems/eva/skillAdapterContract';
import { EMBEDDED_SCHEMAS } from '../../src/core/systems/eva/schemas';
import { parseEvaYaml } from '../../src/core/systems/eva/yamlDocument';

/**
 * What serde derive makes of an Eva manifest once the schema passed it (eva.md §2.1: the
 * typed loader reads the file again with `serde_yaml::from_str` into upstream's raw structs,
 * `manifest/adapter.rs` and `manifest/capability.rs`). Where the schema says nothing, serde
 * decides: every entry a raw struct has no field for is buffered as serde's `Content`, which
 * refuses a value under a local tag (`!x`); `default_provider`/`provider` are `Option<String>`
 * (`5` is "5", `~` is none, a sequence is refused); `permissions.adapters` is a struct of two
 * `Vec<String>` whose items the loader parses as adapter ids and capability names.
 */
describe('Eva manifests as serde derive reads them past the schema (eva.md §2.1)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  const refusal = (r: ReturnType<EvaFixture['index']>, rel: string): string[] =>
    r
      .diagnostics()
      .filter((d) => d.severity === 'error' && r.rel(d.file) === `config/${rel}`)
      .map((d) => `${d.code} ${d.message}`);

  // Eva's schema stage reads through a tag (serde_yaml 0.9's `as_*`), and serde derive ignores the
  // tag on a String, a Vec and a struct it reads directly: Eva registers these skills (a hidden skill before).
  it('registers a skill adapter whose id, capabilities or whole root carry a local tag, as Eva does', () => {
    for (const text of [
      A0.replace('id: review-skill', 'id: !t review-skill'),
      A0.replace('id: review-skill', '!!js/x id: review-skill'),
      A0.replace('capabilities: [workflow.review]', 'capabilities: !t [workflow.review]'),
      `--- !t\n${A0}`,
    ]) {
      f.adapter(text);
      const r = f.index();
      const item = r.item('adapters/review.yaml');
      assert.deepEqual(
        [item.decision, item.reasons, item.name, item.detail.eva.capabilities, refusal(r, 'adapters/review.yaml')],
        ['registered', ['loaded_unreviewed', 'not_reviewed'], 'review-skill', ['workflow.review'], []],
        text.slice(0, 40),
      );
    }
    // The skill block is buffered content to serde (an untagged enum): a tag there is refused, as upstream does.
    f.adapter(A0.replace('skill:\n', 'skill: !t\n'));
    const r = f.index();
    assert.equal(r.item('adapters/review.yaml').decision, 'rejected');
    assert.deepEqual(refusal(r, 'adapters/review.yaml'), [
      'eva.yaml.parse failed to parse YAML: skill: untagged and internally tagged enums do not support enum input',
    ]);
  });

  // serde_yaml 0.9's `parse_tag` makes an enum only of a tag that starts with `!` once libyaml resolved
  // it: under `!!js/x` (`tag:yaml.org,2002:js/x`) a scalar is the String of its text and a sequence or
  // mapping is plain, so the schema's enum and pattern pass and Eva registers the skill (hidden before:
  // `transport: !!js/x skill` was an enum error that aborted the project's load).
  it('registers a skill adapter whose values carry a tag that is not local, as Eva does', () => {
    for (const [text, name] of [
      [A0.replace('transport: skill', 'transport: !!js/x skill'), 'review-skill'],
      [A0.replace('transport: skill', 'transport: !<tag:x,2000:t> skill'), 'review-skill'],
      [A0.replace('id: review-skill', 'id: !!js/x review-skill'), 'review-skill'],
      [A0.replace('id: review-skill', 'id: !!js/x 5'), '5'],
      [A0.replace('capabilities: [workflow.review]', 'capabilities: !!js/x [workflow.review]'), 'review-skill'],
      [A0.replace('skill:\n', 'skill: !!js/x\n'), 'review-skill'],
      [A0.replace('routing: {priority: 10}', 'routing: {priority: 10, note: !!js/x [a]}'), 'review-skill'],
      [`--- !!js/x\n${A0}`, 'review-skill'],
    ] as const) {
      f.adapter(text);
      const r = f.index();
      const item = r.item('adapters/review.yaml');
      assert.deepEqual(
        [item.decision, item.reasons, item.name, item.detail.eva.capabilities, refusal(r, 'adapters/review.yaml')],
        ['registered', ['loaded_unreviewed', 'not_reviewed'], name, ['workflow.review'], []],
        text.slice(0, 60),
      );
      assert.deepEqual(r.diagnostics('eva.project.load-aborted'), []);
    }
    // `!!js/x true` is the String "true" to the schema, which `enabled`'s `type: boolean` refuses.
    f.adapter(A0.replace('enabled: true', 'enabled: !!js/x true'));
    assert.deepEqual(refusal(f.index(), 'adapters/review.yaml'), [
      'eva.schema.type schema type mismatch: expected boolean, got string',
    ]);
  });

  it('refuses a skill adapter with a local tag anywhere in what serde buffers (not a !! tag)', () => {
    for (const [extra, field] of [
      ['metadata: !t x\n', 'metadata'],
      ['routing2: {priority: [1, {a: !<!t> 1}]}\n', 'routing2.priority[1].a'],
    ] as const) {
      f.adapter(A0.replace('limits: {timeout_ms: 60000}', 'limits: {timeout_ms: 60000}\n' + extra));
      const r = f.index();
      assert.deepEqual(
        [r.item('adapters/review.yaml').decision, r.item('adapters/review.yaml').reasons],
        ['rejected', ['schema_invalid', 'not_reviewed']],
        extra,
      );
      assert.deepEqual(refusal(r, 'adapters/review.yaml'), [
        `eva.yaml.parse failed to parse YAML: ${field}: untagged and internally tagged enums do not support enum input`,
      ]);
    }
    // `!!binary` resolves to a `tag:yaml.org,2002:` tag: serde_yaml reads the plain value.
    f.adapter(A0 + 'metadata: !!binary aGk=\n');
    assert.equal(f.index().item('adapters/review.yaml').decision, 'registered');
  });

  it('refuses a binding whose default_provider is a sequence, or whose buffered limits hold a tag', () => {
    f.adapter(A0);
    for (const [extra, message] of [
      [
        'default_provider: [review-skill]\nprovider: review-skill\n',
        'eva.yaml.parse failed to parse YAML: default_provider: invalid type: sequence, expected a string',
      ],
      [
        'provider: review-skill\nlimits: {timeout_ms: !t 5}\n',
        'eva.yaml.parse failed to parse YAML: limits.timeout_ms: untagged and internally tagged enums do not support enum input',
      ],
      [
        'provider: review-skill\npermissions: {adapters: [review-skill]}\n',
        'eva.yaml.parse failed to parse YAML: permissions.adapters: invalid type: sequence, expected struct RawCapabilityAdapterPermissions',
      ],
      [
        'provider: review-skill\npermissions: {adapters: {providers: ~}}\n',
        'eva.yaml.parse failed to parse YAML: permissions.adapters.providers: invalid type: unit value, expected a sequence',
      ],
      [
        'provider: review-skill\npermissions: {adapters: {capabilities: [bad..x]}}\n',
        'eva.capability.name-invalid capability name cannot contain empty segments',
      ],
      ['provider: !t\n', 'eva.id.invalid identifier cannot be empty'],
    ] as const) {
      f.write('ws/config/capabilities/rs.yaml', SKILL_BINDING + extra);
      const r = f.index();
      const b = r.item('capabilities/rs.yaml');
      assert.deepEqual([b.decision, b.reasons], ['rejected', ['schema_invalid']], extra);
      assert.deepEqual(refusal(r, 'capabilities/rs.yaml'), [message], extra);
    }
  });

  it('reads a provider written as a number as its text, and ~ or nothing as none', () => {
    // `default_provider: 5` is the adapter "5", which does not exist: Eva-CLI stops there.
    f.adapter(A0);
    f.write('ws/config/capabilities/rs.yaml', `${SKILL_BINDING}default_provider: 5\nprovider: review-skill\n`);
    let r = f.index();
    assert.deepEqual(refusal(r, 'capabilities/rs.yaml'), [
      'eva.capability.provider-missing Capability provider Adapter does not exist',
    ]);
    assert.equal(r.item('capabilities/rs.yaml').decision, 'rejected');
    for (const extra of ['permissions: {adapters: {providers: [7]}}', 'permissions: {adapters: {providers: [!t 7]}}']) {
      f.write('ws/config/capabilities/rs.yaml', `${SKILL_BINDING}provider: review-skill\n${extra}\n`);
      assert.deepEqual(refusal(f.index(), 'capabilities/rs.yaml'), [
        'eva.capability.provider-missing Capability provider Adapter does not exist',
      ]);
    }
    // An adapter whose id is "123" is the provider `default_provider: 123` names.
    f.adapter(A0.replace('id: review-skill', 'id: "123"'));
    f.write('ws/config/capabilities/rs.yaml', `${SKILL_BINDING}default_provider: 123\n`);
    r = f.index();
    assert.deepEqual(
      [r.item('capabilities/rs.yaml').decision, r.item('capabilities/rs.yaml').parent],
      ['registered', r.item('adapters/review.yaml').id],
    );
    f.adapter(A0);
    for (const extra of [
      'default_provider: ~\nprovider: review-skill\n',
      'provider: !t review-skill\n',
      'provider: review-skill\npermissions:\n  adapters:\n    providers:\n',
    ]) {
      f.write('ws/config/capabilities/rs.yaml', SKILL_BINDING + extra);
      const b = f.index().item('capabilities/rs.yaml');
      assert.deepEqual([b.decision, b.reasons], ['registered', ['loaded_unreviewed']], extra);
    }
  });

  // serde derive reads a struct's field names with serde_yaml's `deserialize_str` (de.rs
  // `deserialize_identifier`): a scalar key is its text whatever its tag or type, a sequence or
  // mapping key is refused. Names equal as text repeat a field (`duplicate field`) or, among
  // what the flattened `Mapping` takes, an entry (mapping.rs `DuplicateKeyError`). The
  // parse that checks the schema (a generic value) keeps `1` and "1", `!t k` and `k` apart.
  it('refuses a collection key or keys one as text at a raw struct level of a skill adapter', () => {
    for (const [extra, message, line] of [
      ['? [a]\n: b\n', 'failed to parse YAML: invalid type: sequence, expected field identifier', 18],
      ['{x: 1}: b\n', 'failed to parse YAML: invalid type: map, expected field identifier', 18],
      ['1: a\n"1": b\n', 'failed to parse YAML: duplicate entry with key "1"', 19],
      ['!t k: a\nk: b\n', 'failed to parse YAML: duplicate entry with key "k"', 19],
      ['!t name: Other\n', 'failed to parse YAML: duplicate field `name`', 18],
    ] as const) {
      f.adapter(A0 + extra);
      const r = f.index();
      const a = r.item('adapters/review.yaml');
      assert.deepEqual([a.decision, a.reasons], ['rejected', ['schema_invalid', 'not_reviewed']], extra);
      assert.deepEqual(refusal(r, 'adapters/review.yaml'), [`eva.yaml.parse ${message}`], extra);
      const d = r.diagnostics().find((x) => x.code === 'eva.yaml.parse');
      assert.equal(d?.range.start.line, line - 1, extra);
    }
    // A key error stops serde where it stands: a tag in a buffered value after it is never read.
    f.adapter(A0 + '? [a]\n: b\nmeta: !t x\n');
    assert.deepEqual(refusal(f.index(), 'adapters/review.yaml'), [
      'eva.yaml.parse failed to parse YAML: invalid type: sequence, expected field identifier',
    ]);
    // …and one before it is read first; the flattened Mapping's duplicate comes last of all.
    f.adapter(A0 + 'meta: !t x\n? [a]\n: b\n');
    assert.deepEqual(refusal(f.index(), 'adapters/review.yaml'), [
      'eva.yaml.parse failed to parse YAML: meta: untagged and internally tagged enums do not support enum input',
    ]);
    f.adapter(A0 + '1: a\n"1": b\nmeta: !t x\n');
    assert.deepEqual(refusal(f.index(), 'adapters/review.yaml'), [
      'eva.yaml.parse failed to parse YAML: meta: untagged and internally tagged enums do not support enum input',
    ]);
    // Keys distinct as text, and a tag on a key serde reads as a field name, are read as before.
    f.adapter(A0 + '1: a\n"2": b\n!t k: c\n');
    assert.equal(f.index().item('adapters/review.yaml').decision, 'registered');
  });

  // A key of a raw struct level is its text to serde (`!t supervision` is the field
  // `supervision`, and the flattened `Mapping` holds `!t command` as the string "command"),
  // so the loader's provider rules read it; the schema, which looks fields up in a generic
  // value, does not find it there (eva.md §2.1: schema first, then the typed loader).
  it('reads a tagged key at a raw struct level as the field its text names (provider rules)', () => {
    const always = '{mode: always, max_attempts: 1, backoff_ms: 1}';
    for (const [extra, message] of [
      ['!t supervision: {restart: {mode: bogus}}\n', 'eva.provider.invalid unsupported provider restart mode'],
      ['!t supervision: {!t restart: {!t mode: bogus}}\n', 'eva.provider.invalid unsupported provider restart mode'],
      ['!t supervision: {bogus: 1}\n', 'eva.provider.invalid provider config contains an unsupported field'],
      ['!t supervision: {!t run_as: {!t kind: nobody}}\n', 'eva.provider.invalid unsupported provider run_as kind'],
      [
        '!t supervision: {restart: {mode: none, max_attempts: -1}}\n',
        'eva.provider.invalid failed to parse YAML: supervision.restart.max_attempts: invalid type: integer `-1`, expected u64',
      ],
      [
        '!t credentials: {!t vault: [{!t env: API_TOKEN, !t ref: "vault://a/b"}]}\n',
        'eva.provider.invalid vault secret env target is not allowed by permissions.env',
      ],
      [
        `!t supervision: {restart: ${always}}\n`,
        'eva.provider.invalid automatic restart requires a process-backed Adapter transport',
      ],
    ] as const) {
      f.adapter(A0 + extra);
      const r = f.index();
      const a = r.item('adapters/review.yaml');
      assert.deepEqual([a.decision, a.reasons], ['rejected', ['schema_invalid', 'not_reviewed']], extra);
      assert.deepEqual(refusal(r, 'adapters/review.yaml'), [message], extra);
    }
    // A top-level `command` makes a skill adapter process-backed however its key is written…
    for (const command of ['command: x', '!t command: x', '!t skill2: 1\n!t command: x']) {
      f.adapter(`${A0}supervision: {restart: ${always}}\n${command}\n`);
      assert.deepEqual(refusal(f.index(), 'adapters/review.yaml'), [], command);
    }
    // …but a key of what the flattened Mapping keeps as a value is looked up as a value: a
    // number is not the string "command" there (`skill.runner` is such a value).
    f.adapter(
      A0.replace('  entry: {type: codex_skill}', '  entry: {type: codex_skill}\n  runner: {1: x}') +
        `supervision: {restart: ${always}}\n`,
    );
    assert.deepEqual(refusal(f.index(), 'adapters/review.yaml'), [
      'eva.provider.invalid automatic restart requires a process-backed Adapter transport',
    ]);
  });

  // The values of RawProviderSupervision, RawProviderRestart, RawProviderRunAs,
  // RawProviderCredentials and RawProviderVaultSecretRef as serde_yaml 0.9's event deserializer
  // reads them (de.rs): `Option` is `None` only for a plain `~`/`null`/empty or `!!null`; a
  // `String` takes any scalar's text, tag or not; a `u64` parses any plain scalar's text, tag or
  // not (a quoted one is a string); a struct is a mapping under any tag, or an empty plain
  // scalar; a `Vec` is a sequence under any tag, or an empty plain scalar. A tagged key hides
  // these values from the schema, so serde and the loader's rules decide them.
  it("reads the provider structs' values as serde reads them (tagged, numbers as text, empty)", () => {
    const env = A0.replace('env: []', 'env: [API_TOKEN]') + 'command: x\n';
    for (const extra of [
      '!t supervision: {run_as: {kind: windows, account: 5}}',
      '!t supervision: {restart: {mode: !t none}}',
      '!t supervision: {restart: {mode: always, max_attempts: !t 3, backoff_ms: !!str 10}}',
      '!t supervision: !t {run_as: !t {kind: current}}',
      '!t supervision: {run_as: {kind: windows, account: !!null "~"}}',
      '!t supervision:',
      '!t supervision: {restart: , run_as: ~}',
      '!t credentials: {vault: !t }',
      '!t credentials: {vault: !t [{env: !t API_TOKEN, ref: !t "vault://a/b"}]}',
    ]) {
      f.adapter(`${env}${extra}\n`);
      const r = f.index();
      assert.deepEqual(refusal(r, 'adapters/review.yaml'), [], extra);
      assert.equal(r.item('adapters/review.yaml').decision, 'registered', extra);
    }
    for (const [extra, message] of [
      [
        '!t supervision: {restart: {mode: always, max_attempts: "3", backoff_ms: 1}}',
        'failed to parse YAML: supervision.restart.max_attempts: invalid type: string "3", expected u64',
      ],
      [
        '!t supervision: {restart: {mode: none, max_attempts: !t ~}}',
        'failed to parse YAML: supervision.restart.max_attempts: invalid type: unit value, expected u64',
      ],
      [
        '!t supervision: {restart: {mode: none, backoff_ms: !!int "3"}}',
        'failed to parse YAML: supervision.restart.backoff_ms: invalid type: integer `3`, expected u64',
      ],
      [
        '!t supervision: {run_as: {kind: unix, uid: !!null "~", gid: 1}}',
        'failed to parse YAML: supervision.run_as.uid: invalid type: unit value, expected u64',
      ],
      [
        '!t supervision: {run_as: {kind: windows, account: !t [a]}}',
        'failed to parse YAML: supervision.run_as.account: invalid type: sequence, expected a string',
      ],
      [
        '!t supervision: ~',
        'failed to parse YAML: supervision: invalid type: unit value, expected struct RawProviderSupervision',
      ],
      [
        '!t supervision: {restart: !t ~}',
        'failed to parse YAML: supervision.restart: invalid type: unit value, expected struct RawProviderRestart',
      ],
      [
        '!t credentials: {vault: [""]}',
        'failed to parse YAML: credentials.vault[0]: invalid type: string "", expected struct RawProviderVaultSecretRef',
      ],
      ['!t supervision: {restart: !t }', 'explicit provider restart config requires mode'],
      ['!t credentials: {vault: [!t ]}', 'vault secret reference requires an env target'],
      [
        '!t supervision: {run_as: {kind: unix, uid: !t 4294967296, gid: 1}}',
        'run_as numeric identity is required and must fit u32',
      ],
      // The loader's rules read inside a tagged struct (serde reads it as the struct).
      ['!t supervision: !t {run_as: !t {kind: unix, uid: 1}}', 'run_as numeric identity is required and must fit u32'],
      [
        '!t credentials: !t {vault: !t [!t {env: API_TOKEN, ref: "vault://a/../b"}]}',
        'vault reference path or key is invalid',
      ],
      [
        '!t supervision: {restart: {mode: !t none, max_attempts: !t 1}}',
        'restart mode none requires zero max_attempts and backoff_ms',
      ],
      // serde buffers an unknown entry as `Content`, which refuses its tag before the loader's rules run.
      [
        '!t supervision: {bogus: !t 1}',
        'failed to parse YAML: supervision.bogus: untagged and internally tagged enums do not support enum input',
      ],
      [
        '!t supervision: {run_as: {x: !t 1, kind: 5}}',
        'failed to parse YAML: supervision.run_as.x: untagged and internally tagged enums do not support enum input',
      ],
      [
        '!t supervision: {run_as: {uid: "1", x: !t 1}}',
        'failed to parse YAML: supervision.run_as.uid: invalid type: string "1", expected u64',
      ],
    ] as const) {
      f.adapter(`${env}${extra}\n`);
      const r = f.index();
      const a = r.item('adapters/review.yaml');
      assert.deepEqual([a.decision, a.reasons], ['rejected', ['schema_invalid', 'not_reviewed']], extra);
      assert.deepEqual(refusal(r, 'adapters/review.yaml'), [`eva.provider.invalid ${message}`], extra);
    }
  });

  it('reads a raw struct level of 20,000 keys in document order within seconds', function () {
    // Each key's place was looked up by walking the mapping, once per comparison of a sort:
    // 5,000 keys took 9 s at the top level and 21 s under `supervision`.
    this.timeout(10_000);
    const keys = Array.from({ length: 20_000 }, (_, i) => `k${i}: ${i}`);
    for (const [text, message] of [
      [
        `${A0}${keys.join('\n')}\nz: !t 1\n`,
        'failed to parse YAML: z: untagged and internally tagged enums do not support enum input',
      ],
      [`${A0}!t supervision:\n  ${keys.join('\n  ')}\n`, 'provider config contains an unsupported field'],
    ] as const) {
      const parsed = parseEvaYaml('/p/config/adapters/x.yaml', text);
      assert.ok(parsed.ok);
      const result = checkSkillAdapter(parsed.document, EMBEDDED_SCHEMAS.adapter);
      assert.deepEqual(
        result.diagnostics.map((d) => d.message),
        [message],
      );
    }
  });

  it('refuses a tagged key inside an entry serde buffers (as a tagged value is refused)', () => {
    for (const [extra, message] of [
      ['meta: {!t k: 1}\n', 'meta: untagged and internally tagged enums do not support enum input'],
      ['meta: [a, {b: {!t k: 1}}]\n', 'meta[1].b: untagged and internally tagged enums do not support enum input'],
      ['meta: {[!t a]: 1}\n', 'meta: untagged and internally tagged enums do not support enum input'],
    ] as const) {
      f.adapter(A0 + extra);
      const r = f.index();
      assert.equal(r.item('adapters/review.yaml').decision, 'rejected', extra);
      assert.deepEqual(refusal(r, 'adapters/review.yaml'), [`eva.yaml.parse failed to parse YAML: ${message}`], extra);
    }
    f.adapter(A0 + 'meta: {!!str k: 1, 1: a, [b]: c}\n');
    assert.equal(f.index().item('adapters/review.yaml').decision, 'registered');
  });

  it('refuses a capability manifest whose keys serde reads as one, at each raw struct level', () => {
    f.adapter(A0);
    for (const [extra, message] of [
      ['? [a]\n: b\n', 'invalid type: sequence, expected field identifier'],
      ['true: a\n"true": b\n', 'duplicate entry with key "true"'],
      ['!t provider: x\n', 'duplicate field `provider`'],
      ['permissions: {1: a, "1": b}\n', 'permissions: duplicate entry with key "1"'],
      [
        'permissions: {adapters: {? {a: 1} : b}}\n',
        'permissions.adapters: invalid type: map, expected field identifier',
      ],
      [
        'permissions: {adapters: {providers: [review-skill], !t providers: []}}\n',
        'permissions.adapters: duplicate field `providers`',
      ],
      ['x: {!t k: 1}\n', 'x: untagged and internally tagged enums do not support enum input'],
    ] as const) {
      f.write('ws/config/capabilities/rs.yaml', `${SKILL_BINDING}provider: review-skill\n${extra}`);
      const r = f.index();
      const b = r.item('capabilities/rs.yaml');
      assert.deepEqual([b.decision, b.reasons], ['rejected', ['schema_invalid']], extra);
      assert.deepEqual(refusal(r, 'capabilities/rs.yaml'), [`eva.yaml.parse failed to parse YAML: ${message}`], extra);
    }
  });

  // `RawAdapterManifest`'s and `RawCapabilityManifest`'s `String` fields, where a project's
  // schema leaves them open: `deserialize_str` takes any scalar's text (`5` is "5", `~` is "~",
  // nothing is "", `!t x` is "x") and refuses a collection in document order with the other
  // entries; a field with no `Option` or default that is absent is `missing field` once the
  // mapping is read. The loader's rules (`require_non_empty`, the id and name rules) then read
  // that text.
  const open = (schema: unknown, fields: readonly string[]): unknown => {
    const s = structuredClone(schema) as { properties: Record<string, unknown>; required: string[] };
    for (const k of fields) delete s.properties[k];
    s.required = s.required.filter((k) => !fields.includes(k));
    return s;
  };
  const OPEN_ADAPTER = open(EMBEDDED_SCHEMAS.adapter, ['id', 'name', 'version', 'enabled', 'transport']);
  const OPEN_CAPABILITY = open(EMBEDDED_SCHEMAS.capability, ['id', 'name', 'version', 'enabled', 'kind', 'capability']);
  const messages = (
    text: string,
    check: (doc: never, schema: unknown) => { diagnostics: { code: string; message: string }[] },
    schema: unknown,
  ): string[] => {
    const parsed = parseEvaYaml('/p/config/x.yaml', text);
    assert.ok(parsed.ok, text);
    return check(parsed.document as never, schema).diagnostics.map((d) => `${d.code} ${d.message}`);
  };

  it("reads an adapter's String fields as serde reads them where the project's schema leaves them open", () => {
    const noName = A0.replace('name: Review Skill\n', '');
    for (const [text, want] of [
      [
        A0.replace('name: Review Skill', 'name: [a]'),
        ['eva.yaml.parse failed to parse YAML: name: invalid type: sequence, expected a string'],
      ],
      [
        A0.replace('version: 1.0.0', 'version: !t {a: 1}'),
        ['eva.yaml.parse failed to parse YAML: version: invalid type: map, expected a string'],
      ],
      [
        A0.replace('id: review-skill', 'id: [a]'),
        ['eva.yaml.parse failed to parse YAML: id: invalid type: sequence, expected a string'],
      ],
      [A0.replace('name: Review Skill', 'name:'), ['eva.field.empty required field cannot be empty']],
      [A0.replace('name: Review Skill', 'name: !t " "'), ['eva.field.empty required field cannot be empty']],
      [
        A0.replace('version: 1.0.0', 'version: !t " 1"'),
        ['eva.field.empty field cannot contain leading or trailing whitespace'],
      ],
      [A0.replace('id: review-skill', 'id:'), ['eva.id.invalid identifier cannot be empty']],
      [A0.replace('id: review-skill', 'id: !t a/b'), ['eva.id.invalid identifier cannot contain path separators']],
      [noName, ['eva.yaml.parse failed to parse YAML: missing field `name`']],
      // Declaration order: `version` before `transport`; `enabled` (a bool) is required too.
      [
        noName.replace('version: 1.0.0\n', '').replace('transport: skill\n', ''),
        ['eva.yaml.parse failed to parse YAML: missing field `name`'],
      ],
      [
        A0.replace('enabled: true\n', '').replace('transport: skill\n', ''),
        ['eva.yaml.parse failed to parse YAML: missing field `enabled`'],
      ],
      // In document order: the entry read first fails first; a missing field only once all are read.
      [
        `${noName}meta: !t x\n`,
        ['eva.yaml.parse failed to parse YAML: meta: untagged and internally tagged enums do not support enum input'],
      ],
      [
        `meta: !t x\n${A0.replace('name: Review Skill', 'name: [a]')}`,
        ['eva.yaml.parse failed to parse YAML: meta: untagged and internally tagged enums do not support enum input'],
      ],
      [
        `${A0.replace('name: Review Skill\n', '')}name: [a]\nmeta: !t x\n`,
        ['eva.yaml.parse failed to parse YAML: name: invalid type: sequence, expected a string'],
      ],
      [`${noName}1: a\n"1": b\n`, ['eva.yaml.parse failed to parse YAML: missing field `name`']],
    ] as const) {
      const got = messages(text, checkSkillAdapter, OPEN_ADAPTER);
      assert.deepEqual(got, want, text);
    }
    // Any scalar is its text: `~` is the name "~", `5` the version "5".
    for (const text of [
      A0.replace('name: Review Skill', 'name: ~'),
      A0.replace('version: 1.0.0', 'version: 5'),
      A0.replace('name: Review Skill', 'name: !t Review'),
    ])
      assert.deepEqual(messages(text, checkSkillAdapter, OPEN_ADAPTER), [], text);
  });

  it("reads a capability manifest's String fields as serde reads them where the project's schema leaves them open", () => {
    for (const [text, want] of [
      [
        SKILL_BINDING.replace('kind: skill', 'kind: [skill]'),
        ['eva.yaml.parse failed to parse YAML: kind: invalid type: sequence, expected a string'],
      ],
      [
        SKILL_BINDING.replace('capability: workflow.review', 'capability: {a: 1}'),
        ['eva.yaml.parse failed to parse YAML: capability: invalid type: map, expected a string'],
      ],
      [SKILL_BINDING.replace('name: Review binding', 'name:'), ['eva.field.empty required field cannot be empty']],
      [SKILL_BINDING.replace('id: rs', 'id: ""'), ['eva.id.invalid identifier cannot be empty']],
      [
        SKILL_BINDING.replace('kind: skill', 'kind: 5'),
        ['eva.capability.kind-unsupported unsupported capability kind'],
      ],
      [
        SKILL_BINDING.replace('kind: skill', 'kind: !t mystery'),
        ['eva.capability.kind-unsupported unsupported capability kind'],
      ],
      [
        SKILL_BINDING.replace('capability: workflow.review', 'capability:'),
        ['eva.capability.name-invalid capability name cannot be empty'],
      ],
      [
        SKILL_BINDING.replace('capability: workflow.review', 'capability: !t a..b'),
        ['eva.capability.name-invalid capability name cannot contain empty segments'],
      ],
      [
        SKILL_BINDING.replace('capability: workflow.review\n', ''),
        ['eva.yaml.parse failed to parse YAML: missing field `capability`'],
      ],
      [
        `${SKILL_BINDING.replace('kind: skill\n', '')}x: !t 1\n`,
        ['eva.yaml.parse failed to parse YAML: x: untagged and internally tagged enums do not support enum input'],
      ],
      [
        `x: !t 1\n${SKILL_BINDING.replace('kind: skill', 'kind: [a]')}`,
        ['eva.yaml.parse failed to parse YAML: x: untagged and internally tagged enums do not support enum input'],
      ],
    ] as const) {
      const got = messages(`${text}provider: review-skill\n`, checkCapabilityManifest, OPEN_CAPABILITY);
      assert.deepEqual(got, want, text);
    }
    assert.deepEqual(
      messages(
        `${SKILL_BINDING.replace('version: 1.0.0', 'version: ~')}provider: review-skill\n`,
        checkCapabilityManifest,
        OPEN_CAPABILITY,
      ),
      [],
    );
  });

  it("refuses a skill adapter whose name serde refuses, with the project's schema leaving name open", () => {
    // The repository's own schema_dir decides what the schema checks (fixture /tmp/evaserde4/fx/tagname).
    f.write('ws/config/schemas/adapter.schema.json', JSON.stringify(open(EMBEDDED_SCHEMAS.adapter, ['name'])));
    for (const [value, message] of [
      ['[a]', 'eva.yaml.parse failed to parse YAML: name: invalid type: sequence, expected a string'],
      ['', 'eva.field.empty required field cannot be empty'],
      ['!t " "', 'eva.field.empty required field cannot be empty'],
    ] as const) {
      f.adapter(A0.replace('name: Review Skill', `name: ${value}`));
      const r = f.index();
      assert.equal(r.item('adapters/review.yaml').decision, 'rejected', value);
      assert.deepEqual(refusal(r, 'adapters/review.yaml'), [message], value);
    }
  });

  it("reads enabled as serde's bool where the project's schema leaves it open: a plain word under any tag, else refused", () => {
    // serde_yaml de.rs `deserialize_bool`: a plain scalar whatever its tag, by `parse_bool`'s six
    // words (fixtures /tmp/evabool-oracle/fx/en*: `!t true` was shown disabled, `"true"` disabled).
    f.write('ws/config/schemas/adapter.schema.json', JSON.stringify(open(EMBEDDED_SCHEMAS.adapter, ['enabled'])));
    for (const [value, decision] of [
      ['!t true', 'registered'],
      ['!!str true', 'registered'],
      ['TRUE', 'registered'],
      ['!t false', 'disabled'],
      ['!!str False', 'disabled'],
    ] as const) {
      f.adapter(A0.replace('enabled: true', `enabled: ${value}`));
      const r = f.index();
      assert.equal(r.item('adapters/review.yaml').decision, decision, value);
      assert.deepEqual(refusal(r, 'adapters/review.yaml'), [], value);
    }
    for (const [value, unexpected] of [
      ['"true"', 'string "true"'],
      ['yes', 'string "yes"'],
      ['!t "false"', 'string "false"'],
      ['~', 'unit value'],
      ['', 'unit value'],
      ['1', 'integer `1`'],
      ['!!bool "true"', 'boolean `true`'],
      ['[true]', 'sequence'],
      ['|-\n  true', 'string "true"'],
    ] as const) {
      f.adapter(A0.replace('enabled: true', `enabled: ${value}`));
      const r = f.index();
      assert.deepEqual(
        [r.item('adapters/review.yaml').decision, r.item('adapters/review.yaml').reasons],
        ['rejected', ['schema_invalid', 'not_reviewed']],
        value,
      );
      assert.deepEqual(
        refusal(r, 'adapters/review.yaml'),
        [`eva.yaml.parse failed to parse YAML: enabled: invalid type: ${unexpected}, expected a boolean`],
        value,
      );
      assert.equal(r.diagnostics('eva.project.load-aborted').length, 1, value);
    }
    // A literal block is a bool only under `!!bool`.
    f.adapter(A0.replace('enabled: true', 'enabled: !!bool |-\n  true'));
    assert.equal(f.index().item('adapters/review.yaml').decision, 'registered');
  });

  it("reads a skill binding's enabled as serde's bool, and its capability as serde's text, where the project's schema leaves them open", () => {
    f.write(
      'ws/config/schemas/capability.schema.json',
      JSON.stringify(open(EMBEDDED_SCHEMAS.capability, ['enabled', 'capability'])),
    );
    f.adapter(A0);
    // `capability: !t workflow.review` is the String "workflow.review" (it was shown display_only).
    f.write(
      'ws/config/capabilities/rs.yaml',
      `${SKILL_BINDING.replace('capability: workflow.review', 'capability: !t workflow.review')}provider: review-skill\n`,
    );
    assert.equal(f.index().item('capabilities/rs.yaml').decision, 'registered');
    for (const [value, decision, message] of [
      ['!t false', 'disabled', undefined],
      ['!t true', 'registered', undefined],
      ['"false"', 'rejected', 'string "false"'],
      ['no', 'rejected', 'string "no"'],
      ['~', 'rejected', 'unit value'],
    ] as const) {
      f.write(
        'ws/config/capabilities/rs.yaml',
        `${SKILL_BINDING.replace('enabled: true', `enabled: ${value}`)}provider: review-skill\n`,
      );
      const r = f.index();
      assert.equal(r.item('capabilities/rs.yaml').decision, decision, value);
      assert.deepEqual(
        refusal(r, 'capabilities/rs.yaml'),
        message ? [`eva.yaml.parse failed to parse YAML: enabled: invalid type: ${message}, expected a boolean`] : [],
        value,
      );
    }
  });

  it("reads an adapter's capabilities as serde's Vec<String> where the project's schema leaves them open (a number was an internal error)", () => {
    f.write('ws/config/schemas/adapter.schema.json', JSON.stringify(open(EMBEDDED_SCHEMAS.adapter, ['capabilities'])));
    for (const [value, decision] of [
      ['!t [workflow.review]', 'registered'],
      ['[!t workflow.review]', 'registered'],
      ['[workflow.review, 5]', 'display_only'],
    ] as const) {
      f.adapter(A0.replace('capabilities: [workflow.review]', `capabilities: ${value}`));
      const r = f.index();
      assert.deepEqual(r.diagnostics('skillgate.internal'), [], value);
      assert.equal(r.item('adapters/review.yaml').decision, decision, value);
      assert.deepEqual(refusal(r, 'adapters/review.yaml'), [], value);
    }
    for (const [value, message] of [
      ['~', 'capabilities: invalid type: unit value, expected a sequence'],
      ['workflow.review', 'capabilities: invalid type: string "workflow.review", expected a sequence'],
      ['[[a]]', 'capabilities[0]: invalid type: sequence, expected a string'],
      ['[a..b]', undefined],
    ] as const) {
      f.adapter(A0.replace('capabilities: [workflow.review]', `capabilities: ${value}`));
      const r = f.index();
      assert.deepEqual(r.diagnostics('skillgate.internal'), [], value);
      assert.equal(r.item('adapters/review.yaml').decision, 'rejected', value);
      assert.deepEqual(
        refusal(r, 'adapters/review.yaml'),
        [
          message
            ? `eva.yaml.parse failed to parse YAML: ${message}`
            : 'eva.capability.name-invalid capability name cannot contain empty segments',
        ],
        value,
      );
    }
  });

  it("classifies a manifest by serde's text of transport or kind where the project's schema leaves it open (a skill was dropped)", () => {
    // `transport: !t skill` is the String "skill" to Eva's loader: a skill adapter it registers.
    f.write('ws/config/schemas/adapter.schema.json', JSON.stringify(open(EMBEDDED_SCHEMAS.adapter, ['transport'])));
    f.write('ws/config/schemas/capability.schema.json', JSON.stringify(open(EMBEDDED_SCHEMAS.capability, ['kind'])));
    f.adapter(A0.replace('transport: skill', 'transport: !t skill'));
    f.write(
      'ws/config/capabilities/rs.yaml',
      `${SKILL_BINDING.replace('kind: skill', 'kind: !t skill')}provider: review-skill\n`,
    );
    const r = f.index();
    assert.equal(r.item('adapters/review.yaml').decision, 'registered');
    assert.equal(r.item('capabilities/rs.yaml').decision, 'registered');
    assert.deepEqual(r.diagnostics('eva.project.load-aborted'), []);
    // Under the corpus's closed schema the tag is Eva's schema error: its type check reads through the
    // tag, its enum compares whole values (a tagged one never equals); the file stays context (eva.md §4.2).
    f.remove();
    f = new EvaFixture().p0();
    f.adapter(A0.replace('transport: skill', 'transport: !t skill'));
    const closed = f.index();
    assert.deepEqual(
      closed.items.filter((i) => i.kind === 'skill-adapter'),
      [],
    );
    assert.deepEqual(refusal(closed, 'adapters/review.yaml'), ['eva.schema.enum value is not allowed by schema enum']);
  });

  it('reads `id: 5` as the id "5", as serde does, where the project\'s schema leaves id open (it was an internal error for the folder)', () => {
    // Two skill adapters offering one capability: the provider-conflict ordering sorted the raw number.
    f.write('ws/config/schemas/adapter.schema.json', JSON.stringify(open(EMBEDDED_SCHEMAS.adapter, ['id'])));
    f.adapter(A0.replace('id: review-skill', 'id: 5'));
    f.adapter(A0.replace('id: review-skill', 'id: other-skill').replace('id: review\n', 'id: other\n'), 'other.yaml');
    const r = f.index();
    assert.deepEqual(
      r.codes().filter((c) => c === 'skillgate.internal'),
      [],
    );
    assert.notEqual(r.item('adapters/review.yaml').decision, 'rejected');
    const parsed = parseEvaYaml('/p/config/adapters/x.yaml', A0.replace('id: review-skill', 'id: 5'));
    assert.ok(parsed.ok);
    assert.equal(checkSkillAdapter(parsed.document, open(EMBEDDED_SCHEMAS.adapter, ['id'])).contract?.id, '5');
  });

  it('lists a lua_skill whose kind carries a local tag: serde reads the String "lua_skill" (it was no item)', () => {
    f.adapter(A0);
    f.l0(L0.replace('kind: lua_skill', 'kind: !t lua_skill'));
    const r = f.index();
    const item = r.item('capabilities/lint.yaml');
    assert.deepEqual([item.kind, item.decision], ['lua-skill', 'registered']);
    assert.deepEqual(refusal(r, 'capabilities/lint.yaml'), []);
  });

  it("reads a capability manifest's permissions as serde's Option<RawCapabilityPermissions>: a mapping under any tag, else refused", () => {
    // The struct ignores its mapping's tag: the providers inside are the ones Eva checks (they were unread).
    f.adapter(A0);
    f.write(
      'ws/config/capabilities/rs.yaml',
      `${SKILL_BINDING}provider: review-skill\npermissions: !t {adapters: {providers: [bad/id]}}\n`,
    );
    const bad = f.index();
    assert.equal(bad.item('capabilities/rs.yaml').decision, 'rejected');
    assert.deepEqual(refusal(bad, 'capabilities/rs.yaml'), [
      'eva.id.invalid identifier cannot contain path separators',
    ]);
    // A provider that does not exist stops Eva's loader, as it does untagged.
    f.write(
      'ws/config/capabilities/rs.yaml',
      `${SKILL_BINDING}provider: review-skill\npermissions: !t {adapters: {providers: [ghost]}}\n`,
    );
    const ghost = f.index();
    assert.deepEqual(refusal(ghost, 'capabilities/rs.yaml'), [
      'eva.capability.provider-missing Capability provider Adapter does not exist',
    ]);
    assert.equal(ghost.diagnostics('eva.project.load-aborted').length, 1);
    // Where the project's schema leaves permissions open, serde refuses what is no mapping.
    f.write(
      'ws/config/schemas/capability.schema.json',
      JSON.stringify(open(EMBEDDED_SCHEMAS.capability, ['permissions'])),
    );
    for (const [permissions, message] of [
      ['[a]', 'permissions: invalid type: sequence, expected struct RawCapabilityPermissions'],
      ['5', 'permissions: invalid type: integer `5`, expected struct RawCapabilityPermissions'],
      ['!t {x: !t 1}', 'permissions.x: untagged and internally tagged enums do not support enum input'],
    ] as const) {
      f.write(
        'ws/config/capabilities/rs.yaml',
        `${SKILL_BINDING}provider: review-skill\npermissions: ${permissions}\n`,
      );
      const r = f.index();
      assert.deepEqual(r.item('capabilities/rs.yaml').decision, 'rejected', permissions);
      assert.deepEqual(
        refusal(r, 'capabilities/rs.yaml'),
        [`eva.yaml.parse failed to parse YAML: ${message}`],
        permissions,
      );
    }
    f.write('ws/config/capabilities/rs.yaml', `${SKILL_BINDING}provider: review-skill\npermissions:\n`);
    assert.equal(f.index().item('capabilities/rs.yaml').decision, 'registered');
  });
});
