/**
 * How Python names and orders the files Rivumi lists (rivumi.md §2 "Listing", "Order"),
 * stated here apart from the product's own (src/core/systems/rivumi/listing.ts,
 * src/core/fs/rawNames.ts), so that a product sorting another way is caught:
 * `os.listdir` decodes a name as UTF-8 with `surrogateescape` (each byte that is not part
 * of a well-formed character becomes U+DC80–U+DCFF), and `sorted()` compares code points,
 * which is neither byte order (`\xc3` sorts after `é` although its byte is smaller) nor
 * JavaScript's UTF-16 order (U+FF01 sorts before U+1F600).
 */

/** The length of the well-formed UTF-8 character at `i` (RFC 3629: no surrogates, no overlongs), or 0. */
function charLength(b: Buffer, i: number): number {
  const b0 = b[i] as number;
  if (b0 < 0x80) return 1;
  const cont = (at: number, lo = 0x80, hi = 0xbf) =>
    at < b.length && (b[at] as number) >= lo && (b[at] as number) <= hi;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(i + 1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const [lo, hi] = b0 === 0xe0 ? [0xa0, 0xbf] : b0 === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(i + 1, lo, hi) && cont(i + 2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const [lo, hi] = b0 === 0xf0 ? [0x90, 0xbf] : b0 === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

/** `os.fsdecode(name)` on POSIX: UTF-8, each stray byte as the lone surrogate U+DC00 + byte. */
export function surrogateEscaped(name: Buffer): string {
  let out = '';
  for (let i = 0; i < name.length;) {
    const n = charLength(name, i);
    if (n === 0) {
      out += String.fromCharCode(0xdc00 + (name[i] as number));
      i++;
    } else {
      out += name.subarray(i, i + n).toString('utf8');
      i += n;
    }
  }
  return out;
}

/** Python's `str` comparison: code point by code point (a lone surrogate is its own code point). */
export function byCodePoints(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}
