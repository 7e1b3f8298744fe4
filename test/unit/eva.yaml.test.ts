import * as assert from 'node:assert/strict';
import { cpuTime } from './helpers/cpuTime';
import { YamlTagged, yamlTypeName } from '../../src/core/systems/eva/yamlDocument';
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

  it('keeps a custom tag as an inert tagged value; core tags resolve as usual', () => {
    const v = ok('a: !!js/function "function(){}"\nb: !foo {c: 1}\nc: !!str 5\n').value as Record<string, unknown>;
    assert.ok(v['a'] instanceof YamlTagged);
    assert.equal((v['a'] as YamlTagged).tag, 'tag:yaml.org,2002:js/function');
    assert.equal((v['a'] as YamlTagged).value, 'function(){}');
    assert.equal(yamlTypeName(v['b']), 'tagged');
    assert.equal(v['c'], '5');
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
