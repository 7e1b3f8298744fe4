import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { Fixture } from './helpers/fixture';
import {
  capabilityNameError,
  capabilityNamespace,
  identifierError,
  textFieldError,
} from '../../src/core/systems/eva/ids';
import { fieldPath, firstSchemaError } from '../../src/core/systems/eva/schemaSubset';
import {
  DEFAULT_EVA_RUNTIME,
  gateAdmits,
  gateText,
  runtimeText,
  type RuntimeGate,
} from '../../src/core/systems/eva/runtime';
import { allowedRoot, resolveNamedPath } from '../../src/core/systems/eva/paths';
import { YamlFloat } from '../../src/core/systems/eva/yamlScalars';
import { YamlTagged } from '../../src/core/systems/eva/yamlValue';
import { parseEvaYaml } from '../../src/core/systems/eva/yamlDocument';
import { readPolicy } from '../../src/core/systems/eva/policy';
import { EMBEDDED_SCHEMAS } from '../../src/core/systems/eva/schemas';
import { A0, EvaFixture } from './helpers/evaFixture';
import { EVA_REASONS } from '../../src/core/systems/eva/vocabulary';

/**
 * The small rules under Eva's validation, one negative test per rule: eva-core's
 * identifier and capability-name rules (eva.md §2.7), the schema subset (§2.1), runtime
 * gates (§3.4) and named paths against their allowed roots (§3.5).
 */

describe('Eva identifiers (eva.md §2.7)', () => {
  it('measures the 128 limit in UTF-8 bytes, not characters', () => {
    // 65 two-byte characters: 130 bytes, too long before any character rule is checked.
    assert.equal(identifierError('é'.repeat(65)), 'identifier is too long');
    assert.equal(
      identifierError('é'.repeat(64)),
      "identifier may only contain ASCII letters, digits, '.', '_', '-', and ':'",
    );
  });

  it('refuses trailing whitespace and a backslash separator', () => {
    assert.equal(identifierError('a '), 'identifier cannot contain leading or trailing whitespace');
    assert.equal(identifierError('a\\b'), 'identifier cannot contain path separators');
  });

  it('refuses a character outside the set anywhere in the id', () => {
    for (const id of ['a b', '+a', 'a+', 'a@b'])
      assert.equal(
        identifierError(id),
        "identifier may only contain ASCII letters, digits, '.', '_', '-', and ':'",
        id,
      );
    assert.equal(identifierError('A.z_0-9:x'), undefined);
  });

  it('checks capability names: edge whitespace either side, segments made of letters, digits, _ and -', () => {
    assert.equal(capabilityNameError(' a.b'), 'capability name cannot contain leading or trailing whitespace');
    assert.equal(capabilityNameError('.a'), 'capability name cannot contain empty segments');
    assert.equal(capabilityNameError('a.'), 'capability name cannot contain empty segments');
    for (const name of ['a.b c', 'a.+b', 'a.b+', 'a:b'])
      assert.equal(
        capabilityNameError(name),
        "capability segments may only contain ASCII letters, digits, '_', and '-'",
        name,
      );
    assert.equal(capabilityNameError('Workflow.a-b_c9'), undefined);
  });

  it('checks name/version text: leading whitespace too, and accepts plain text', () => {
    assert.equal(textFieldError(' 1.0'), 'field cannot contain leading or trailing whitespace');
    assert.equal(textFieldError('1.0.0'), undefined);
  });

  it('takes the namespace as the first segment', () => {
    assert.equal(capabilityNamespace('workflow.review.deep'), 'workflow');
    assert.equal(capabilityNamespace('workflow'), 'workflow');
  });
});

