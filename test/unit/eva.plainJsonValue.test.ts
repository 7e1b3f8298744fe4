import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { plainJsonValue } from '../../src/core/systems/eva/plainJsonValue';
import { parseEvaYaml } from '../../src/core/systems/eva/yamlDocument';
import { YamlFloat } from '../../src/core/systems/eva/yamlScalars';

/** serde_yaml's value as the libyaml-exact reader gives it, or `undefined` where it refuses the text. */
function yamlValue(text: string): unknown {
  const parsed = parseEvaYaml('/s.schema.json', text);
  return parsed.ok ? parsed.document.value : undefined;
}

/**
 * The value with everything equality must see made visible: each mapping's keys in order and
 * whether it has a prototype, a float apart from an integer, -0 apart from 0.
 */
function shape(v: unknown): unknown {
  if (v instanceof YamlFloat) return { float: Object.is(v.value, -0) ? '-0' : v.value };
  if (typeof v === 'number') return { int: Object.is(v, -0) ? '-0' : v };
  if (Array.isArray(v)) return v.map(shape);
  if (v !== null && typeof v === 'object')
    return { proto: Object.getPrototypeOf(v) === null, entries: Object.entries(v).map(([k, x]) => [k, shape(x)]) };
  return v;
}

type Json = null | boolean | { raw: string } | string | Json[] | { entries: [string, Json][] };

/** Texts meant to hit each place where JSON and YAML may read apart. */
const tricky = fc.constantFrom(
  'a',
  '',
  'a"b',
  'c\\d',
  '/x/',
  '{[,:]}',
  '# not a comment',
  '- a',
  ': b',
  '&anchor *alias !tag',
  'é中文',
  'line\u2028sep',
  'para\u2029sep',
  'nel\u0085x',
  'tab\tin',
  'bs\bff\f',
  'del\u007f',
  'c1\u0090',
  'bom\ufeffx',
  'nonchar\ufffe',
  '😀',
  '\ud83d',
  '\ude00x',
  '  lead and trail  ',
  'k'.repeat(1100),
);
const plainText = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('type', 'properties', 'é中文', '😀 x', 'a/b'));
const key = fc.oneof(
  { arbitrary: plainText, weight: 6 },
  { arbitrary: tricky, weight: 1 },
  fc.constantFrom('a', 'b', '__proto__', '1', '0', 'constructor'),
  fc.string({ maxLength: 4 }),
);
const number = fc.constantFrom(
  '0',
  '-0',
  '1',
  '-1',
  '12',
  '1.0',
  '1.5',
  '-0.0',
  '1e2',
  '1E400',
  '-2.5e-3',
  '0.1e1',
  '18446744073709551616',
  '9007199254740993',
  '-9223372036854775809',
);

const json: fc.Arbitrary<Json> = fc.letrec<{ value: Json; object: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    number.map((raw) => ({ raw })),
    { arbitrary: plainText, weight: 4 },
    tricky,
    fc.string({ unit: 'binary', maxLength: 6 }),
    { arbitrary: fc.array(tie('value'), { maxLength: 4 }), weight: 2 },
    { arbitrary: tie('object'), weight: 2 },
  ),
  object: fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((entries) => ({ entries })),
})).value;

