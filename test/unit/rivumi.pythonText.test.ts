import { strict as assert } from 'node:assert';
import { pythonRepr, pythonSplitLines, pythonStrip, universalNewlines } from '../../src/core/systems/rivumi/pythonText';
import { codePointCompare, decodeJsonBytes } from '../../src/core/systems/rivumi/hookFiles';

/**
 * The Python string and byte semantics Rivumi's rules rest on (rivumi.md §1, §2, §4.4):
 * what `str.strip()` removes, where `str.splitlines()` breaks, how `repr()` quotes a name
 * in a message, universal newlines, code-point order and `json.loads(bytes)`'s encoding
 * detection. Each is stated against the Python behaviour, character by character.
 */
describe('Rivumi: Python string semantics (rivumi.md §1, §2)', () => {
  describe('str.strip()', () => {
    // Every character Python's str.isspace() accepts, as listed in §2 "Stripping".
    const pythonSpace = [
      '\t',
      '\n',
      '\v',
      '\f',
      '\r',
      '\x1c',
      '\x1d',
      '\x1e',
      '\x1f',
      ' ',
      '\x85',
      '\xa0',
      '\u1680',
      '\u2000',
      '\u2001',
      '\u2002',
      '\u2003',
      '\u2004',
      '\u2005',
      '\u2006',
      '\u2007',
      '\u2008',
      '\u2009',
      '\u200a',
      '\u2028',
      '\u2029',
      '\u202f',
      '\u205f',
      '\u3000',
    ];
    for (const ch of pythonSpace) {
      const hex = ch.codePointAt(0)?.toString(16).padStart(4, '0');
      it(`removes U+${hex} at both ends`, () => assert.equal(pythonStrip(`${ch}${ch}x y${ch}`), 'x y'));
    }
    it('keeps U+FEFF and U+200B, which JavaScript trim() would drop or Python never strips', () => {
      assert.equal(pythonStrip('\ufeffx\ufeff'), '\ufeffx\ufeff');
      assert.equal(pythonStrip('\u200bx'), '\u200bx');
    });
    it('keeps inner whitespace and returns "" for whitespace only', () => {
      assert.equal(pythonStrip(' a \t b '), 'a \t b');
      assert.equal(pythonStrip(' \u3000\x1c'), '');
      assert.equal(pythonStrip(''), '');
    });
  });

  describe('str.splitlines()', () => {
    for (const [name, sep] of [
      ['\\n', '\n'],
      ['\\r', '\r'],
      ['\\r\\n', '\r\n'],
      ['\\v', '\v'],
      ['\\f', '\f'],
      ['U+001C', '\x1c'],
      ['U+001D', '\x1d'],
      ['U+001E', '\x1e'],
      ['U+0085', '\x85'],
      ['U+2028', '\u2028'],
      ['U+2029', '\u2029'],
    ] as const) {
      it(`breaks at ${name}, with no empty last line after a trailing one`, () => {
        assert.deepEqual(pythonSplitLines(`a${sep}b`), ['a', 'b']);
        assert.deepEqual(pythonSplitLines(`a${sep}`), ['a']);
      });
    }
    it('does not break at U+001F or a tab', () => assert.deepEqual(pythonSplitLines('a\x1fb\tc'), ['a\x1fb\tc']));
    it('gives [] for "", [""] for one newline, and keeps inner empty lines', () => {
      assert.deepEqual(pythonSplitLines(''), []);
      assert.deepEqual(pythonSplitLines('\n'), ['']);
      assert.deepEqual(pythonSplitLines('a\n\n'), ['a', '']);
      assert.deepEqual(pythonSplitLines('a\n\nb'), ['a', '', 'b']);
    });
    it('keeps an empty last element when the text does not end at a boundary', () =>
      assert.deepEqual(pythonSplitLines('a\nb '), ['a', 'b ']));
  });

  describe('universal newlines', () => {
    it('turns \\r\\n and a lone \\r into \\n, and nothing else', () => {
      assert.equal(universalNewlines('a\r\nb\rc\n\r\r\nd\v'), 'a\nb\nc\n\n\nd\v');
    });
  });

  describe('repr() of a name in a message', () => {
    const cases: [string, string, string][] = [
      ['plain text in single quotes', 'review.md', "'review.md'"],
      ['double quotes when the text has \' but no "', "it's", `"it's"`],
      ['single quotes, escaped, when it has both', `a"b'c`, `'a"b\\'c'`],
      ['a double quote needs no escape in single quotes', 'a"b', `'a"b'`],
      ['an escaped backslash', 'a\\b', "'a\\\\b'"],
      ['\\n, \\r and \\t by name', 'a\nb\rc\td', "'a\\nb\\rc\\td'"],
      ['other control characters as \\xNN', '\x00\x1f\x7f', "'\\x00\\x1f\\x7f'"],
      ['non-printable Latin-1 (U+0085, U+00A0) as \\xNN', '\x85\xa0', "'\\x85\\xa0'"],
      ['printable non-ASCII as itself', 'é', "'é'"],
      ['a format character as \\uNNNN', 'a\u200bb', "'a\\u200bb'"],
      ['a format character below U+1000 padded to four digits', '\u061c', "'\\u061c'"],
      ['a line separator and a private-use character as \\uNNNN', '\u2028\ue000', "'\\u2028\\ue000'"],
      ['a lone surrogate (surrogateescape) as \\uNNNN', 'a\udcff', "'a\\udcff'"],
      ['a non-BMP non-printable as \\UNNNNNNNN', '\u{e0001}', "'\\U000e0001'"],
      ['a non-BMP printable as itself', '\u{1f600}', "'\u{1f600}'"],
      ['a space as itself, other spaces escaped', ' \u3000', "' \\u3000'"],
    ];
    for (const [name, text, expected] of cases) it(name, () => assert.equal(pythonRepr(text), expected));
  });

  describe('code-point order (§2 "Order")', () => {
    it('sorts case-sensitively by code point: .h.md < B.md < a.md', () =>
      assert.deepEqual(['a.md', 'B.md', '.h.md'].sort(codePointCompare), ['.h.md', 'B.md', 'a.md']));
    it('sorts a non-BMP character after U+FF01, unlike UTF-16 order', () => {
      assert.ok(codePointCompare('\u{1f600}', '\uff01') > 0);
      assert.ok(codePointCompare('\uff01', '\u{1f600}') < 0);
    });
    it('puts a prefix first, and equal names at 0', () => {
      assert.ok(codePointCompare('a', 'ab') < 0);
      assert.ok(codePointCompare('ab', 'a') > 0);
      assert.equal(codePointCompare('ab', 'ab'), 0);
      assert.equal(codePointCompare('', ''), 0);
    });
  });
});