describe("Eva edge whitespace as Rust's str::trim sees it (eva.md §2.7)", () => {
  it('takes U+0085 for whitespace and a U+FEFF byte-order mark for none, in ids, names and capability names', () => {
    assert.equal(identifierError('a\u0085'), 'identifier cannot contain leading or trailing whitespace');
    assert.equal(
      identifierError('\ufeffa'),
      "identifier may only contain ASCII letters, digits, '.', '_', '-', and ':'",
      'past the whitespace rule, the character rule refuses it',
    );
    assert.equal(capabilityNameError('a.b\u0085'), 'capability name cannot contain leading or trailing whitespace');
    assert.equal(textFieldError('Review\u0085'), 'field cannot contain leading or trailing whitespace');
    assert.equal(textFieldError('\ufeffReview'), undefined);
  });

  it('calls blank name/version text empty, as require_non_empty trims before it checks', () => {
    assert.equal(textFieldError('   '), 'required field cannot be empty');
    assert.equal(textFieldError('\u0085'), 'required field cannot be empty');
    assert.equal(identifierError(' '), 'identifier cannot contain leading or trailing whitespace');
  });

  it('refuses a policy domain key padded with U+0085, and keeps one led by U+FEFF', () => {
    const domainKeyProblems = (text: string) => {
      const r = parseEvaYaml('/p/0.yaml', text);
      if (!r.ok) throw new Error(r.message);
      return readPolicy([{ file: '/p/0.yaml', document: r.document }], EMBEDDED_SCHEMAS.policy).diagnostics.map(
        (d) => d.message,
      );
    };
    // The YAML escape: a raw NEL is a line break to libyaml, which makes the key span two lines (a parse error).
    assert.deepEqual(domainKeyProblems('"x\\u0085": {}\n'), ['policy domain keys must be non-empty strings']);
    assert.deepEqual(domainKeyProblems('"\ufeffx": {}\n'), []);
  });

  describe('through A0 (eva.md §7.1)', () => {
    let f: EvaFixture;
    beforeEach(() => {
      f = new EvaFixture().p0();
    });
    afterEach(() => f.remove());

    it('registers name: "\\ufeffReview" and rejects name: "Review\\u0085"', () => {
      f.adapter(A0.replace('name: Review Skill', 'name: "\\ufeffReview"'), 'bom.yaml');
      f.adapter(
        A0.replace('name: Review Skill', 'name: "Review\\u0085"').replace('review-skill', 'nel-skill'),
        'nel.yaml',
      );
      const r = f.index();
      assert.equal(r.item('adapters/bom.yaml').detail.eva.evaDecision, 'registered');
      assert.deepEqual(r.item('adapters/nel.yaml').detail.eva.evaReasons, ['schema_invalid']);
      assert.deepEqual(
        r.diagnostics('eva.field.empty').map((d) => `${r.rel(d.file)} ${d.message}`),
        ['config/adapters/nel.yaml field cannot contain leading or trailing whitespace'],
      );
    });
  });
});

describe('Eva schema subset: types and values as schema.rs compares them (eva.md §2.1)', () => {
  const parsed = (text: string) => {
    const r = parseEvaYaml('/x.yaml', `v: ${text}\n`);
    if (!r.ok) throw new Error(r.message);
    return (r.document.value as Record<string, unknown>)['v'];
  };

  it('takes an integer for `integer` and a float for none, even a whole one (as_i64 / as_u64)', () => {
    for (const text of ['0.0', '1e3', '5.'])
      assert.equal(
        firstSchemaError({ type: 'integer' }, parsed(text))?.message,
        'schema type mismatch: expected integer, got number',
        text,
      );
    for (const text of ['0', '-3', '0x10'])
      assert.equal(firstSchemaError({ type: 'integer' }, parsed(text)), undefined);
    assert.equal(firstSchemaError({ type: 'number' }, new YamlFloat(0)), undefined);
  });

  it('accepts a list of types when any one matches, naming them joined by |', () => {
    assert.equal(firstSchemaError({ type: ['string', 'null'] }, null), undefined);
    assert.equal(firstSchemaError({ type: ['string', 'null'] }, 's'), undefined);
    assert.equal(
      firstSchemaError({ type: ['string', 7, 'null'] }, 1)?.message,
      'schema type mismatch: expected string|null, got number',
    );
  });

  it('lets a type name it does not know, and a type that is no name, match anything', () => {
    assert.equal(firstSchemaError({ type: 'date' }, 1), undefined);
    assert.equal(firstSchemaError({ type: { a: 1 } }, 1), undefined);
  });

  it('never takes an integer enum member for a float value, nor the reverse; key order does not matter', () => {
    assert.equal(firstSchemaError({ enum: [0] }, parsed('0.0'))?.code, 'eva.schema.enum');
    assert.equal(firstSchemaError({ enum: [0.5] }, parsed('0.5')), undefined);
    assert.equal(firstSchemaError({ enum: [0] }, parsed('0')), undefined);
    assert.equal(firstSchemaError({ enum: [{ a: 1, b: 2 }] }, { b: 2, a: 1 }), undefined);
    assert.equal(
      firstSchemaError({ enum: [{ tag: '!x', value: 's' }] }, new YamlTagged('!x', 's'))?.code,
      'eva.schema.enum',
    );
  });

  it('reads minProperties as a whole number of at least 0 only', () => {
    assert.equal(firstSchemaError({ minProperties: 1.5 }, {}), undefined);
    assert.equal(firstSchemaError({ minProperties: -1 }, {}), undefined);
  });

  it('tests ^/.+ as upstream does: a slash and anything after it, a line break included', () => {
    assert.equal(firstSchemaError({ pattern: '^/.+' }, '/\n'), undefined);
    assert.equal(
      firstSchemaError({ pattern: 'toString' }, 'x')?.message,
      'schema pattern is not supported by eva-config validator',
    );
  });

  describe('through A0 (eva.md §7.1)', () => {
    let f: EvaFixture;
    beforeEach(() => {
      f = new EvaFixture().p0();
    });
    afterEach(() => f.remove());

    it('rejects supervision.restart.max_attempts: 0.0, a float where the schema says integer', () => {
      const end = 'routing: {priority: 10}';
      f.adapter(A0.replace(end, `${end}\nsupervision: {restart: {mode: none, max_attempts: 0.0, backoff_ms: 0}}`));
      const r = f.index();
      assert.deepEqual(r.item('adapters/review.yaml').detail.eva.evaReasons, ['schema_invalid']);
      assert.deepEqual(
        r.diagnostics('eva.schema.type').map((d) => d.message),
        ['schema type mismatch: expected integer, got number'],
      );
    });
  });
});

