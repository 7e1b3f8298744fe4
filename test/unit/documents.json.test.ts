import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parse as jsoncParse } from 'jsonc-parser';
import { parseJsonDocument } from '../../src/core/documents/jsonDocument';

const valueOf = (text: string, python = false): unknown => {
  const r = parseJsonDocument('/x.json', text, { python });
  assert.ok(r.ok, r.ok ? '' : r.message);
  return r.document.value;
};

/** JSON documents: values from the native parser where it applies, ranges from jsonc-parser's tree. */
describe('JSON documents', () => {
  it('gives the value jsonc-parser gives, for any JSON value, compact or indented, with duplicate keys', () => {
    const key = fc.string().filter((k) => k !== '__proto__');
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer(),
        fc.string(),
        fc.array(tie('value')),
        tie('object'),
      ),
      object: fc.array(fc.tuple(key, tie('value')), { maxLength: 5 }),
    })).value;
    // Objects as key/value lists, so that duplicate keys reach the text.
    const text = (v: unknown, indent: boolean): string => {
      if (Array.isArray(v) && v.every((e) => Array.isArray(e) && e.length === 2 && typeof e[0] === 'string')) {
        return `{${(v as [string, unknown][]).map(([k, x]) => `${JSON.stringify(k)}:${indent ? ' ' : ''}${text(x, indent)}`).join(indent ? ',\n  ' : ',')}}`;
      }
      if (Array.isArray(v)) return `[${v.map((x) => text(x, indent)).join(',')}]`;
      return JSON.stringify(v);
    };
    fc.assert(
      fc.property(json, fc.boolean(), (v, indent) => {
        const t = text(v, indent);
        assert.deepEqual(valueOf(t), jsoncParse(t, [], { disallowComments: true }));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps `__proto__` an ordinary own key, never a prototype', () => {
    const v = valueOf('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.deepEqual(Object.keys(v), ['__proto__', 'a']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it("reads Python's NaN and Infinity only in Python mode, with exact ranges", () => {
    assert.deepEqual(valueOf('{"a": NaN, "b": -Infinity, "c": "NaN"}', true), {
      a: Number.NaN,
      b: Number.NEGATIVE_INFINITY,
      c: 'NaN',
    });
    const strict = parseJsonDocument('/x.json', '{"a": NaN}');
    assert.equal(strict.ok, false);
    const r = parseJsonDocument('/x.json', '{\n  "a": 1,\n  "b": Infinity\n}', { python: true });
    assert.ok(r.ok);
    assert.deepEqual(r.document.valueRange(['b']), {
      start: { line: 2, character: 7 },
      end: { line: 2, character: 15 },
    });
  });

  it("refuses Python's constants glued to a number or a sign, as Python's json does", () => {
    // Python's scanner reads `NaN`, `Infinity` and `-Infinity` as whole tokens: a sign or a
    // digit next to one is no number (`1NaN` is `1` then garbage), never `10.0` or `-0.0`.
    for (const t of [
      '{"a": -NaN}',
      '{"a": 1NaN}',
      '{"a": NaN1}',
      '{"a": -Infinity1}',
      '{"a": 2Infinity}',
      '[NaNe5]',
      '[-1Infinity]',
      '[Infinity.5]',
    ]) {
      assert.equal(parseJsonDocument('/x.json', t, { python: true }).ok, false, t);
    }
    assert.deepEqual(valueOf('[NaN,-Infinity, Infinity]', true), [
      Number.NaN,
      Number.NEGATIVE_INFINITY,
      Number.POSITIVE_INFINITY,
    ]);
  });

  it('refuses comments, trailing commas and empty text with a position', () => {
    for (const [t, where] of [
      ['{"a": 1, // c\n}', 'line 1 column 10'],
      ['{"a": 1,}', 'line 1 column 9'],
      ['', 'line 1 column 1'],
    ] as const) {
      const r = parseJsonDocument('/x.json', t);
      assert.equal(r.ok, false, t);
      if (!r.ok) assert.match(r.message, new RegExp(where), t);
    }
  });
});
