import * as assert from 'node:assert/strict';
import { A0, EvaFixture } from './helpers/evaFixture';
import { fieldPath, firstSchemaError } from '../../src/core/systems/eva/schemaSubset';
import { checkSkillAdapter } from '../../src/core/systems/eva/skillAdapterContract';
import { parseEvaYaml } from '../../src/core/systems/eva/yamlDocument';

const TAG = 'untagged and internally tagged enums do not support enum input';

/**
 * How each of Eva's two stages names a field (eva.md §2.1). The typed loader's serde_yaml writes
 * path.rs: a key by its scalar's text as libyaml gives it (`0x10`, `~`, the empty key), `?` under
 * a key that is no scalar (a collection, an alias), and error.rs leaves out only the root's `.`:
 * an empty key at the root is a path of its own (`: …`). The schema validator (schema.rs
 * `FieldPath`) keeps the text after its root, where an empty property at the root is the root.
 */
describe('Eva field paths as upstream writes them (eva.md §2.1)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  const refusal = (extra: string): [string, string[]] => {
    f.adapter(A0.replace('limits: {timeout_ms: 60000}', 'limits: {timeout_ms: 60000}\n' + extra));
    const r = f.index();
    return [
      r.item('adapters/review.yaml').decision,
      r
        .diagnostics()
        .filter((d) => d.severity === 'error')
        .map((d) => d.message),
    ];
  };

  it('names a buffered key by its scalar text, `?` for a collection or alias key, and keeps an empty key', () => {
    for (const [extra, field] of [
      ['"": !t 1\n', ''],
      ['"": {x: !t 1}\n', '.x'],
      ['"": [!t 1]\n', '[0]'],
      ['m: {"": {"": !t 1}}\n', 'm..'],
      ['m: {? : !t 1}\n', 'm.'],
      ['m: {~: !t 1}\n', 'm.~'],
      ['m: {NULL: !t 1}\n', 'm.NULL'],
      ['m: {0x10: !t 1}\n', 'm.0x10'],
      ['m: {1.0: !t 1}\n', 'm.1.0'],
      ['m: {.inf: !t 1}\n', 'm..inf'],
      ['m: {True: !t 1}\n', 'm.True'],
      ['m: {+1: !t 1}\n', 'm.+1'],
      ["m: {'a.b': !t 1}\n", 'm.a.b'],
      ['m: {[a]: !t 1}\n', 'm.?'],
      ['m: {{a: 1}: !t 1}\n', 'm.?'],
      ['k: &k x\nm: {*k : !t 1}\n', 'm.?'],
    ] as const) {
      assert.deepEqual(refusal(extra), ['rejected', [`failed to parse YAML: ${field}: ${TAG}`]], extra);
    }
  });

  it('finds a tag under a key whose record name a string key took (`"1"` and `1` are two keys)', () => {
    for (const [extra, field] of [
      ['m: {"1": 2, 1: !t 1}\n', 'm.1'],
      ['m: {"1": 2, 1: {a: !t 1}}\n', 'm.1.a'],
      ['m: {"true": 2, true: [!t 1]}\n', 'm.true[0]'],
    ] as const) {
      assert.deepEqual(refusal(extra), ['rejected', [`failed to parse YAML: ${field}: ${TAG}`]], extra);
    }
  });

  it('writes the schema stage as schema.rs FieldPath: an empty property at the root is the root', () => {
    assert.equal(fieldPath(['']), '$');
    assert.equal(fieldPath(['', 'x']), '$.x');
    assert.equal(fieldPath(['', 0]), '$[0]');
    assert.equal(fieldPath(['a', '']), '$.a.');
    assert.equal(fieldPath([0, 'a']), '$[0].a');
    assert.equal(fieldPath(['$a', 0]), '$.$a[0]');
    const required = firstSchemaError({ type: 'object', required: [''] }, { a: 1 });
    assert.deepEqual([required?.message, required?.field], ['required field is missing', '$']);
  });

  it('points a missing required key that holds a dot at the mapping, not at a key named by its last part', () => {
    // A project's own schema (schema_dir) may require any name.
    const parsed = parseEvaYaml('/p/config/adapters/x.yaml', 'm:\n  y: 1\n');
    assert.ok(parsed.ok);
    const schema = { type: 'object', properties: { m: { type: 'object', required: ['x.y'] } } };
    const [d] = checkSkillAdapter(parsed.document, schema).diagnostics;
    assert.deepEqual([d?.message, d?.range.start.line], ['required field is missing: $.m.x.y', 0]);
  });
});