describe('Eva schema subset (eva.md §2.1)', () => {
  it('writes field paths dotted with [i] indexes from $', () => {
    assert.equal(fieldPath([]), '$');
    assert.equal(fieldPath(['a', 0, 'b']), '$.a[0].b');
  });

  it('refuses a schema node that is not an object, as upstream (`schema node must be an object`)', () => {
    for (const schema of [null, [{ type: 'string' }], true])
      assert.equal(firstSchemaError(schema, 1)?.message, 'schema node must be an object');
  });

  it('names every actual type in a type mismatch, a tagged value included', () => {
    const cases: [unknown, string][] = [
      [null, 'null'],
      [true, 'boolean'],
      [1, 'number'],
      ['s', 'string'],
      [[], 'array'],
      [new YamlTagged('!x', 's'), 'tagged'],
    ];
    for (const [value, actual] of cases)
      assert.equal(
        firstSchemaError({ type: 'object' }, value)?.message,
        `schema type mismatch: expected object, got ${actual}`,
      );
    assert.equal(firstSchemaError({ type: 'array' }, {})?.message, 'schema type mismatch: expected array, got object');
  });

  it('accepts an integer only when it is a whole number', () => {
    assert.equal(firstSchemaError({ type: 'integer' }, 3), undefined);
    assert.equal(firstSchemaError({ type: 'integer' }, 3.5)?.code, 'eva.schema.type');
    assert.equal(
      firstSchemaError({ type: 'integer' }, '3')?.message,
      'schema type mismatch: expected integer, got string',
    );
    assert.equal(firstSchemaError({ type: 'number' }, 3.5), undefined);
  });

  it('compares enum members as JSON values, objects included', () => {
    assert.equal(firstSchemaError({ enum: ['a', 1] }, 1), undefined);
    assert.equal(firstSchemaError({ enum: [{ a: 1 }] }, { a: 1 }), undefined);
    assert.equal(firstSchemaError({ enum: [{ a: 1 }] }, { a: 2 })?.code, 'eva.schema.enum');
    assert.equal(firstSchemaError({ enum: [null] }, {})?.code, 'eva.schema.enum');
    assert.equal(firstSchemaError({ enum: [{}] }, null)?.code, 'eva.schema.enum');
    assert.deepEqual(firstSchemaError({ enum: ['a'] }, 'b'), {
      code: 'eva.schema.enum',
      message: 'value is not allowed by schema enum',
      path: [],
      field: '$',
    });
  });

  it('checks the id pattern on strings only, anchored at both ends', () => {
    const id = { pattern: '^[a-zA-Z0-9][a-zA-Z0-9_.-]*$' };
    assert.equal(firstSchemaError(id, 'a.b-c_d'), undefined);
    assert.equal(firstSchemaError(id, 'a b')?.code, 'eva.schema.pattern');
    assert.equal(firstSchemaError(id, '_a')?.code, 'eva.schema.pattern');
    assert.equal(firstSchemaError(id, 5), undefined, 'a pattern does not apply to a number');
    assert.equal(firstSchemaError({ pattern: '^/.+' }, '/x'), undefined);
    assert.equal(firstSchemaError({ pattern: '^/.+' }, '/')?.code, 'eva.schema.pattern');
  });

  it("applies minProperties with upstream's message, at the boundary", () => {
    assert.deepEqual(firstSchemaError({ minProperties: 2 }, { a: 1 }), {
      code: 'eva.schema.type',
      message: 'object must contain at least 2 propertie(s)',
      path: [],
      field: '$',
    });
    assert.equal(firstSchemaError({ minProperties: 2 }, { a: 1, b: 2 }), undefined);
    assert.equal(firstSchemaError({ minProperties: 1 }, []), undefined, 'only mappings have properties');
  });

  it('reports a missing required field at its parent mapping, naming the field', () => {
    assert.deepEqual(firstSchemaError({ properties: { a: { required: ['b'] } } }, { a: {} }), {
      code: 'eva.schema.required',
      message: 'required field is missing',
      path: ['a'],
      field: '$.a.b',
      missing: 'b',
    });
    assert.equal(firstSchemaError({ required: ['a', 'b'] }, { a: 1, b: 2 }), undefined);
    assert.equal(firstSchemaError({ required: [1] }, {}), undefined, 'a non-string entry names no field');
  });

  it('checks properties recursively and skips absent ones', () => {
    const schema = { properties: { a: { type: 'string' }, b: { type: 'number' } } };
    assert.equal(firstSchemaError(schema, { b: 1 }), undefined);
    assert.deepEqual(firstSchemaError(schema, { a: 's', b: 'x' }), {
      code: 'eva.schema.type',
      message: 'schema type mismatch: expected number, got string',
      path: ['b'],
      field: '$.b',
    });
  });

  it('refuses unknown keys only under additionalProperties: false, at the unknown key', () => {
    const closed = { properties: { a: {} }, additionalProperties: false };
    assert.deepEqual(firstSchemaError(closed, { a: 1, z: 2 }), {
      code: 'eva.schema.additional',
      message: 'object contains a property not allowed by schema',
      path: ['z'],
      field: '$.z',
    });
    assert.equal(firstSchemaError(closed, { a: 1 }), undefined);
    // Upstream closes an object only beside `properties` (validate_additional_properties).
    assert.equal(firstSchemaError({ additionalProperties: false }, { z: 1 }), undefined);
    assert.equal(firstSchemaError({ properties: { a: {} }, additionalProperties: true }, { z: 1 }), undefined);
  });

  it('checks array items by index and stops at the first error', () => {
    assert.deepEqual(firstSchemaError({ items: { type: 'string' } }, ['a', 1, 2])?.path, [1]);
    assert.equal(firstSchemaError({ items: { type: 'string' } }, ['a', 'b']), undefined);
    // Tuple form: upstream evaluates each item against the list itself, which is not an object.
    assert.equal(firstSchemaError({ items: [{ type: 'string' }] }, [1])?.message, 'schema node must be an object');
    assert.equal(firstSchemaError({ items: [{ type: 'string' }] }, []), undefined);
  });
});

