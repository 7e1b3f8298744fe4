import * as assert from 'node:assert/strict';
import { parsedYaml as ok, yamlError as fails } from './helpers/evaYaml';
import { readSchemaObject } from '../../src/core/systems/eva/schemas';
import { ownRecordOf } from '../../src/core/documents/ownRecord';
import { Fixture } from './helpers/fixture';

/**
 * libyaml (serde_yaml 0.9's scanner, eva.md §2.1) refuses a `\u`/`\U` escape of a
 * surrogate code point in a double-quoted scalar, even one half of a pair: "found invalid
 * Unicode character escape code", at the escape's first hex digit. The yaml library
 * decoded it to a lone surrogate, which Skillgate then took for the byte 0x80–0xFF of a
 * file name (rawNames.ts): a manifest Eva-CLI cannot parse, and so refuses the whole
 * project over, was registered and named a file by bytes its text never spelled.
 * Positions below are libyaml's own (PyYAML's CSafeLoader on the same texts).
 */
describe('Eva YAML: a surrogate escape is a parse error, as libyaml scans it', () => {
  const message = (line: number, column: number) =>
    `failed to parse YAML: found invalid Unicode character escape code at line ${line} column ${column}`;

  it('refuses a lone surrogate escape in a value or a key, at its first hex digit', () => {
    assert.equal(fails('name: "a\\udcff"\n').message, message(1, 11));
    assert.equal(fails('k: "\\U0000DCFF"\n').message, message(1, 7));
    assert.equal(fails('"\\udcff": 1\n').message, message(1, 4));
    assert.equal(fails('k: [ "ok", {"\\udc80": 1} ]\n').message, message(1, 16));
    assert.equal(fails('k: "a\\\n  \\udcff"\n').message, message(2, 5));
  });

  it('refuses a surrogate pair written as two escapes (libyaml checks each escape alone)', () => {
    assert.equal(fails('x: 1\nname: "\\ud83d\\ude00"\n').message, message(2, 10));
  });

  it('reports the first of a refused escape and a later syntax error', () => {
    assert.equal(fails('a: "\\ud800"\nb: [\n').message, message(1, 7));
  });

  it('keeps text that only looks like an escape, and valid escapes', () => {
    const value = (text: string) => (ok(text).value as Record<string, unknown>)['k'];
    assert.equal(value("k: '\\udcff'\n"), '\\udcff');
    assert.equal(value('k: a\\udcff\n'), 'a\\udcff');
    assert.equal(value('k: "\\\\udcff"\n'), '\\udcff');
    assert.equal(value('k: |\n  \\udcff\n'), '\\udcff\n');
    assert.equal(value('k: "\\u00e9 \\U0001F600 \\x41"\n'), 'é 😀 A');
    assert.equal(value('k: "a" # "\\udcff"\n'), 'a');
  });

  it('refuses a JSON schema file with one: upstream reads schema files with the same YAML parser (eva.md §2.5)', () => {
    const f = new Fixture();
    try {
      const schema = (text: string) => readSchemaObject(f.write('s.json', text));
      assert.deepEqual(schema('{"type":"object","description":"\\udcff"}'), {
        ok: false,
        missing: false,
        message: 'failed to parse JSON Schema',
      });
      assert.deepEqual(schema('{"type":"object","description":"\\\\udcff \\u00e9"}'), {
        ok: true,
        // serde_yaml's mapping, as every Eva YAML value is: no prototype.
        value: ownRecordOf(Object.entries({ type: 'object', description: '\\udcff é' })),
      });
    } finally {
      f.remove();
    }
  });
});