/** A string as JSON may write it: JSON.stringify's, or with `\/`, `\uXXXX` or short escapes written otherwise. */
function quoted(s: string, escapes: 'plain' | 'slash' | 'unicode'): string {
  const text = JSON.stringify(s);
  if (escapes === 'slash') return text.replace(/\//g, '\\/');
  if (escapes === 'unicode')
    return text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return text;
}

interface Style {
  readonly spaces: readonly string[];
  readonly escapes: 'plain' | 'slash' | 'unicode';
  readonly lead: string;
}

function render(v: Json, style: Style): string {
  let n = 0;
  const ws = () => style.spaces[n++ % style.spaces.length] as string;
  const go = (x: Json): string => {
    if (Array.isArray(x)) return `[${ws()}${x.map((e) => go(e) + ws()).join(`,${ws()}`)}]`;
    if (typeof x === 'string') return quoted(x, style.escapes);
    if (x !== null && typeof x === 'object' && 'raw' in x) return x.raw;
    if (x !== null && typeof x === 'object')
      return `{${ws()}${x.entries.map(([k, e]) => `${quoted(k, style.escapes)}${ws()}:${ws()}${go(e)}${ws()}`).join(`,${ws()}`)}}`;
    return JSON.stringify(x);
  };
  return style.lead + go(v);
}

const style: fc.Arbitrary<Style> = fc.record({
  spaces: fc.array(fc.constantFrom('', ' ', '\n  ', '\r\n', '\r', '', ' ', '\n    ', '\t', ' \n\t'), {
    minLength: 1,
    maxLength: 6,
  }),
  escapes: fc.constantFrom('plain', 'plain', 'plain', 'slash', 'unicode'),
  lead: fc.constantFrom('', '', '', '', '\ufeff', ' ', '\n', '\ufeff\ufeff'),
});

/** A mapping at the root, as a schema file holds: the only root the fast reading takes. */
const root = fc.array(fc.tuple(key, json), { maxLength: 5 }).map((entries): Json => ({ entries }));

describe('Eva schema files: plain JSON read without the YAML reader, to the value serde_yaml gives', () => {
  it('gives the YAML reader’s value wherever it gives one, over generated JSON', () => {
    let taken = 0;
    let runs = 0;
    fc.assert(
      fc.property(root, style, (v, s) => {
        const text = render(v, s);
        try {
          JSON.parse(text.replace(/^\ufeff/, ''));
        } catch {
          return; // not JSON: the caller refuses it before either reading
        }
        runs++;
        const fast = plainJsonValue(text);
        if (fast === undefined) return;
        taken++;
        const full = yamlValue(text);
        assert.notEqual(full, undefined, `the YAML reader refuses what the fast reading took: ${JSON.stringify(text)}`);
        assert.deepEqual(shape(fast), shape(full), JSON.stringify(text));
      }),
      { numRuns: 3000 },
    );
    // The texts are drawn hostile, so most go to the YAML reader; a share the fast reading takes (about
    // one in six) is what this compares, and a reading that took none would prove nothing.
    assert.ok(taken > runs / 10, `took ${taken} of ${runs}`);
  });

  it('takes each schema Eva ships and the corpus holds, to the same value', () => {
    const dir = path.join(__dirname, '../../src/core/systems/eva/schemas');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
    assert.ok(files.length >= 4);
    for (const f of files) {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      const fast = plainJsonValue(text);
      assert.notEqual(fast, undefined, f);
      assert.deepEqual(shape(fast), shape(yamlValue(text)), f);
    }
  });

  it('types numbers as serde_yaml does: a float apart from an integer, a number past f64 a string', () => {
    const text = '{"a": 1, "b": 1.0, "c": 1e2, "d": 1E400, "e": -0, "f": 9007199254740993}';
    const fast = plainJsonValue(text);
    assert.ok(fast);
    assert.equal(fast.a, 1);
    assert.ok(fast.b instanceof YamlFloat && fast.b.value === 1);
    assert.ok(fast.c instanceof YamlFloat && fast.c.value === 100);
    assert.equal(fast.d, '1E400');
    assert.ok(Object.is(fast.e, 0));
    assert.deepEqual(shape(fast), shape(yamlValue(text)));
  });

  it('takes a schema after a byte-order mark, and the limits up to their bounds', () => {
    const schema = '{"type": "object", "properties": {"a": {"type": ["string", "null"], "minLength": 1}}}';
    const fast = plainJsonValue(`\ufeff${schema}`);
    assert.ok(fast);
    assert.deepEqual(shape(fast), shape(yamlValue(`\ufeff${schema}`)));
    // From a key's opening quote to its `:`, 1000 characters; the root and 99 collections inside it.
    const longKey = `{"${'k'.repeat(998)}": 1}`;
    assert.deepEqual(shape(plainJsonValue(longKey)), shape(yamlValue(longKey)));
    assert.equal(plainJsonValue(`{"${'k'.repeat(999)}": 1}`), undefined);
    const deep = `{"a": ${'['.repeat(99)}${']'.repeat(99)}}`;
    assert.deepEqual(shape(plainJsonValue(deep)), shape(yamlValue(deep)));
  });

  it('keeps `__proto__` and `constructor` as ordinary keys of a prototype-free mapping', () => {
    const fast = plainJsonValue('{"__proto__": {"polluted": true}, "constructor": 1}');
    assert.ok(fast);
    assert.equal(Object.getPrototypeOf(fast), null);
    assert.deepEqual(Object.keys(fast), ['__proto__', 'constructor']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('leaves to the YAML reader each text it may read otherwise', () => {
    const declined: Record<string, string> = {
      'a key given twice (serde_yaml refuses it)': '{"a": 1, "a": 2}',
      'a surrogate escape (libyaml refuses it)': '{"a": "\\ud83d\\ude00"}',
      'any \\u escape': '{"a": "\\u0041"}',
      'a tab': '{\t"a": 1}',
      'a line separator in a string': '{"a": "x\u2028y"}',
      'NEL in a string': '{"a": "x\u0085y"}',
      'a BOM past the first': '\ufeff{"a": "\ufeff"}',
      'a key whose colon is on the next line': '{"a"\n: 1}',
      'a key over 1000 characters': `{"${'k'.repeat(1001)}": 1}`,
      'nesting near the recursion limit': `{"a": ${'['.repeat(100)}${']'.repeat(100)}}`,
      'an integer past u64 (serde_yaml refuses it)': '{"a": 18446744073709551616}',
      'a root that is no mapping': '[1]',
      'a space before the root': ' {"a": 1}',
    };
    for (const [why, text] of Object.entries(declined)) assert.equal(plainJsonValue(text), undefined, why);
    // …and the YAML reader indeed refuses the first two, which JSON.parse takes.
    assert.equal(yamlValue(declined['a key given twice (serde_yaml refuses it)'] as string), undefined);
    assert.equal(yamlValue(declined['a surrogate escape (libyaml refuses it)'] as string), undefined);
  });

  it('reads a 300 KB schema (the fuzz input that overran its time) the fast way', () => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++)
      properties[`field${i}`] = {
        $comment: `Field ${i}. / 字段 ${i}。`,
        type: 'string',
        enum: ['a', 'b'],
        minLength: 1,
      };
    const text = JSON.stringify({ type: 'object', properties }, null, 2);
    assert.ok(text.length > 250_000);
    const fast = plainJsonValue(text);
    assert.ok(fast);
    assert.deepEqual(shape(fast), shape(yamlValue(text)));
  });
});