describe('Eva runtime gates (eva.md §3.4)', () => {
  const gate = (g: Partial<RuntimeGate>): RuntimeGate => ({
    allowedModes: ['normal'],
    disallowTeamWorker: false,
    requiresInteractiveUser: false,
    form: 'mapping',
    ...g,
  });

  it('assumes normal mode, not a team worker, non-interactive', () => {
    assert.deepEqual(DEFAULT_EVA_RUNTIME, { mode: 'normal', teamWorker: false, interactiveUser: false });
  });

  it('admits a runtime only when its mode is allowed and neither flag excludes it', () => {
    const rt = (mode: string, teamWorker: boolean, interactiveUser: boolean) => ({ mode, teamWorker, interactiveUser });
    assert.equal(gateAdmits(gate({}), rt('normal', false, false)), true);
    assert.equal(gateAdmits(gate({}), rt('team', false, false)), false);
    assert.equal(gateAdmits(gate({ disallowTeamWorker: true }), rt('normal', true, false)), false);
    assert.equal(gateAdmits(gate({ disallowTeamWorker: true }), rt('normal', false, false)), true);
    assert.equal(gateAdmits(gate({}), rt('normal', true, false)), true, 'a team worker is fine unless disallowed');
    assert.equal(gateAdmits(gate({ requiresInteractiveUser: true }), rt('normal', false, false)), false);
    assert.equal(gateAdmits(gate({ requiresInteractiveUser: true }), rt('normal', false, true)), true);
    assert.equal(gateAdmits(gate({}), rt('normal', false, true)), true);
  });

  it('writes a gate as declared: the mode of a string gate, the mapping with its flags', () => {
    assert.equal(gateText(gate({ form: 'string', allowedModes: ['team'] })), 'team');
    assert.equal(gateText(gate({ allowedModes: ['normal', 'team'] })), '{allowed_modes: [normal, team]}');
    assert.equal(
      gateText(gate({ disallowTeamWorker: true, requiresInteractiveUser: true })),
      '{allowed_modes: [normal], disallow_team_worker, requires_interactive_user}',
    );
    assert.equal(
      gateText(gate({ requiresInteractiveUser: true })),
      '{allowed_modes: [normal], requires_interactive_user}',
    );
  });

  it('writes the runtime with both flags', () => {
    assert.equal(
      runtimeText({ mode: 'team', teamWorker: true, interactiveUser: false }),
      'team, team worker: true, interactive: false',
    );
  });
});

