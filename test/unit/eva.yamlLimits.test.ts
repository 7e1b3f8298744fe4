import * as assert from 'node:assert/strict';
import { MAX_EXPANDED_NODES, MAX_YAML_DEPTH } from '../../src/core/systems/eva/yamlLimits';
import { yamlTypeName, isMapping, YamlTagged } from '../../src/core/systems/eva/yamlValue';
import { parsedYaml as ok, yamlError as fails } from './helpers/evaYaml';

/**
 * The limits and edges of Eva's YAML profile (eva.md §2.1): serde_yaml's recursion limit
 * of 128 at its boundary, the alias bounds, where an error is reported, and the ranges a
 * diagnostic points at.
 */

describe('Eva YAML limits (eva.md §2.1)', () => {
  it('accepts flow nesting of exactly 128 and refuses 129, at the bracket past the limit', () => {
    // At the root, so that the brackets are all the collections there are (under `a:` the mapping is one more).
    const at = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}\n`;
    assert.doesNotThrow(() => ok(at(MAX_YAML_DEPTH)));
    const e = fails(at(MAX_YAML_DEPTH + 1));
    assert.equal(e.message, `failed to parse YAML: recursion limit exceeded at line 1 column ${MAX_YAML_DEPTH + 1}`);
    assert.deepEqual([e.line, e.column], [1, MAX_YAML_DEPTH + 1]);
  });

  it('counts brackets closed in between: siblings never add up', () => {
    const siblings = `a: [${Array(200).fill('[1]').join(', ')}]\n`;
    assert.doesNotThrow(() => ok(siblings));
    const mixed = `a: ${'{b: '.repeat(MAX_YAML_DEPTH + 1)}1${'}'.repeat(MAX_YAML_DEPTH + 1)}\n`;
    assert.match(fails(mixed).message, /recursion limit exceeded/);
  });

  it('does not count brackets inside quotes or comments', () => {
    const deep = '['.repeat(MAX_YAML_DEPTH + 5);
    assert.equal((ok(`a: "${deep}"\n`).value as Record<string, unknown>)['a'], deep);
    assert.equal((ok(`a: '${deep}'\n`).value as Record<string, unknown>)['a'], deep);
    assert.equal((ok(`# ${deep}\na: 1\n`).value as Record<string, unknown>)['a'], 1);
    assert.equal((ok(`a: 1 # ${deep}\nb: 2\n`).value as Record<string, unknown>)['b'], 2);
    assert.equal((ok(`a: 1 #${deep}\r\nb: 2\n`).value as Record<string, unknown>)['b'], 2);
    // A `#` inside a word starts no comment: these brackets count.
    assert.match(fails(`a: b#${'['.repeat(MAX_YAML_DEPTH + 1)}\n`).message, /recursion limit exceeded/);
  });

  it('refuses block nesting past the limit while converting, without a crash', () => {
    const nested = (n: number) => {
      let text = '';
      for (let i = 0; i < n; i++) text += `${'  '.repeat(i)}k:\n`;
      return `${text}${'  '.repeat(n)}v: 1\n`;
    };
    assert.doesNotThrow(() => ok(nested(MAX_YAML_DEPTH - 1)));
    assert.match(
      fails(nested(MAX_YAML_DEPTH + 2)).message,
      /^failed to parse YAML: recursion limit exceeded at line \d+ column \d+$/,
    );
  });

  it('expands an alias to the latest anchor of that name defined before it', () => {
    const v = ok('a: &x 1\nb: *x\nc: &x 2\nd: *x\n').value as Record<string, unknown>;
    assert.deepEqual([v['b'], v['d']], [1, 2]);
  });

  it('bounds alias jumps by 100 per node of the document', () => {
    // 1 anchored scalar, aliased 150 times in one sequence: 152 nodes allow 15,200 jumps.
    const many = `a: &x 1\nb: [${Array(150).fill('*x').join(', ')}]\n`;
    assert.equal(((ok(many).value as Record<string, unknown>)['b'] as unknown[]).length, 150);
    // A sequence of 20 aliases to one of 20 aliases to … is past the per-node bound long before memory runs out.
    const levels = ['l0: &l0 [1]'];
    for (let i = 1; i <= 6; i++)
      levels.push(
        `l${i}: &l${i} [${Array(20)
          .fill(`*l${i - 1}`)
          .join(', ')}]`,
      );
    const e = fails(levels.join('\n') + '\n');
    assert.match(e.message, /^failed to parse YAML: repetition limit exceeded$/);
  });

  it('refuses a small document whose aliases jump more than 100 times per node, far below the total cap', () => {
    // 12 levels of two aliases each: about 40 nodes allow about 4,000 jumps; expanding takes 8,000.
    const levels = ['l0: &l0 [1, 1]'];
    for (let i = 1; i <= 12; i++) levels.push(`l${i}: &l${i} [*l${i - 1}, *l${i - 1}]`);
    assert.match(fails(levels.join('\n') + '\n').message, /^failed to parse YAML: repetition limit exceeded/);
    levels.pop();
    levels.pop();
    levels.pop();
    assert.doesNotThrow(() => ok(levels.join('\n') + '\n'), 'nine levels stay within the bound');
  });

  it('bounds the total of expanded nodes', () => {
    assert.ok(MAX_EXPANDED_NODES >= 100_000);
    const big = `a: [${Array(1000).fill('1').join(', ')}]\n`;
    assert.equal(((ok(big).value as Record<string, unknown>)['a'] as unknown[]).length, 1000);
  });

  it('reports a parse error with the line and column of its start, and its range', () => {
    const e = fails('a: 1\nb: [1,\n');
    assert.match(e.message, /^failed to parse YAML: .+ at line \d+ column \d+$/);
    assert.ok(e.line >= 2);
    const dup = fails('a: 1\n  \na: 2\n');
    assert.deepEqual(dup.range, { start: { line: 2, character: 0 }, end: { line: 2, character: 1 } });
    // serde_yaml's words name the key and place the error at its mapping, here line 1 column 1,
    // which error.rs leaves out; the range stays on the repeated key.
    assert.equal(dup.message, 'failed to parse YAML: duplicate entry with key "a"');
    assert.deepEqual([dup.line, dup.column], [3, 1]);
    assert.equal(
      fails('a: 1\n---\nb: 2\n').message,
      // serde_yaml's MoreThanOneDocument carries no mark: its words name no place.
      'failed to parse YAML: deserializing from YAML containing more than one document is not supported',
    );
  });

  it('reads a key without a value as null and names a null key "null"', () => {
    const v = ok('a:\n~: 1\n').value as Record<string, unknown>;
    assert.deepEqual({ ...v }, { a: null, null: 1 });
  });

  it('keeps a tagged mapping and sequence as tagged values around plain data', () => {
    const v = ok('a: !m {b: 1}\nc: !s [1]\nd: !!map {e: 1}\n').value as Record<string, unknown>;
    const a = v['a'] as YamlTagged;
    assert.deepEqual([a.tag, JSON.stringify(a.value)], ['!m', '{"b":1}']);
    assert.deepEqual((v['c'] as YamlTagged).value, [1]);
    assert.equal(isMapping(v['d']), true);
    assert.equal(isMapping(v['a']), false);
    assert.equal(isMapping([]), false);
  });

  it('names the type of every value in upstream words', () => {
    assert.deepEqual([null, undefined, false, 1, 10n, 's', [], {}, new YamlTagged('!x', 1)].map(yamlTypeName), [
      'null',
      'null',
      'boolean',
      'number',
      'number',
      'string',
      'array',
      'object',
      'tagged',
    ]);
  });
});

