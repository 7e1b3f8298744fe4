import * as assert from 'node:assert/strict';
import { firstSchemaError } from '../../src/core/systems/eva/schemaSubset';
import { EMBEDDED_SCHEMAS } from '../../src/core/systems/eva/schemas';
import { capabilityNameError, identifierError, textFieldError } from '../../src/core/systems/eva/ids';
import { parseEvaYaml } from '../../src/core/systems/eva/yamlDocument';

/** The upstream schema subset (eva.md §2.1) and eva-core's identifier rules (§2.7). */

function value(text: string): unknown {
  const r = parseEvaYaml('/x.yaml', text);
  if (!r.ok) throw new Error(r.message);
  return r.document.value;
}

const ADAPTER =
  'id: a\nname: A\nversion: 1.0.0\nenabled: true\ntransport: stdio\ncapabilities: [x.y]\npermissions: {}\nlimits: {}\nrouting: {}\n';

describe('Eva schema subset', () => {
  it('accepts a conforming adapter against the embedded upstream schema', () => {
    assert.equal(firstSchemaError(EMBEDDED_SCHEMAS.adapter, value(ADAPTER)), undefined);
  });

  it('checks type before anything else, naming the actual type', () => {
    assert.deepEqual(firstSchemaError(EMBEDDED_SCHEMAS.adapter, value('')), {
      code: 'eva.schema.type',
      message: 'schema type mismatch: expected object, got null',
      path: [],
      field: '$',
    });
  });

  it('reports the first missing required key in schema order', () => {
    const e = firstSchemaError(
      EMBEDDED_SCHEMAS.adapter,
      value(ADAPTER.replace('name: A\n', '').replace('routing: {}\n', '')),
    );
    assert.deepEqual([e?.code, e?.field], ['eva.schema.required', '$.name']);
  });

  it('checks required before properties, and properties in schema order', () => {
    const e = firstSchemaError(
      EMBEDDED_SCHEMAS.adapter,
      value(ADAPTER.replace('enabled: true', 'enabled: "true"').replace('id: a', 'id: -a')),
    );
    assert.deepEqual([e?.code, e?.field], ['eva.schema.pattern', '$.id']);
  });

  it("checks enum with upstream's message", () => {
    const e = firstSchemaError(EMBEDDED_SCHEMAS.adapter, value(ADAPTER.replace('transport: stdio', 'transport: grpc')));
    assert.deepEqual([e?.message, e?.field], ['value is not allowed by schema enum', '$.transport']);
  });

  it('indexes array items as [i]', () => {
    const e = firstSchemaError(EMBEDDED_SCHEMAS.adapter, value(ADAPTER.replace('[x.y]', '[x.y, 3]')));
    assert.deepEqual(
      [e?.message, e?.field, e?.path],
      ['schema type mismatch: expected string, got number', '$.capabilities[1]', ['capabilities', 1]],
    );
  });

  it('refuses a property a closed object does not allow, and checks integer', () => {
    const extra = firstSchemaError(
      EMBEDDED_SCHEMAS.adapter,
      value(ADAPTER + 'supervision: {restart: {mode: none, jitter: 1}}\n'),
    );
    assert.deepEqual([extra?.code, extra?.field], ['eva.schema.additional', '$.supervision.restart.jitter']);
    const integer = firstSchemaError(
      EMBEDDED_SCHEMAS.adapter,
      value(ADAPTER + 'supervision: {restart: {mode: none, max_attempts: 1.5}}\n'),
    );
    assert.equal(integer?.message, 'schema type mismatch: expected integer, got number');
  });

  it('does not evaluate oneOf, allOf or schema-valued additionalProperties (upstream ignores them)', () => {
    const mcp = 'mcp: {server_transport: stdio, headers: {a: 1}, http: {client_auth: 5}}\n';
    assert.equal(
      firstSchemaError(EMBEDDED_SCHEMAS.adapter, value(ADAPTER.replace('transport: stdio', 'transport: mcp') + mcp)),
      undefined,
    );
  });

  it("knows only upstream's two patterns, and refuses a string under any other", () => {
    assert.equal(
      firstSchemaError({ type: 'string', pattern: '^a$' }, 'a')?.message,
      'schema pattern is not supported by eva-config validator',
    );
    assert.equal(
      firstSchemaError({ type: 'string', pattern: '^/.+' }, 'rel')?.message,
      'string does not match schema pattern',
    );
  });

  it('applies minProperties (policy documents)', () => {
    assert.equal(firstSchemaError(EMBEDDED_SCHEMAS.policy, value('{}'))?.code, 'eva.schema.type');
    assert.equal(firstSchemaError(EMBEDDED_SCHEMAS.policy, value('a: 1')), undefined);
  });
});