describe('Eva named paths (eva.md §3.5)', () => {
  let f: Fixture;
  let project: string;
  let home: string;
  beforeEach(() => {
    f = new Fixture();
    project = f.mkdir('ws');
    home = f.mkdir('home');
    f.mkdir('home/.codex/skills');
  });
  afterEach(() => f.remove());

  const roots = () => [allowedRoot(project), allowedRoot(path.join(home, '.codex', 'skills'))];

  it('joins a relative path to the project root and shows it project-relative', () => {
    f.write('ws/config/skills/a.lua', 'x');
    const p = resolveNamedPath('config/skills/a.lua', project, home, roots());
    assert.deepEqual(p, {
      declared: 'config/skills/a.lua',
      resolved: path.join(project, 'config/skills/a.lua'),
      real: path.join(project, 'config/skills/a.lua'),
      display: 'config/skills/a.lua',
      exists: true,
      allowed: true,
      viaSymlink: false,
    });
  });

  it('allows a missing path inside a root, and names the project root itself "."', () => {
    const missing = resolveNamedPath('nothing/here', project, home, roots());
    assert.deepEqual([missing.exists, missing.allowed, missing.real], [false, true, null]);
    assert.equal(resolveNamedPath('.', project, home, roots()).display, '.');
  });

  it('takes a path through a regular file (ENOTDIR) as missing: nothing is there, nothing escapes', () => {
    f.write('ws/config/eva.yaml', 'x');
    const p = resolveNamedPath('config/eva.yaml/SKILL.md', project, home, roots());
    assert.deepEqual([p.exists, p.allowed, p.viaSymlink, p.real], [false, true, false, null]);
    const outside = resolveNamedPath('../ws/config/eva.yaml/../../../x', project, home, roots());
    assert.deepEqual([outside.allowed, outside.viaSymlink], [false, false]);
  });

  it('refuses a lexical escape with `..`, showing the absolute path', () => {
    f.write('outside/x.md', 'x');
    const p = resolveNamedPath('../outside/x.md', project, home, roots());
    assert.deepEqual([p.allowed, p.viaSymlink, p.display], [false, false, path.join(f.root, 'outside/x.md')]);
  });

  it('refuses a path whose real path escapes through a link, saying so', () => {
    f.write('outside/x.md', 'x');
    f.symlink(f.path('outside/x.md'), 'ws/link.md');
    const p = resolveNamedPath('link.md', project, home, roots());
    assert.deepEqual([p.exists, p.allowed, p.viaSymlink], [true, false, true]);
    assert.equal(p.real, f.path('outside/x.md'));
  });

  it('refuses a dangling link (its real path cannot be found): fail closed', () => {
    f.symlink(f.path('nowhere'), 'ws/dangling.md');
    const p = resolveNamedPath('dangling.md', project, home, roots());
    assert.deepEqual([p.exists, p.allowed], [false, false]);
  });

  it('expands ~/ against home, shows it as ~/…, and allows it under a user skill root', () => {
    f.write('home/.codex/skills/r/SKILL.md', 'x');
    const p = resolveNamedPath('~/.codex/skills/r/SKILL.md', project, home, roots());
    assert.deepEqual(
      [p.resolved, p.display, p.exists, p.allowed],
      [path.join(home, '.codex/skills/r/SKILL.md'), '~/.codex/skills/r/SKILL.md', true, true],
    );
    const elsewhere = resolveNamedPath('~/notes.md', project, home, roots());
    assert.deepEqual([elsewhere.display, elsewhere.allowed], ['~/notes.md', false]);
    assert.equal(resolveNamedPath('~', project, home, roots()).resolved, home);
  });

  it('cannot resolve ~user/… nor ~/ without a home: refused', () => {
    for (const [declared, h] of [
      ['~root/x', home],
      ['~/x', null],
    ] as const) {
      const p = resolveNamedPath(declared, project, h, roots());
      assert.deepEqual(p, {
        declared,
        resolved: null,
        real: null,
        display: declared,
        exists: false,
        allowed: false,
        viaSymlink: false,
      });
    }
  });

  it('shows a path outside the project absolute when there is no home', () => {
    const p = resolveNamedPath('../x.md', project, null, roots());
    assert.deepEqual([p.display, p.allowed], [f.path('x.md'), false]);
  });

  it('compares against the real path of a root reached through a link', () => {
    f.write('real/x.lua', 'x');
    const linked = f.symlink(f.path('real'), 'linkroot');
    const p = resolveNamedPath('x.lua', linked, home, [allowedRoot(linked)]);
    assert.deepEqual([p.exists, p.allowed], [true, true]);
    assert.deepEqual(allowedRoot(linked), { root: linked, real: f.path('real') });
    assert.deepEqual(allowedRoot(f.path('none')), { root: f.path('none'), real: f.path('none') });
  });
});

