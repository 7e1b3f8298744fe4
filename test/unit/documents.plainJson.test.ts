import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { jsonDuplicateKeys, parseJsonDocument } from '../../src/core/documents/jsonDocument';
import type { DocPath, ParsedDocument } from '../../src/core/documents/document';

/** Python mode keeps jsonc-parser's tree for text without Python's constants: the reference. */
const both = (text: string): [ParsedDocument, ParsedDocument] => {
  const plain = parseJsonDocument('/x.json', text);
  const tree = parseJsonDocument('/x.json', text, { python: true });
  assert.ok(plain.ok && tree.ok);
  return [plain.document, tree.document];
};

type Json = null | boolean | number | string | Json[] | { entries: [string, Json][] };

/** A value whose objects are key/value lists, so that duplicate keys reach the text. */
const json: fc.Arbitrary<Json> = fc.letrec<{ value: Json; object: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.string(),
    fc.constantFrom('a"b', 'c\\\\d', '{[,:]}', 'é\u2028'),
    fc.array(tie('value'), { maxLength: 4 }),
    tie('object'),
  ),
  object: fc
    .array(fc.tuple(fc.constantFrom('a', 'b', 'a"', 'k\\n', '', 'é', '__proto__'), tie('value')), { maxLength: 4 })
    .map((entries) => ({ entries })),
})).value;

const space = fc.constantFrom('', ' ', '\n  ', '\r\n\t', ' \n');

function render(v: Json, ws: () => string): string {
  if (Array.isArray(v)) return `[${ws()}${v.map((x) => render(x, ws) + ws()).join(`,${ws()}`)}]`;
  if (v !== null && typeof v === 'object')
    return `{${ws()}${v.entries.map(([k, x]) => `${JSON.stringify(k)}${ws()}:${ws()}${render(x, ws)}${ws()}`).join(`,${ws()}`)}}`;
  return JSON.stringify(v);
}

/** Every path of the value, and a few that miss (a wrong key, an index past the end, a key into an array). */
function pathsOf(v: Json, prefix: (string | number)[] = []): DocPath[] {
  const out: DocPath[] = [prefix, [...prefix, 'missing'], [...prefix, 7]];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...pathsOf(x, [...prefix, i])));
  else if (v !== null && typeof v === 'object') for (const [k, x] of v.entries) out.push(...pathsOf(x, [...prefix, k]));
  return out;
}

describe("plain JSON documents: ranges by scanning the text, as jsonc-parser's tree gives them", () => {
  it('gives every range, span, literal and duplicate key the tree gives', () => {
    fc.assert(
      fc.property(json, fc.array(space, { minLength: 1, maxLength: 8 }), (v, spaces) => {
        let n = 0;
        const text = render(v, () => spaces[n++ % spaces.length] as string);
        const [plain, tree] = both(text);
        assert.deepEqual(jsonDuplicateKeys(plain), jsonDuplicateKeys(tree), text);
        for (const p of pathsOf(v)) {
          assert.deepEqual(plain.valueRange(p), tree.valueRange(p), `${text} ${JSON.stringify(p)}`);
          assert.deepEqual(plain.keyRange(p), tree.keyRange(p), `${text} ${JSON.stringify(p)}`);
          assert.deepEqual(plain.valueSpan(p), tree.valueSpan(p), `${text} ${JSON.stringify(p)}`);
          assert.equal(plain.literalAt(p), tree.literalAt(p), `${text} ${JSON.stringify(p)}`);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('finds the last of duplicate keys (the value holds it), and reports the later ones', () => {
    const text = '{"a": 1, "b": {"c": [true, "x"]}, "a": 2}';
    const [plain, tree] = both(text);
    assert.deepEqual(jsonDuplicateKeys(plain), [['a']]);
    assert.equal((plain.value as { a: number }).a, 2);
    assert.deepEqual(plain.valueSpan(['a']), [39, 40]);
    assert.deepEqual(tree.valueSpan(['a']), [39, 40]);
    assert.deepEqual(plain.keyRange(['a']), tree.keyRange(['a']));
    assert.equal(plain.literalAt(['b', 'c', 1]), '"x"');
    assert.equal(plain.literalAt(['b', 'c', 2]), undefined);
    assert.deepEqual(plain.valueSpan(['b', 'c', 2]), [20, 31]);
  });
});
