import { strict as assert } from 'node:assert';
import { displayText, hasUnsafeForDisplay } from '../../src/core/text/displayText';
import { itemLabel } from '../../src/extension/tree/itemText';
import { itemOf } from './helpers/item';

/**
 * Unicode's default-ignorable code points are rendered invisibly (they have no glyph,
 * or a blank one): a name with one looks exactly like the name without it.
 */
describe('displayText marks every default-ignorable (invisible) character', () => {
  it('marks the Hangul fillers, the grapheme joiner, the Khmer and Mongolian invisibles and the unassigned ones', () => {
    for (const cp of [
      0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180b, 0x180f, 0x2065, 0x3164, 0xffa0, 0xfff0, 0xe0080, 0xe0fff,
    ]) {
      const ch = String.fromCodePoint(cp);
      assert.equal(displayText(`a${ch}b`), `a\\u{${cp.toString(16)}}b`);
      assert.equal(displayText(`a${ch}b`, 'multi-line'), displayText(`a${ch}b`));
      assert.ok(hasUnsafeForDisplay(ch));
    }
  });

  it('every default-ignorable code point, so no name can look like another', () => {
    const ignorable = /\p{Default_Ignorable_Code_Point}/u;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (ignorable.test(ch)) assert.notEqual(displayText(ch), ch, `U+${cp.toString(16)}`);
    }
    // Two bundles whose names differ only by a Hangul filler read differently in the tree.
    assert.equal(itemLabel(itemOf({ name: 'reviewer\u3164', qualifiedName: 'reviewer\u3164' })), 'reviewer\\u{3164}');
  });

  it('leaves visible text alone, and stays idempotent', () => {
    for (const text of ['한국어 텍스트', 'ᠮᠣᠩᠭᠣᠯ', 'ភាសាខ្មែរ', 'café 😀 ！']) assert.equal(displayText(text), text);
    const once = displayText('x\u3164\u034f');
    assert.equal(displayText(once), once);
  });
});
