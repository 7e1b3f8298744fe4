// Draws the Marketplace icon, media/icon.png (128×128 RGBA), from the shield of
// media/shield.svg: the same path, filled, with the check mark, on a rounded square.
// Plain Node (zlib only), deterministic: `node scripts/icon.mjs` writes the same bytes
// every time, and the packaging test checks the committed file is what this draws.
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SIZE = 128;
const SUB = 4; // 4×4 samples per pixel: smooth edges
const BACKGROUND = [0x1b, 0x26, 0x3b];
const SHIELD = [0x2f, 0xa8, 0x6b];
const RIM = [0x8f, 0xe3, 0xb5];
const CHECK = [0xff, 0xff, 0xff];

// shield.svg's 24-unit path "M12 2.5 4 5.5v6c0 5 3.4 8.8 8 10 4.6-1.2 8-5 8-10v-6l-8-3Z", flattened.
function cubic(p0, p1, p2, p3, steps = 32) {
  const out = [];
  for (let i = 1; i <= steps; i++) {
    const t = i / steps;
    const u = 1 - t;
    out.push([
      u * u * u * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t * t * t * p3[0],
      u * u * u * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t * t * t * p3[1],
    ]);
  }
  return out;
}
const shield = [
  [12, 2.5],
  [4, 5.5],
  [4, 11.5],
  ...cubic([4, 11.5], [4, 16.5], [7.4, 20.3], [12, 21.5]),
  ...cubic([12, 21.5], [16.6, 20.3], [20, 16.5], [20, 11.5]),
  [20, 5.5],
];
const check = [
  [8.5, 12],
  [11, 14.5],
  [15.5, 9.5],
];

// 24 units → 104 pixels, centred (12 px margin), as the icon's visual weight wants.
const scale = 104 / 24;
const offset = (SIZE - 24 * scale) / 2;
const toUnits = (px) => (px - offset) / scale;

function inside(poly, x, y) {
  let odd = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i];
    const [xj, yj] = poly[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) odd = !odd;
  }
  return odd;
}

function distanceToPolyline(line, x, y) {
  let best = Infinity;
  for (let i = 0; i + 1 < line.length; i++) {
    const [ax, ay] = line[i];
    const [bx, by] = line[i + 1];
    const t = Math.max(
      0,
      Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)),
    );
    best = Math.min(best, Math.hypot(x - (ax + t * (bx - ax)), y - (ay + t * (by - ay))));
  }
  return best;
}

function inRoundedSquare(x, y, radius) {
  const cx = Math.min(Math.max(x, radius), SIZE - radius);
  const cy = Math.min(Math.max(y, radius), SIZE - radius);
  return Math.hypot(x - cx, y - cy) <= radius;
}

const closedShield = [...shield, shield[0]];
function sample(px, py) {
  if (!inRoundedSquare(px, py, 24)) return null;
  const x = toUnits(px);
  const y = toUnits(py);
  if (distanceToPolyline(check, x, y) <= 1.15) return CHECK;
  if (inside(shield, x, y)) return distanceToPolyline(closedShield, x, y) <= 0.7 ? RIM : SHIELD;
  return BACKGROUND;
}

/** The icon's pixels, RGBA row after row. */
export function drawPixels() {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const acc = [0, 0, 0, 0];
      for (let sy = 0; sy < SUB; sy++) {
        for (let sx = 0; sx < SUB; sx++) {
          const c = sample(x + (sx + 0.5) / SUB, y + (sy + 0.5) / SUB);
          if (!c) continue;
          acc[0] += c[0];
          acc[1] += c[1];
          acc[2] += c[2];
          acc[3] += 1;
        }
      }
      const n = acc[3];
      const o = (y * SIZE + x) * 4;
      if (n > 0) {
        pixels[o] = Math.round(acc[0] / n);
        pixels[o + 1] = Math.round(acc[1] / n);
        pixels[o + 2] = Math.round(acc[2] / n);
        pixels[o + 3] = Math.round((255 * n) / (SUB * SUB));
      }
    }
  }
  return pixels;
}

export function drawIcon() {
  return png(SIZE, SIZE, drawPixels());
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/**
 * The colours of `pixels` (RGBA) as a PNG palette, in the order they first appear, those
 * not fully opaque first so that the transparency chunk stops at the last of them; none
 * past 256, which an indexed PNG cannot hold.
 */
function palette(pixels) {
  const seen = new Map();
  for (let o = 0; o < pixels.length && seen.size <= 256; o += 4) {
    const key = pixels.readUInt32BE(o);
    if (!seen.has(key)) seen.set(key, seen.size);
  }
  if (seen.size > 256) return undefined;
  const colours = [...seen.keys()].sort((a, b) => ((a & 0xff) === 0xff) - ((b & 0xff) === 0xff));
  return new Map(colours.map((c, i) => [c, i]));
}

/**
 * An 8-bit PNG of `pixels` (RGBA, row after row): indexed with a palette and its alphas
 * while the drawing has at most 256 colours (the icon has a few dozen: issue 15, 1.9 KB
 * as RGBA, 1.3 KB indexed, pixel for pixel the same), else RGBA. Every row unfiltered.
 */
function png(width, height, pixels) {
  const colours = palette(pixels);
  const channels = colours ? 1 : 4;
  const raw = Buffer.alloc(height * (1 + width * channels));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = (y * width + x) * 4;
      const to = y * (1 + width * channels) + 1 + x * channels;
      if (colours) raw[to] = colours.get(pixels.readUInt32BE(from));
      else pixels.copy(raw, to, from, from + 4);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = colours ? 3 : 6; // indexed, or RGBA
  const entries = colours ? [...colours.keys()] : [];
  const rgb = Buffer.alloc(entries.length * 3);
  entries.forEach((c, i) => rgb.writeUIntBE(c >>> 8, i * 3, 3));
  const alphas = Buffer.from(entries.map((c) => c & 0xff).filter((a) => a !== 0xff));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    ...(colours ? [chunk('PLTE', rgb), ...(alphas.length > 0 ? [chunk('tRNS', alphas)] : [])] : []),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL('../media/icon.png', import.meta.url), drawIcon());
  console.log('wrote media/icon.png (128×128)');
}