describe('Eva schema subset: keys that are not strings, schema nodes that are not objects', () => {
  it('does not find a required field under a tagged or numeric key (serde_yaml looks fields up by string)', () => {
    assert.deepEqual(firstSchemaError(EMBEDDED_SCHEMAS.adapter, value(ADAPTER.replace('id: a', '!k id: a'))), {
      code: 'eva.schema.required',
      message: 'required field is missing',
      path: [],
      field: '$.id',
      missing: 'id',
    });
    const schema = { type: 'object', required: ['1'], properties: { '1': { type: 'string' } } };
    assert.equal(firstSchemaError(schema, value('1: 5'))?.message, 'required field is missing');
    assert.equal(firstSchemaError(schema, value('"1": x')), undefined);
  });

  it('refuses a key that is not a string in a closed object, at the object, and counts it', () => {
    const closed = value(ADAPTER + 'supervision: {1: x}\n');
    assert.deepEqual(firstSchemaError(EMBEDDED_SCHEMAS.adapter, closed), {
      code: 'eva.schema.additional',
      message: 'object contains a non-string property name',
      path: ['supervision'],
      field: '$.supervision',
    });
    // A string key takes the record's name; the number key written the same way still counts.
    const both = value('"1": a\n1: b\n');
    assert.equal(firstSchemaError({ minProperties: 2 }, both), undefined);
    assert.equal(
      firstSchemaError({ properties: { '1': {} }, additionalProperties: false }, both)?.message,
      'object contains a non-string property name',
    );
  });

  it('refuses a schema node that is not an object where the value reaches it', () => {
    const schema = { type: 'object', properties: { foo: true }, items: 1 };
    assert.deepEqual(firstSchemaError(schema, value('foo: 1')), {
      code: 'eva.schema.type',
      message: 'schema node must be an object',
      path: ['foo'],
      field: '$.foo',
    });
    assert.equal(firstSchemaError(schema, value('bar: 1')), undefined);
    assert.equal(firstSchemaError({ items: true }, value('[1]'))?.message, 'schema node must be an object');
    assert.equal(firstSchemaError({ items: true }, value('[]')), undefined);
  });

  // serde_yaml 0.9's `as_str`/`as_mapping`/`as_sequence`/`as_bool`/`as_i64`/`as_f64` look through a
  // tag (`untag_ref`); upstream's `null` check, `enum` and `required`'s key lookup do not.
  it('reads a tagged value through its tag, as upstream does, except for null and enum', () => {
    const at = (schema: unknown, text: string) => firstSchemaError(schema, value(text))?.message;
    assert.equal(firstSchemaError(EMBEDDED_SCHEMAS.adapter, value(ADAPTER.replace('id: a', 'id: !t a'))), undefined);
    assert.equal(firstSchemaError(EMBEDDED_SCHEMAS.adapter, value(`--- !t\n${ADAPTER}`)), undefined);
    for (const [type, text] of [
      ['object', '!t {a: 1}'],
      ['array', '!t [1]'],
      ['string', '!t x'],
      ['boolean', '!t true'],
      ['number', '!t 1.5'],
      ['integer', '!t 7'],
    ] as const)
      assert.equal(at({ type }, text), undefined, `${type} ${text}`);
    assert.equal(at({ type: 'null' }, '!t ~'), 'schema type mismatch: expected null, got tagged');
    assert.equal(at({ type: 'string' }, '!t 5'), 'schema type mismatch: expected string, got tagged');
    assert.equal(at({ enum: ['x'] }, '!t x'), 'value is not allowed by schema enum');
    assert.equal(at({ pattern: '^/.+' }, '!t rel'), 'string does not match schema pattern');
    assert.equal(at({ minProperties: 2 }, '!t {a: 1}'), 'object must contain at least 2 propertie(s)');
    assert.equal(at({ required: ['b'] }, '!t {a: 1}'), 'required field is missing');
    assert.equal(
      at({ properties: { a: { type: 'string' } } }, '!t {a: 1}'),
      'schema type mismatch: expected string, got number',
    );
    assert.equal(at({ items: { type: 'string' } }, '!t [x, 1]'), 'schema type mismatch: expected string, got number');
  });

  it('takes a tagged key as no string key for required and properties, but as its string for additionalProperties', () => {
    const closed = { properties: { id: { type: 'number' } }, additionalProperties: false };
    const at = (schema: unknown, text: string) => firstSchemaError(schema, value(text))?.message;
    assert.equal(at({ required: ['id'] }, '!t id: x\n'), 'required field is missing');
    // A tag that is not local (`!!js/x`) makes no tagged value to serde_yaml: that key is the string `id`.
    assert.equal(at({ required: ['id'] }, '!!js/x id: x\n'), undefined);
    // `properties` looks `id` up as a string key: the tagged key's string value is not checked.
    assert.equal(at(closed, '!t id: x\n'), undefined);
    assert.equal(at(closed, '!t other: x\n'), 'object contains a property not allowed by schema');
    assert.equal(at(closed, '!t 1: x\n'), 'object contains a non-string property name');
    // Beside a string key of the same name, the tagged one is still the allowed string `id`.
    assert.equal(at(closed, 'id: 1\n!t id: x\n'), undefined);
    assert.equal(at(closed, 'id: 1\n1: x\n'), 'object contains a non-string property name');
  });
});

