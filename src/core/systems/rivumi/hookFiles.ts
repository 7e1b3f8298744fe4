/**
 * Python's `json.loads(bytes)` detects UTF-8 (with or without BOM), UTF-16 and UTF-32
 * from the first bytes; Rivumi reads `hooks.json` that way (rivumi.md §4.4). The branches
 * are those of Python's `json.detect_encoding`, in its order.
 */
export function decodeJsonBytes(b: Uint8Array): string | undefined {
  const dec = (enc: string, bytes: Uint8Array) => {
    try {
      // ignoreBOM false: a leading BOM is dropped, as Python's utf-16, utf-32 and utf-8-sig codecs drop it.
      return new TextDecoder(enc, { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      return undefined;
    }
  };
  const startsWith = (...prefix: number[]) => prefix.every((x, i) => b[i] === x);
  if (startsWith(0, 0, 0xfe, 0xff)) return utf32(b.subarray(4), false);
  if (startsWith(0xff, 0xfe, 0, 0)) return utf32(b.subarray(4), true);
  if (startsWith(0xfe, 0xff)) return dec('utf-16be', b);
  if (startsWith(0xff, 0xfe)) return dec('utf-16le', b);
  if (b.length >= 4) {
    if (!b[0]) return b[1] ? dec('utf-16be', b) : utf32(b, false);
    if (!b[1]) return b[2] || b[3] ? dec('utf-16le', b) : utf32(b, true);
  } else if (b.length === 2) {
    if (!b[0]) return dec('utf-16be', b);
    if (!b[1]) return dec('utf-16le', b);
  }
  // UTF-8, and utf-8-sig after a UTF-8 BOM: the decoder drops one BOM either way (plain UTF-8 text never starts with one).
  return dec('utf-8', b);
}

/** UTF-32 without its BOM: whole code points only, no surrogates, nothing above U+10FFFF. */
function utf32(b: Uint8Array, littleEndian: boolean): string | undefined {
  if (b.length % 4 !== 0) return undefined;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let out = '';
  for (let i = 0; i < b.length; i += 4) {
    const cp = view.getUint32(i, littleEndian);
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
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