describe('Eva schema subset: what it does not evaluate', () => {
  it('applies a pattern to strings only, and only a string pattern', () => {
    assert.equal(firstSchemaError({ pattern: '^/.+' }, 5), undefined, 'a number is not matched against a pattern');
    assert.equal(firstSchemaError({ pattern: '^/.+' }, 'rel/x')?.code, 'eva.schema.pattern', 'anchored at the start');
    assert.equal(firstSchemaError({ pattern: ['^/.+'] }, 'rel'), undefined, 'a pattern that is not a string');
  });

  it('applies minProperties only when it is a number', () => {
    assert.equal(firstSchemaError({ minProperties: '2' }, { a: 1 }), undefined);
  });

  it('applies required, properties and additionalProperties to mappings only', () => {
    assert.equal(firstSchemaError({ required: ['a'] }, []), undefined);
    assert.equal(firstSchemaError({ additionalProperties: false }, ['x']), undefined);
    assert.equal(firstSchemaError({ required: ['length'] }, 'abc'), undefined);
  });

  it('applies items to arrays only', () => {
    assert.equal(firstSchemaError({ items: { type: 'number' } }, 'ab'), undefined);
  });

  it('tells NaN and Infinity from null in an enum (JSON would not)', () => {
    assert.equal(firstSchemaError({ enum: [null] }, Number.NaN)?.code, 'eva.schema.enum');
    assert.equal(firstSchemaError({ enum: [null] }, Number.POSITIVE_INFINITY)?.code, 'eva.schema.enum');
    assert.equal(firstSchemaError({ enum: [Number.NaN] }, null)?.code, 'eva.schema.enum');
  });
});

describe('Eva reasons (eva.md §4.1)', () => {
  it('maps each reason to the decision it implies', () => {
    assert.deepEqual(
      { ...EVA_REASONS },
      {
        registered: 'registered',
        schema_invalid: 'rejected',
        manifest_too_large: 'rejected',
        path_not_allowed: 'rejected',
        script_missing: 'rejected',
        capability_missing_schema: 'rejected',
        policy_denied: 'rejected',
        disabled_by_manifest: 'disabled',
        manifest_required: 'display_only',
        trust_level_unknown: 'display_only',
        runtime_worker_display_only: 'display_only',
        runtime_gate_mismatch: 'display_only',
        capability_unknown: 'display_only',
        scan_limit_exceeded: 'display_only',
        duplicate_id_shadowed: 'shadowed',
        bundle_inactive: 'disabled',
      },
    );
  });
});