describe('Eva YAML ranges for diagnostics', () => {
  const d = () => ok('id: x\nskill:\n  kind: w\n  empty:\ncaps: [a, bb]\nalias: &al {k: v}\nother: *al\n');

  it('points at the key of a field that exists, even one without a value', () => {
    assert.deepEqual(d().fieldRange(['skill', 'empty']), {
      start: { line: 3, character: 2 },
      end: { line: 3, character: 7 },
    });
    assert.equal(d().has(['skill', 'empty']), true);
  });

  it('points at the first line for a field missing at the root, and at the root path itself', () => {
    assert.deepEqual(d().fieldRange(['nothing']), { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } });
    assert.deepEqual(d().fieldRange([]), { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } });
    assert.deepEqual(d().keyRange(['nothing']).start, { line: 0, character: 0 });
  });

  it('points at a sequence item past the end as its sequence key', () => {
    assert.deepEqual(d().fieldRange(['caps', 5]), { start: { line: 4, character: 0 }, end: { line: 4, character: 4 } });
    assert.equal(d().has(['caps', 5]), false);
    assert.equal(d().has(['caps', 'x']), false, 'a key into a sequence is absent');
    assert.equal(d().has(['id', 'x']), false, 'a key into a scalar is absent');
  });

  it('follows an alias to the fields of its anchor', () => {
    assert.equal(d().has(['other', 'k']), true);
    assert.equal(d().literalAt(['other', 'k']), 'v');
  });

  it('gives the value span and range of a field, and [0, 0] for a missing one', () => {
    assert.deepEqual(d().valueSpan(['id']), [4, 5]);
    assert.deepEqual(d().valueSpan(['nothing', 'deeper']).length, 2);
    assert.deepEqual(d().valueRange(['caps']), { start: { line: 4, character: 6 }, end: { line: 4, character: 13 } });
    assert.deepEqual(d().lineRange(1), { start: { line: 1, character: 0 }, end: { line: 1, character: 6 } });
  });

  it('keeps the text after a BOM and the file name', () => {
    const doc = ok('\ufeffa: 1\n');
    assert.deepEqual([doc.text, doc.file], ['a: 1\n', '/x.yaml']);
    assert.deepEqual(doc.valueSpan(['a']), [3, 4]);
  });
});
