import { decodeUtf8 } from '../../fs/rawNames';
/**
 * Python's `json.loads(bytes)` detects UTF-8 (with or without BOM), UTF-16 and UTF-32
 * from the first bytes; Rivumi reads `hooks.json` that way (rivumi.md §4.4). The branches
 * are those of Python's `json.detect_encoding`, in its order. It decodes with
 * `'surrogatepass'` (`s.decode(detect_encoding(s), 'surrogatepass')` in json/__init__.py),
 * so an encoded lone surrogate (UTF-8 `ED A0 80`, a lone UTF-16 or UTF-32 unit D800–DFFF)
 * is text, not a decoding error: it becomes that lone surrogate, as a `\ud800` escape does.
 */
export function decodeJsonBytes(b: Uint8Array): string | undefined {
  const startsWith = (...prefix: number[]) => prefix.every((x, i) => b[i] === x);
  if (startsWith(0, 0, 0xfe, 0xff)) return utf32(b.subarray(4), false);
  if (startsWith(0xff, 0xfe, 0, 0)) return utf32(b.subarray(4), true);
  // Python's utf-16 codec reads the BOM for the byte order and drops it.
  if (startsWith(0xfe, 0xff)) return utf16(b.subarray(2), false);
  if (startsWith(0xff, 0xfe)) return utf16(b.subarray(2), true);
  if (b.length >= 4) {
    if (!b[0]) return b[1] ? utf16(b, false) : utf32(b, false);
    if (!b[1]) return b[2] || b[3] ? utf16(b, true) : utf32(b, true);
  } else if (b.length === 2) {
    if (!b[0]) return utf16(b, false);
    if (!b[1]) return utf16(b, true);
  }
  // utf-8-sig after a UTF-8 BOM drops it; plain UTF-8 (no BOM at the start) keeps every character.
  return startsWith(0xef, 0xbb, 0xbf) ? utf8(b.subarray(3)) : utf8(b);
}

/**
 * Strict UTF-8 but for the three-byte encodings of U+D800–U+DFFF (`ED A0..BF 80..BF`),
 * which surrogatepass turns into the surrogate. `ED` is only ever a lead byte, so the
 * text between them decodes on its own, each piece keeping a U+FEFF it starts with.
 */
function utf8(b: Uint8Array): string | undefined {
  let out = '';
  let from = 0;
  for (let i = 0; i + 2 < b.length; i++) {
    const [x, y, z] = [b[i] as number, b[i + 1] as number, b[i + 2] as number];
    if (x !== 0xed || y < 0xa0 || y > 0xbf || (z & 0xc0) !== 0x80) continue;
    const piece = decodeUtf8(b.subarray(from, i));
    if (piece === undefined) return undefined;
    out += piece + String.fromCharCode(0xd000 | ((y & 0x3f) << 6) | (z & 0x3f));
    from = i + 3;
    i += 2;
  }
  const rest = decodeUtf8(b.subarray(from));
  return rest === undefined ? undefined : out + rest;
}

/** UTF-16 without its BOM: whole code units, each kept as it is, lone surrogates included. */
function utf16(b: Uint8Array, littleEndian: boolean): string | undefined {
  if (b.length % 2 !== 0) return undefined;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const units: string[] = [];
  for (let i = 0; i < b.length; i += 2) units.push(String.fromCharCode(view.getUint16(i, littleEndian)));
  return units.join('');
}

/** UTF-32 without its BOM: whole code points, lone surrogates included, nothing above U+10FFFF. */
function utf32(b: Uint8Array, littleEndian: boolean): string | undefined {
  if (b.length % 4 !== 0) return undefined;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let out = '';
  for (let i = 0; i < b.length; i += 4) {
    const cp = view.getUint32(i, littleEndian);
    if (cp > 0x10ffff) return undefined;
    out += String.fromCodePoint(cp);
  }
  return out;
}

/** Code-point order, as Python sorts strings (rivumi.md §2 "Order"). */
export function codePointCompare(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const d = (x.value.codePointAt(0) ?? 0) - (y.value.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
}
