import * as assert from 'node:assert/strict';
import { A0, EvaFixture } from './helpers/evaFixture';
import { parsedYaml as ok, yamlError as fails } from './helpers/evaYaml';
import { YamlFloat } from '../../src/core/systems/eva/yamlScalars';

/**
 * Scalars typed as serde_yaml 0.9 types them (de.rs `visit_untagged_scalar`, `visit_int`,
 * `parse_f64`, `digits_but_not_number`; eva.md §2.1), not by the YAML 1.2 core schema.
 */

/** The value of each scalar text, read as the value of a one-key mapping. */
function values(...texts: string[]): unknown[] {
  return texts.map((t) => (ok(`v: ${t}\n`).value as Record<string, unknown>)['v']);
}

describe('Eva YAML scalars as serde_yaml 0.9 types them', () => {
  it('keeps a leading zero followed by digits a string; 0 and -0 are the integer 0', () => {
    assert.deepEqual(values('012', '00', '-012', '+00', '0', '-0', '+0'), ['012', '00', '-012', '+00', 0, 0, 0]);
    assert.deepEqual(values('00.5', '012e1'), [new YamlFloat(0.5), new YamlFloat(120)]);
  });

  it('reads text that overflows a float as a string, and only .inf/.nan spellings as infinite or NaN', () => {
    assert.deepEqual(values('1e400', '-1e400', 'inf', 'nan', 'Infinity', '+.nan', '-.nan', '.Nan'), [
      '1e400',
      '-1e400',
      'inf',
      'nan',
      'Infinity',
      '+.nan',
      '-.nan',
      '.Nan',
    ]);
    assert.deepEqual(values('.inf', '+.Inf', '-.INF', '.NaN'), [
      new YamlFloat(Number.POSITIVE_INFINITY),
      new YamlFloat(Number.POSITIVE_INFINITY),
      new YamlFloat(Number.NEGATIVE_INFINITY),
      new YamlFloat(Number.NaN),
    ]);
  });

  it('reads 0x, 0o and 0b integers with an optional sign; anything else near them is a string', () => {
    assert.deepEqual(values('0b11', '-0x10', '+0x1', '0o17', '-0b101', '0xFF', '0x0'), [3, -16, 1, 15, -5, 255, 0]);
    assert.deepEqual(values('0XFF', '0x', '0x+1', '-0x-1', '+-1', '1_000', '0b12', '12:30'), [
      '0XFF',
      '0x',
      '0x+1',
      '-0x-1',
      '+-1',
      '1_000',
      '0b12',
      '12:30',
    ]);
  });

  it('tells an integer from a float: 1 is an integer, 1.0, 1. and 1e3 are floats', () => {
    assert.deepEqual(values('1', '-7', '1.0', '1.', '.5', '1e3', '+1.5E-1'), [
      1,
      -7,
      new YamlFloat(1),
      new YamlFloat(1),
      new YamlFloat(0.5),
      new YamlFloat(1000),
      new YamlFloat(0.15),
    ]);
  });

  it('reads only ~, null, Null, NULL and nothing as null, and three spellings each of true and false', () => {
    assert.deepEqual(values('~', 'null', 'Null', 'NULL', '', 'nULL'), [null, null, null, null, null, 'nULL']);
    assert.deepEqual(values('true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'tRUE', 'yes'), [
      true,
      true,
      true,
      false,
      false,
      false,
      'tRUE',
      'yes',
    ]);
  });

  it('keeps quoted and block scalars strings', () => {
    assert.deepEqual(values('"012"', "'true'", '"1"', "'~'", '|\n  5'), ['012', 'true', '1', '~', '5\n']);
  });

  it('reads integers of u64 and i64 as numbers; wider ones fail as serde_yaml fails them; longer ones are floats', () => {
    assert.deepEqual(
      values('18446744073709551615', '-9223372036854775808'),
      [18446744073709551615, -9223372036854775808],
    );
    assert.equal(
      fails('v: 18446744073709551616\n').message,
      'failed to parse YAML: invalid type: integer `18446744073709551616` as u128, expected any YAML value at line 1 column 4',
    );
    assert.equal(
      fails('v: -0x8000000000000001\n').message,
      'failed to parse YAML: invalid type: integer `-9223372036854775809` as i128, expected any YAML value at line 1 column 4',
    );
    assert.deepEqual(values('1'.repeat(40)), [new YamlFloat(Number('1'.repeat(40)))]);
  });

  it('types a core-tagged scalar by its tag alone, refusing text that does not fit it', () => {
    assert.deepEqual(values('!!float 012', '!!float 1', '!!str 012', '!!int "0x10"', '!!null ~'), [
      new YamlFloat(12),
      new YamlFloat(1),
      '012',
      16,
      null,
    ]);
    // The column is the scalar's text (libyaml's mark is at the tag before it): the line is what matters.
    assert.match(
      fails('v: !!int abc\n').message,
      /^failed to parse YAML: invalid value: string "abc", expected an integer at line 1 column/,
    );
    assert.match(fails('v: !!bool yes\n').message, /invalid value: string "yes", expected a boolean/);
    assert.match(fails('v: !!float 0x10\n').message, /invalid value: string "0x10", expected a float/);
    assert.match(fails('v: !!null ""\n').message, /invalid value: string "", expected null/);
  });
});

