/**
 * Python's `json.loads(bytes)` detects UTF-8 (with or without BOM), UTF-16 and UTF-32
 * from the first bytes; Rivumi reads `hooks.json` that way (rivumi.md §4.4).
 */
export function decodeJsonBytes(b: Uint8Array): string | undefined {
  const dec = (enc: string, bytes: Uint8Array) => {
    try {
      return new TextDecoder(enc, { fatal: true, ignoreBOM: false }).decode(bytes);
    } catch {
      return undefined;
    }
  };
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return dec('utf-8', b);
  if (
    (b[0] === 0xff && b[1] === 0xfe && b[2] === 0 && b[3] === 0) ||
    (b[0] === 0 && b[1] === 0 && b[2] === 0xfe && b[3] === 0xff)
  )
    return utf32(b);
  if ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff))
    return dec(b[0] === 0xff ? 'utf-16le' : 'utf-16be', b);
  if (b.length >= 4) {
    if (b[0] === 0 && b[1] === 0 && b[2] === 0) return utf32(b, false);
    if (b[1] === 0 && b[2] === 0 && b[3] === 0) return utf32(b, true);
    if (b[0] === 0) return dec('utf-16be', b);
    if (b[1] === 0) return dec('utf-16le', b);
  } else if (b.length >= 2) {
    if (b[0] === 0) return dec('utf-16be', b);
    if (b[1] === 0) return dec('utf-16le', b);
  }
  return dec('utf-8', b);
}

function utf32(b: Uint8Array, littleEndian?: boolean): string | undefined {
  let start = 0;
  let le = littleEndian ?? true;
  if (littleEndian === undefined) {
    le = b[0] === 0xff;
    start = 4;
  }
  if ((b.length - start) % 4 !== 0) return undefined;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let out = '';
  for (let i = start; i < b.length; i += 4) {
    const cp = view.getUint32(i, le);
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