describe("Rivumi: hooks.json bytes as Python's json.loads detects them (rivumi.md §4.4)", () => {
  const bytes = (...parts: (number[] | Buffer)[]) => Buffer.concat(parts.map((p) => Buffer.from(p)));
  const be16 = (s: string) => Buffer.from(s, 'utf16le').swap16();
  const utf32 = (s: string, le: boolean) => {
    const out = Buffer.alloc([...s].length * 4);
    [...s].forEach((ch, i) =>
      le ? out.writeUInt32LE(ch.codePointAt(0) ?? 0, i * 4) : out.writeUInt32BE(ch.codePointAt(0) ?? 0, i * 4),
    );
    return out;
  };
  const cases: [string, Buffer, string | undefined][] = [
    ['UTF-8', Buffer.from('{"a": "é"}'), '{"a": "é"}'],
    ['UTF-8 with a BOM (dropped)', bytes([0xef, 0xbb, 0xbf], Buffer.from('{}')), '{}'],
    ['UTF-16 LE with a BOM', bytes([0xff, 0xfe], Buffer.from('{"é": 1}', 'utf16le')), '{"é": 1}'],
    ['UTF-16 BE with a BOM', bytes([0xfe, 0xff], be16('{"é": 1}')), '{"é": 1}'],
    ['UTF-16 LE without a BOM', Buffer.from('{"a": 1}', 'utf16le'), '{"a": 1}'],
    ['UTF-16 BE without a BOM', be16('{"a": 1}'), '{"a": 1}'],
    ['two bytes of UTF-16 LE', Buffer.from('1', 'utf16le'), '1'],
    ['two bytes of UTF-16 BE', be16('1'), '1'],
    ['UTF-32 LE with a BOM', bytes([0xff, 0xfe, 0, 0], utf32('{"\u{1f600}": 1}', true)), '{"\u{1f600}": 1}'],
    ['UTF-32 BE with a BOM', bytes([0, 0, 0xfe, 0xff], utf32('{"\u{1f600}": 1}', false)), '{"\u{1f600}": 1}'],
    ['UTF-32 LE without a BOM', utf32('{}', true), '{}'],
    ['UTF-32 BE without a BOM', utf32('{}', false), '{}'],
    ['one byte of UTF-8', Buffer.from('1'), '1'],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0x7d]), undefined],
    ['a UTF-32 length that is not a multiple of 4', bytes([0xff, 0xfe, 0, 0], utf32('{}', true), [0x20]), undefined],
    ['a UTF-32 code point above U+10FFFF', bytes([0xff, 0xfe, 0, 0], [0, 0, 0x11, 0]), undefined],
    // json.loads decodes with 'surrogatepass': a lone surrogate is kept, not refused.
    ['a UTF-32 surrogate', bytes([0xff, 0xfe, 0, 0], [0x00, 0xd8, 0, 0]), '\ud800'],
    ['the last UTF-32 surrogate', bytes([0xff, 0xfe, 0, 0], [0xff, 0xdf, 0, 0]), '\udfff'],
    ['unpaired UTF-16', bytes([0xff, 0xfe], [0x00, 0xd8]), '\ud800'],
  ];
  for (const [name, input, expected] of cases) it(name, () => assert.equal(decodeJsonBytes(input), expected));
  it('accepts the highest code point and the ones next to the surrogates in UTF-32', () => {
    assert.equal(
      decodeJsonBytes(bytes([0xff, 0xfe, 0, 0], utf32('\u{10ffff}\ud7ff\ue000', true))),
      '\u{10ffff}\ud7ff\ue000',
    );
  });
});