describe('Eva YAML keys equal as serde_yaml values are equal', () => {
  it('refuses two keys that are the same string, however written', () => {
    assert.equal(
      fails('x: {012: a, "012": b}\n').message,
      'failed to parse YAML: x: duplicate entry with key "012" at line 1 column 4',
    );
    // The key as serde_yaml's `Value` displays it (mapping.rs `DuplicateKeyError`).
    for (const [text, key] of [
      ['{0x10: a, 16: b}', 'with key 16'],
      ['{.nan: a, .NaN: b}', 'with key .nan'],
      ['{1.0: a, 1.00: b}', 'with key 1.0'],
      ['{null: a, ~: b}', 'with null key'],
      ['{true: a, True: b}', 'with key `true`'],
      ['{!t 1: a, !t 1: b}', 'in YAML map'],
    ])
      assert.equal(
        fails(`x: ${text}\n`).message,
        `failed to parse YAML: x: duplicate entry ${key} at line 1 column 4`,
        text,
      );
  });

  it('keeps a number key and a string key apart, an integer from a float, a tagged key from a plain one', () => {
    for (const text of ['{12: a, "12": b}', '{1: a, 1.0: b}', '{!t 1: a, 1: b}', '{true: a, "true": b}'])
      assert.doesNotThrow(() => ok(`x: ${text}\n`), text);
  });

  it('gives the string key the name when a number key is written the same way (upstream looks fields up by string)', () => {
    for (const text of ['{12: a, "12": b}', '{"12": b, 12: a}']) {
      const d = ok(`x: ${text}\n`);
      assert.equal((d.value as Record<string, Record<string, unknown>>)['x']?.['12'], 'b', text);
    }
  });
});

describe('Eva YAML scalar typing through A0 (eva.md §7.1)', () => {
  let f: EvaFixture;
  beforeEach(() => {
    f = new EvaFixture().p0();
  });
  afterEach(() => f.remove());

  /** A0 with one line replaced: Eva's decision, reasons and its warnings and errors. */
  function decide(from: string, to: string): [string, readonly string[], string[]] {
    assert.ok(A0.includes(from));
    f.adapter(A0.replace(from, to));
    const r = f.index();
    const item = r.item('adapters/review.yaml');
    const problems = r.index.diagnostics
      .filter((d) => d.severity !== 'information' && d.code !== 'eva.project.load-aborted')
      .map((d) => `${d.code} ${d.message}`);
    return [item.detail.eva.evaDecision, item.detail.eva.evaReasons, problems];
  }

  for (const version of ['012', '00', '1e400'])
    it(`registers version: ${version}, a string to serde_yaml`, () => {
      assert.deepEqual(decide('version: 1.0.0', `version: ${version}`), ['registered', ['registered'], []]);
    });

  for (const [from, to] of [
    ['name: Review Skill', 'name: 0b11'],
    ['version: 1.0.0', 'version: -0x10'],
    ['version: 1.0.0', 'version: +0x1'],
  ] as const)
    it(`rejects ${to}, an integer to serde_yaml`, () => {
      assert.deepEqual(decide(from, to), [
        'rejected',
        ['schema_invalid'],
        ['eva.schema.type schema type mismatch: expected string, got number'],
      ]);
    });

  it('rejects a mapping whose keys 012 and "012" are one string', () => {
    const end = 'routing: {priority: 10}';
    assert.deepEqual(decide(end, `${end}\nx: {012: a, "012": b}`), [
      'rejected',
      ['schema_invalid'],
      ['eva.yaml.parse failed to parse YAML: x: duplicate entry with key "012" at line 18 column 4'],
    ]);
  });
});