describe('Eva identifier rules', () => {
  it('checks identifiers in upstream order with upstream messages', () => {
    assert.equal(identifierError(''), 'identifier cannot be empty');
    assert.equal(identifierError(' a'), 'identifier cannot contain leading or trailing whitespace');
    assert.equal(identifierError('a'.repeat(129)), 'identifier is too long');
    assert.equal(identifierError('a'.repeat(128)), undefined);
    assert.equal(identifierError('a/b'), 'identifier cannot contain path separators');
    assert.equal(identifierError('a b'), "identifier may only contain ASCII letters, digits, '.', '_', '-', and ':'");
    assert.equal(identifierError('ns:a.b_c-d'), undefined);
  });

  it('checks capability names segment by segment', () => {
    assert.equal(capabilityNameError(''), 'capability name cannot be empty');
    assert.equal(capabilityNameError('a. '), 'capability name cannot contain leading or trailing whitespace');
    assert.equal(capabilityNameError('workflow..review'), 'capability name cannot contain empty segments');
    assert.equal(
      capabilityNameError('workflow.re:view'),
      "capability segments may only contain ASCII letters, digits, '_', and '-'",
    );
    assert.equal(capabilityNameError('workflow.code_review'), undefined);
  });

  it('reports the first bad segment, left to right, as upstream walks them', () => {
    // capability.rs checks each segment in turn: a bad character before an empty segment wins.
    const chars = "capability segments may only contain ASCII letters, digits, '_', and '-'";
    assert.equal(capabilityNameError('r\u00e9..x'), chars);
    assert.equal(capabilityNameError('\ufeff.'), chars);
    assert.equal(capabilityNameError('a..r\u00e9'), 'capability name cannot contain empty segments');
  });

  it('checks name and version text', () => {
    assert.equal(textFieldError(''), 'required field cannot be empty');
    assert.equal(textFieldError('1.0 '), 'field cannot contain leading or trailing whitespace');
  });
});
