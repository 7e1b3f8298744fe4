import * as assert from 'node:assert/strict';
import { cpuTime } from './helpers/cpuTime';
import { YamlTagged, yamlTypeName } from '../../src/core/systems/eva/yamlValue';
import { parsedYaml as ok, yamlError as fails } from './helpers/evaYaml';

/** YAML read exactly as Eva-CLI reads it with serde_yaml 0.9 (eva.md §2.1). */

describe('Eva YAML profile', () => {
  it('refuses a second document', () => {
    assert.match(fails('a: 1\n---\nb: 2\n').message, /more than one document/);
  });

  it('reads an empty file as null', () => {
    assert.equal(ok('').value, null);
  });

  it('refuses a duplicate key, with line and column', () => {
    const e = fails('a: 1\nb: 2\na: 3\n');
    assert.match(e.message, /^failed to parse YAML: duplicate entry with key/);
    assert.deepEqual([e.line, e.column], [3, 1]);
  });

  it('reads only true/false (any case form of the core schema) as booleans; yes/no/on/off are strings', () => {
    const v = ok('a: true\nb: False\nc: TRUE\nd: yes\ne: no\nf: on\ng: off\n').value as Record<string, unknown>;
    assert.deepEqual({ ...v }, { a: true, b: false, c: true, d: 'yes', e: 'no', f: 'on', g: 'off' });
  });

  it('gives the source text of a value exactly at a path (1 and 1.0 told apart), nothing for a path that is absent', () => {
    const d = ok('a: 1\nb:\n  c: 1.0\n');
    assert.deepEqual(
      [d.literalAt(['a']), d.literalAt(['b', 'c']), d.literalAt(['b', 'x']), d.literalAt(['z'])],
      ['1', '1.0', undefined, undefined],
    );
  });

  it('reads 1.0 as a number and 1.0.0 as a string', () => {
    const v = ok('a: 1.0\nb: 1.0.0\n').value as Record<string, unknown>;
    assert.deepEqual([yamlTypeName(v['a']), yamlTypeName(v['b'])], ['number', 'string']);
  });

  it('does not apply merge keys: << is an ordinary key', () => {
    const v = ok('base: &b {kind: x}\nskill: {<<: *b, id: y}\n').value as Record<string, Record<string, unknown>>;
    assert.equal(v['skill']?.['kind'], undefined);
    assert.deepEqual(Object.keys(v['skill'] ?? {}), ['<<', 'id']);
  });

  it('keeps a local tag as an inert tagged value; a tag that is not local is read through; core tags resolve as usual', () => {
    // serde_yaml 0.9 makes an enum (Value::Tagged) only of a tag that starts with `!` once libyaml
    // resolved it: `!!js/function` is `tag:yaml.org,2002:js/function`, so its value is the plain
    // string of its text, never anything run.
    const v = ok('a: !!js/function "function(){}"\nb: !foo {c: 1}\nc: !!str 5\n').value as Record<string, unknown>;
    assert.equal(v['a'], 'function(){}');
    assert.ok(v['b'] instanceof YamlTagged);
    assert.equal((v['b'] as YamlTagged).tag, '!foo');
    assert.equal(yamlTypeName(v['b']), 'tagged');
    assert.equal(v['c'], '5');
  });

  it("reads a value under a tag that is not local as serde_yaml 0.9's Value: a scalar's text as a string, a collection plain", () => {
    // de.rs `visit_scalar`: under a resolved tag other than `!…`, only !!bool/!!int/!!float/!!null type
    // the text; every other tag gives `visit_str` of the text, whatever it looks like. `deserialize_any`
    // reads a sequence or mapping under such a tag as the plain collection (`parse_tag` is None).
    const plain = (text: string) => JSON.parse(JSON.stringify(ok(text).value)) as unknown;
    assert.deepEqual(plain('a: !!js/x 5\nb: !!js/x true\nc: !!js/x ~\nd: !!js/x\ne: !!js/x "q"\nf: !!binary aGk=\n'), {
      a: '5',
      b: 'true',
      c: '~',
      d: '',
      e: 'q',
      f: 'aGk=',
    });
    assert.deepEqual(plain('a: !!js/x [x, 1, !!js/y 2]\nb: !!js/x {c: 1}\nc: !!seq 5\nd: !<tag:x,2000:t> 0x10\n'), {
      a: ['x', 1, '2'],
      b: { c: 1 },
      c: '5',
      d: '0x10',
    });
    assert.deepEqual(plain('%TAG !e! tag:e.org,2000:\n---\na: !e!x 1.5\n'), { a: '1.5' });
    assert.deepEqual(plain('--- !!js/x\na: 1\n'), { a: 1 });
    // A key under such a tag is the string of its text, and its place is found by that name.
    const keyed = ok('!!js/x 0x10: a\n');
    assert.deepEqual(
      [plain('!!js/x 0x10: a\n'), keyed.has(['0x10']), keyed.literalAt(['0x10'])],
      [{ '0x10': 'a' }, true, 'a'],
    );
    // Core tags that type a scalar are unchanged.
    assert.deepEqual(plain('a: !!int 5\nb: !!bool true\nc: !!null ~\nd: !!float 1\n'), {
      a: 5,
      b: true,
      c: null,
      d: { value: 1 },
    });
    // A local tag, however written, is still a tagged value, the scalar under it typed when plain.
    const v = ok('a: !t 5\nb: !<!t> "5"\nc: ! 5\n').value as Record<string, YamlTagged>;
    assert.deepEqual(
      ['a', 'b', 'c'].map((k) => [v[k] instanceof YamlTagged, v[k]?.tag, v[k]?.value]),
      [
        [true, '!t', 5],
        [true, '!t', '5'],
        [true, '!', 5],
      ],
    );
  });

  it('expands aliases, and refuses an alias bomb quickly', () => {
    assert.deepEqual((ok('a: &x [1, 2]\nb: *x\n').value as Record<string, unknown>)['b'], [1, 2]);
    const levels = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= 9; i++)
      levels.push(
        `a${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const { result: failure, ms } = cpuTime(() => fails(levels.join('\n') + '\n'));
    assert.match(failure.message, /repetition limit exceeded/);
    assert.ok(ms < 1000, `took ${ms} ms of CPU`);
  });

  it("refuses nesting deeper than serde_yaml's recursion limit without overflowing the stack", () => {
    assert.match(fails('a: ' + '['.repeat(100_000) + ']'.repeat(100_000) + '\n').message, /recursion limit exceeded/);
    assert.match(fails('- '.repeat(5_000) + 'x\n').message, /recursion limit exceeded/);
  });

  it('skips a leading BOM and accepts CRLF', () => {
    assert.deepEqual({ ...(ok('\ufeffa: 1\r\nb: 2\r\n').value as object) }, { a: 1, b: 2 });
  });

  it('gives the range of a key, a value, a sequence item and a missing field', () => {
    const d = ok('id: x\nskill:\n  kind: w\ncaps: [a, bb]\n');
    assert.deepEqual(d.keyRange(['skill', 'kind']), {
      start: { line: 2, character: 2 },
      end: { line: 2, character: 6 },
    });
    assert.deepEqual(d.valueRange(['skill', 'kind']), {
      start: { line: 2, character: 8 },
      end: { line: 2, character: 9 },
    });
    assert.deepEqual(d.fieldRange(['caps', 1]), { start: { line: 3, character: 10 }, end: { line: 3, character: 12 } });
    // A missing field points at the key of the mapping that lacks it.
    assert.deepEqual(d.fieldRange(['skill', 'runtime_gate']), {
      start: { line: 1, character: 0 },
      end: { line: 1, character: 5 },
    });
    assert.deepEqual(d.fieldRange(['routing']).start, { line: 0, character: 0 });
  });

  it('builds prototype-free mappings: __proto__ is an ordinary key', () => {
    const v = ok('__proto__: {polluted: true}\n').value as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(v), null);
    assert.deepEqual(Object.keys(v), ['__proto__']);
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });
});
