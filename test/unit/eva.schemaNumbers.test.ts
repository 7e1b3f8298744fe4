import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readSchemaObject } from '../../src/core/systems/eva/schemas';
import { firstSchemaError } from '../../src/core/systems/eva/schemaSubset';
import { YamlFloat } from '../../src/core/systems/eva/yamlScalars';
import { A0, CORPUS, EvaFixture } from './helpers/evaFixture';

/**
 * A project's JSON schema read as upstream's `read_schema` reads it, with serde_yaml (eva.md §2.1):
 * `1.0` and `1e2` are floats there, never integers as JSON.parse makes them. The schema subset reads
 * `minProperties` with `as_u64` (a float bound is no bound) and compares `enum` entries as serde_yaml
 * values (an integer never equals a float).
 */
describe("Eva schema numbers as serde_yaml reads a project's schema file", () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture();
  });
  afterEach(() => f.remove());

  const schemaOf = (text: string): unknown => {
    const read = readSchemaObject(f.write('s.json', text));
    assert.ok(read.ok, JSON.stringify(read));
    return read.value;
  };

  it('skips a minProperties written as a float, applies one written as an integer', () => {
    for (const bound of ['2.0', '2e0', '2E0', '0.2e1'])
      assert.equal(firstSchemaError(schemaOf(`{"minProperties": ${bound}}`), { a: 1 }), undefined, bound);
    assert.equal(
      firstSchemaError(schemaOf('{"minProperties": 2}'), { a: 1 })?.message,
      'object must contain at least 2 propertie(s)',
    );
  });

  it('compares an enum entry written as a float unequal to an integer value, and equal to a float one', () => {
    assert.equal(firstSchemaError(schemaOf('{"enum": [10.0]}'), 10)?.message, 'value is not allowed by schema enum');
    assert.equal(firstSchemaError(schemaOf('{"enum": [1e1]}'), 10)?.message, 'value is not allowed by schema enum');
    assert.equal(firstSchemaError(schemaOf('{"enum": [10]}'), 10), undefined);
    assert.equal(firstSchemaError(schemaOf('{"enum": [10.0]}'), new YamlFloat(10)), undefined);
  });

  it('still refuses a schema node that is a number, or a schema file that is one', () => {
    assert.equal(
      firstSchemaError(schemaOf('{"properties": {"id": 1.5}}'), { id: 'x' })?.message,
      'schema node must be an object',
    );
    assert.deepEqual(readSchemaObject(f.write('n.json', '1.5')), {
      ok: false,
      missing: false,
      message: 'schema file must contain a JSON object',
    });
  });

  describe("through a project's schema_dir", () => {
    /** The upstream adapter schema with `edit` applied to its text. */
    const adapterSchema = (edit: (text: string) => string) => {
      const text = fs.readFileSync(path.join(CORPUS, 'config/schemas/adapter.schema.json'), 'utf8');
      const edited = edit(text);
      assert.notEqual(edited, text, 'the case must change the schema');
      f.write('ws/config/schemas/adapter.schema.json', edited);
    };

    it('registers A0 under a minProperties Eva does not read (100.0)', () => {
      f.p0();
      f.adapter(A0);
      adapterSchema((t) => t.replace('"type": "object",', '"type": "object", "minProperties": 100.0,'));
      const item = f.index().item('adapters/review.yaml');
      assert.deepEqual([item.detail.eva.evaDecision, item.detail.eva.evaReasons], ['registered', ['registered']]);
    });

    it('rejects A0 whose routing.priority 10 is not the float 10.0 an enum allows', () => {
      f.p0();
      f.adapter(A0);
      adapterSchema((t) =>
        t.replace(/("routing": \{[^}]*"type": "object")/, '$1, "properties": {"priority": {"enum": [10.0]}}'),
      );
      const r = f.index();
      assert.deepEqual(r.item('adapters/review.yaml').detail.eva.evaReasons, ['schema_invalid']);
      assert.equal(r.diagnostics('eva.schema.enum')[0]?.message, 'value is not allowed by schema enum');
    });
  });
});
