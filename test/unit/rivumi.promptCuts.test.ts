import { strict as assert } from 'node:assert';
import { boundedText } from '../../src/core/systems/rivumi/promptSection';

/**
 * The two cuts of the middle truncation (rivumi.md §7.2): Python decodes each side with
 * errors="ignore", so only the bytes of a character a cut splits are dropped; the text's
 * own characters, U+FFFD among them, stay whole.
 */
describe('Rivumi prompt section: what each cut of the middle truncation keeps', () => {
  const marker = (n: number) => `\n... output truncated (${n} bytes omitted) ...\n`;
  it("keeps the text's own U+FFFD on both sides of the cut", () => {
    // 40 × U+FFFD is 120 bytes; limit 60: 15 bytes remain, 7 before (2 whole), 8 after (2 whole).
    assert.equal(boundedText('\ufffd'.repeat(40), 60), '\ufffd\ufffd' + marker(60) + '\ufffd\ufffd');
  });
  it('drops the split parts of four-byte characters at both cuts', () => {
    // 25 × U+1F600 is 100 bytes: 7 head bytes hold one whole, 8 tail bytes two.
    assert.equal(boundedText('\u{1F600}'.repeat(25), 60), '\u{1F600}' + marker(40) + '\u{1F600}\u{1F600}');
  });
  it('drops a three-byte character from its first lead byte E0 when the cut splits it', () => {
    // 34 × U+0800 (E0 A0 80) is 102 bytes: 7 head bytes hold two whole and a split one, 8 tail bytes two whole.
    assert.equal(boundedText('\u0800'.repeat(34), 60), '\u0800\u0800' + marker(42) + '\u0800\u0800');
  });
  it('keeps a head that ends exactly after a whole character, and a tail that starts at one', () => {
    // 7 head bytes: 'a' + two 3-byte characters; 8 tail bytes: two 3-byte characters + 'bb'.
    const text = 'a\u20ac\u20ac' + 'x'.repeat(85) + '\u20ac\u20acbb';
    assert.equal(boundedText(text, 60), 'a\u20ac\u20ac' + marker(40) + '\u20ac\u20acbb');
  });
});
