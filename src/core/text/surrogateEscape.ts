/**
 * Python's `surrogateescape` (PEP 383), the way Rivumi turns file names into strings and
 * strings back into OS bytes: `os.listdir` decodes a name's UTF-8 with each undecodable
 * byte 0x80–0xFF becoming the lone surrogate U+DC80–U+DCFF, and `subprocess`/`open`
 * encode those surrogates back to the bytes. Node instead turns a lone surrogate into
 * U+FFFD wherever a string becomes bytes (a path, a hash input), so every such string
 * must pass through `osPath`/`osBytes` first (rivumi.md §2, trust.md "Hook argv files").
 */

import { decodeUtf8 } from '../fs/safeFs';

const HAS_SURROGATE = /[\ud800-\udfff]/;

/** Python's `bytes.decode('utf-8', 'surrogateescape')`: total and exactly reversible. */
export function decodeOsBytes(bytes: Uint8Array): string {
  const utf8 = decodeUtf8(bytes);
  if (utf8 !== undefined) return utf8;
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const n = validSequenceLength(bytes, i);
    if (n === 0) {
      out += String.fromCharCode(0xdc00 + (bytes[i] as number));
      i += 1;
    } else {
      out += Buffer.from(bytes.subarray(i, i + n)).toString('utf8');
      i += n;
    }
  }
  return out;
}

/** Length of the well-formed UTF-8 sequence at `i` (no overlong forms, no surrogates), or 0. */
function validSequenceLength(b: Uint8Array, i: number): number {
  const x = b[i] as number;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < b.length && (b[i + k] as number) >= lo && (b[i + k] as number) <= hi;
  if (x < 0x80) return 1;
  if (x >= 0xc2 && x <= 0xdf) return cont(1) ? 2 : 0;
  if (x === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((x >= 0xe1 && x <= 0xec) || x === 0xee || x === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (x === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (x === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (x >= 0xf1 && x <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (x === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

/**
 * Python's `str.encode('utf-8', 'surrogateescape')`. Undefined when the string holds a
 * lone surrogate outside U+DC80–U+DCFF: Python raises UnicodeEncodeError there, so the
 * name cannot be represented as OS bytes at all.
 */
export function encodeOsString(s: string): Buffer | undefined {
  if (!HAS_SURROGATE.test(s)) return Buffer.from(s, 'utf8');
  const parts: Buffer[] = [];
  let run = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        run += s.slice(i, i + 2);
        i++;
        continue;
      }
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      if (c < 0xdc80 || c > 0xdcff) return undefined;
      parts.push(Buffer.from(run, 'utf8'), Buffer.from([c - 0xdc00]));
      run = '';
      continue;
    }
    run += s.charAt(i);
  }
  parts.push(Buffer.from(run, 'utf8'));
  return Buffer.concat(parts);
}

/** True when the string has no lone surrogate (it is its own UTF-8 bytes). */
export function isWellFormed(s: string): boolean {
  return !HAS_SURROGATE.test(s) || encodeOsString(s)?.toString('utf8') === s;
}

/**
 * A path string as the OS must see it: the string itself when well-formed, else its
 * surrogateescape bytes. A path that cannot be encoded is refused before it gets here
 * (an argv or skill path is checked with `encodeOsString` first); reaching this with one
 * is a bug, and failing loudly is closed.
 */
export function osPath(p: string): string | Buffer {
  if (!HAS_SURROGATE.test(p)) return p;
  const b = encodeOsString(p);
  if (!b) throw new Error(`internal error: a path that cannot be encoded reached the file system: ${escapeLoneSurrogates(p)}`);
  return b;
}

/**
 * Bytes to hash for a string: its surrogateescape bytes. A string that cannot be encoded
 * (which makes its trust unit untrustable anyway) hashes its UTF-16 code units instead,
 * so that even then distinct strings never hash alike.
 */
export function osBytes(s: string): Buffer {
  return encodeOsString(s) ?? Buffer.concat([Buffer.from('\0utf16le\0'), Buffer.from(s, 'utf16le')]);
}

/** The string with each lone surrogate written as `\udcff`, for messages. */
export function escapeLoneSurrogates(s: string): string {
  if (!HAS_SURROGATE.test(s)) return s;
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}
