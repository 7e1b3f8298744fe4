import { strict as assert } from 'node:assert';
import {
  asciiLower,
  isRustWhitespace,
  rustDebugChar,
  rustDebugStr,
  rustTrim,
  rustTrimEnd,
  rustTrimStart,
} from '../../src/core/text/rustText';

/** Unicode White_Space, what Rust's `char::is_whitespace` and `str::trim` use. */
const WHITE_SPACE = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
];
/** Not White_Space, though JavaScript trims U+FEFF and some tools treat the others as space. */
const NOT_WHITE_SPACE = [0xfeff, 0x200b, 0x180e, 0x2060, 0x00, 0x1f, 0x21, 0x7f, 0x84, 0x86, 0x9f, 0x2027, 0x202a];

/**
 * Rust string semantics Codewhale relies on (rustText.ts): trimming removes exactly
 * Unicode White_Space at the chosen ends, and ASCII lowercasing changes only A-Z.
 */
describe("Codewhale's Rust text rules: trim and ASCII lowercase as Rust does them", () => {
  it('counts exactly Unicode White_Space as whitespace', () => {
    for (const c of WHITE_SPACE) assert.ok(isRustWhitespace(c), c.toString(16));
    for (const c of NOT_WHITE_SPACE) assert.ok(!isRustWhitespace(c), c.toString(16));
  });

  it('trims every White_Space character from both ends, and nothing else', () => {
    const ws = String.fromCharCode(...WHITE_SPACE);
    assert.equal(rustTrim(`${ws}a b${ws}`), 'a b');
    assert.equal(rustTrim(ws), '');
    assert.equal(rustTrim(''), '');
    for (const c of NOT_WHITE_SPACE) {
      const ch = String.fromCharCode(c);
      assert.equal(rustTrim(`${ch}x${ch}`), `${ch}x${ch}`, c.toString(16));
    }
    // A byte-order mark survives, and so does the space behind it.
    assert.equal(rustTrim('\ufeff name '), '\ufeff name');
    assert.equal(rustTrim('\u0085name\u0085'), 'name');
  });

  it('trims only the start, or only the end, when asked', () => {
    assert.equal(rustTrimStart(' \u3000a b \u3000'), 'a b \u3000');
    assert.equal(rustTrimEnd(' \u3000a b \u3000'), ' \u3000a b');
    assert.equal(rustTrimStart('\u2028'), '');
    assert.equal(rustTrimEnd('\u2028'), '');
    assert.equal(rustTrimStart(''), '');
    assert.equal(rustTrimEnd(''), '');
    assert.equal(rustTrimStart('ab'), 'ab');
    assert.equal(rustTrimEnd('ab'), 'ab');
  });

  it('lowercases A-Z only', () => {
    assert.equal(asciiLower('AZaz@[`{09'), 'azaz@[`{09');
    assert.equal(asciiLower('MiXeD-Case_1'), 'mixed-case_1');
    // Kelvin sign, dotted capital I, Greek capital sigma, fullwidth A: all unchanged.
    assert.equal(asciiLower('\u212a\u0130\u03a3\uff21'), '\u212a\u0130\u03a3\uff21');
    assert.equal(asciiLower(''), '');
  });

  it('writes `{:?}` as Rust does: a char escapes \', a string ", a combining mark anywhere', () => {
    assert.deepEqual(['a', "'", '"', '\0', '\n', '\\', '\u200b', '\u0301', ' ', '\u00a0'].map(rustDebugChar), [
      "'a'",
      "'\\''",
      `'"'`,
      "'\\0'",
      "'\\n'",
      "'\\\\'",
      "'\\u{200b}'",
      "'\\u{301}'",
      "' '",
      "'\\u{a0}'",
    ]);
    // `{:?}` of a str escapes every Grapheme_Extend character, not only the first (that is
    // `str::escape_debug`); checked against rustc 1.95 on every code point (/tmp/cw-text-oracle).
    assert.equal(rustDebugStr(`a'b"c\u200b\u0301\x01`), `"a'b\\"c\\u{200b}\\u{301}\\u{1}"`);
    assert.equal(rustDebugStr('\u0301x'), '"\\u{301}x"');
    assert.equal(rustDebugStr('a\u034f'), '"a\\u{34f}"');
  });

  it('escapes Grapheme_Extend characters that are not Mn or Me, as Rust does', () => {
    // Spacing marks with Other_Grapheme_Extend (Bengali AA, Kannada II, a musical stem) and
    // the halfwidth katakana sound marks (Lm): printable, yet escaped by `{:?}`.
    for (const [ch, hex] of [
      ['\u09be', '9be'],
      ['\u0cc0', 'cc0'],
      ['\uff9e', 'ff9e'],
      ['\uff9f', 'ff9f'],
      ['\u{1d165}', '1d165'],
    ]) {
      assert.equal(rustDebugChar(ch as string), `'\\u{${hex}}'`);
      assert.equal(rustDebugStr(`x${ch}`), `"x\\u{${hex}}"`);
    }
    // A spacing mark outside Grapheme_Extend stays as it is.
    assert.equal(rustDebugChar('\u0903'), "'\u0903'");
  });
});
