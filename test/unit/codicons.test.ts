import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FULL_CODICONS, SUBSET_CODICONS, codiconGlyphs, codiconSubsetCss, usedCodicons } from '../../scripts/codicons';

/** The code points a TrueType font maps to a glyph, from its cmap (formats 4 and 12, the ones fontTools writes). */
function mappedCodePoints(font: Buffer): Set<number> {
  const tables = font.readUInt16BE(4);
  const cmapRecord = Array.from({ length: tables }, (_, i) => 12 + 16 * i).find(
    (r) => font.toString('latin1', r, r + 4) === 'cmap',
  );
  assert.ok(cmapRecord !== undefined, 'the font has a cmap');
  const cmap = font.readUInt32BE(cmapRecord + 8);
  const mapped = new Set<number>();
  for (let i = 0; i < font.readUInt16BE(cmap + 2); i++) {
    const sub = cmap + font.readUInt32BE(cmap + 4 + 8 * i + 4);
    const format = font.readUInt16BE(sub);
    if (format === 4) {
      const segments = font.readUInt16BE(sub + 6) / 2;
      const ends = sub + 14;
      const starts = ends + 2 * segments + 2;
      for (let s = 0; s < segments; s++) {
        const [start, end] = [font.readUInt16BE(starts + 2 * s), font.readUInt16BE(ends + 2 * s)];
        for (let c = start; c <= end && c !== 0xffff; c++) mapped.add(c);
      }
    } else if (format === 12) {
      for (let g = 0; g < font.readUInt32BE(sub + 12); g++) {
        const group = sub + 16 + 12 * g;
        for (let c = font.readUInt32BE(group); c <= font.readUInt32BE(group + 4); c++) mapped.add(c);
      }
    }
  }
  return mapped;
}

describe('the review panel codicons (media/codicons, scripts/codicons.ts)', () => {
  const subsetCss = fs.readFileSync(path.join(SUBSET_CODICONS, 'codicon.css'), 'utf8');

  it('has a rule for every codicon the webview uses, and no other (npx tsx scripts/codicons.ts)', () => {
    const fullCss = fs.readFileSync(path.join(FULL_CODICONS, 'codicon.css'), 'utf8');
    const used = usedCodicons(new Set(codiconGlyphs(fullCss).keys()));
    for (const name of ['verified', 'warning', 'diff', 'book', 'extensions', 'hubot'])
      assert.ok(used.includes(name), `${name} is found as used`);
    assert.equal(subsetCss, codiconSubsetCss(fullCss, used));
  });

  it('ships a font with a glyph for every code point of its stylesheet', () => {
    const mapped = mappedCodePoints(fs.readFileSync(path.join(SUBSET_CODICONS, 'codicon.ttf')));
    const glyphs = codiconGlyphs(subsetCss);
    assert.ok(glyphs.size > 0);
    for (const [name, codePoint] of glyphs)
      assert.ok(mapped.has(codePoint), `codicon-${name} has no glyph in the font`);
  });

  it('keeps the full font face and base rule, pointing at the font beside it', () => {
    assert.match(subsetCss, /@font-face \{[^}]*src: url\("\.\/codicon\.ttf[?"]/);
    assert.match(subsetCss, /\.codicon\[class\*='codicon-'\] \{/);
  });
});
