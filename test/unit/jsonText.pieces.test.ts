import { strict as assert } from 'node:assert';
import * as fc from 'fast-check';
import { JsonList, jsonText, writeJsonText } from '../../src/core/report/jsonText';
import { envelope, envelopeToWrite } from '../../src/core/report/contract';
import { Indexer } from '../../src/core/index/indexer';
import { HOSTILE } from './helpers/displaySafe';
import { Fixture } from './helpers/fixture';

function pieces(value: unknown): string[] {
  const out: string[] = [];
  writeJsonText(value, (t) => out.push(t));
  return out;
}

/**
 * `--json` is written in pieces (a large report never exists as one string): the
 * pieces join to exactly the text `jsonText` gives for the same value.
 */
describe('JSON output written in pieces', () => {
  it('joins to exactly jsonText for any JSON-like value, at any depth', () => {
    const leaf = fc.oneof(
      fc.string(),
      fc.constantFrom(HOSTILE, '\u2028', '\ud800', 'a\nb'),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.constant(Buffer.from([0xff, 0x00, 0x41])),
    );
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
      array: fc.array(tie('node'), { maxLength: 4 }),
      object: fc.dictionary(fc.string({ maxLength: 4 }), tie('node'), { maxKeys: 4 }),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        if (JSON.stringify(v) === undefined) return;
        assert.equal(pieces(v).join(''), jsonText(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('writes a JsonList as the array it maps to, element by element', () => {
    const made: number[] = [];
    const list = new JsonList([1, 2, 3], (n) => (made.push(n), { n, s: `${HOSTILE}${n}` }));
    const value = { schemaVersion: 1, items: list, empty: new JsonList([], (n: number) => n), tail: [[1, [2]], {}] };
    assert.equal(pieces(value).join(''), jsonText(value));
    assert.deepEqual(made.slice(0, 3), [1, 2, 3]);
  });

  it('writes a text shorter than a piece at once, and a long one in pieces of about a mebibyte', () => {
    assert.equal(pieces({ a: [1, 2] }).length, 1);
    const big = { items: Array.from({ length: 30000 }, (_, i) => ({ id: `item-${i}`, text: 'x'.repeat(100) })) };
    const out = pieces(big);
    assert.ok(out.length > 1);
    for (const p of out.slice(0, -1)) assert.ok(p.length >= 1 << 20 && p.length < (1 << 20) + 4096, String(p.length));
    assert.equal(out.join(''), jsonText(big));
  });

  it('cuts a text longer than a piece at a mebibyte, never between the halves of a surrogate pair', () => {
    // Whatever the offset of the long string, one of the two values puts a pair across a piece's end.
    for (const value of [{ items: ['😀'.repeat(1 << 20)] }, { items: ['a' + '😀'.repeat(1 << 20)] }]) {
      const out = pieces(value);
      assert.equal(out.join(''), jsonText(value));
      assert.ok(out.length > 1);
      for (const p of out.slice(0, -1)) {
        assert.ok(p.length === 1 << 20 || p.length === (1 << 20) + 1, String(p.length));
        assert.doesNotMatch(p, /[\ud800-\udbff]$/);
      }
      // Each piece is a well-formed text on its own: its UTF-8 bytes read back as the same characters.
      for (const p of out) assert.equal(Buffer.from(p, 'utf8').toString('utf8'), p);
    }
  });

  it('gives the envelope of a snapshot the text of envelope()', () => {
    const f = new Fixture();
    try {
      f.write('ws/.codewhale/plugins/a/plugin.json', '{"name": "a"}');
      f.write('ws/.codewhale/plugins/a/skills/s/SKILL.md', `---\nname: s\ndescription: d\u202e\n---\nbody\n`);
      f.write('ws/.codewhale/plugins/b/plugin.json', '{"name": "Bad_b"}');
      f.write('ws/.rivumi/skills/r.md', '---\nname: r\n---\nbody\n');
      const snapshot = new Indexer({ workspaces: [f.path('ws')], codewhaleHome: null }).indexAll();
      assert.ok(snapshot.items.length > 2 && snapshot.diagnostics.length > 0);
      assert.equal(pieces(envelopeToWrite(snapshot)).join(''), jsonText(envelope(snapshot)));
    } finally {
      f.remove();
    }
  });
});
