import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';

interface IconScript {
  drawIcon: () => Buffer;
  drawPixels: () => Buffer;
}

async function iconScript(): Promise<IconScript> {
  return (await import(pathToFileURL(path.resolve(__dirname, '../../scripts/icon.mjs')).href)) as IconScript;
}

/** A PNG's chunks by type, the IDAT chunks joined (CRCs unchecked: the test reads what scripts/icon.mjs wrote). */
function chunks(png: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString('ascii');
    const data = png.subarray(at + 8, at + 8 + length);
    out.set(type, Buffer.concat([out.get(type) ?? Buffer.alloc(0), data]));
    at += 12 + length;
  }
  return out;
}

/** The RGBA pixels of an 8-bit RGBA or indexed PNG whose rows all use filter 0 (what scripts/icon.mjs writes). */
function rgba(png: Buffer): Buffer {
  const c = chunks(png);
  const header = c.get('IHDR') as Buffer;
  const [width, height, depth, colorType] = [header.readUInt32BE(0), header.readUInt32BE(4), header[8], header[9]];
  assert.equal(depth, 8);
  const raw = inflateSync(c.get('IDAT') as Buffer);
  const channels = colorType === 6 ? 4 : 1;
  const out = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * channels);
    assert.equal(raw[row], 0, `row ${y} is unfiltered`);
    for (let x = 0; x < width; x++) {
      const at = row + 1 + x * channels;
      if (colorType === 6) raw.copy(out, (y * width + x) * 4, at, at + 4);
      else {
        const i = raw[at] as number;
        const palette = c.get('PLTE') as Buffer;
        const alpha = c.get('tRNS') ?? Buffer.alloc(0);
        palette.copy(out, (y * width + x) * 4, i * 3, i * 3 + 3);
        out[(y * width + x) * 4 + 3] = i < alpha.length ? (alpha[i] as number) : 255;
      }
    }
  }
  return out;
}

// Issue 15 (the VSIX ≤ 400 KB): the icon has a few dozen colours, so an indexed PNG holds
// it in fewer bytes than RGBA, pixel for pixel.
describe('the Marketplace icon (scripts/icon.mjs)', () => {
  it('is an indexed PNG whose pixels are exactly the RGBA drawing', async () => {
    const { drawIcon, drawPixels } = await iconScript();
    const png = drawIcon();
    assert.equal(chunks(png).get('IHDR')?.[9], 3, 'colour type 3: indexed');
    assert.ok(rgba(png).equals(drawPixels()), 'the indexed PNG decodes to the drawing');
  });
});
