/**
 * File names are bytes; the core's paths are strings. A name that is valid UTF-8
 * (nearly always) is its decoded string. A name that is not keeps every byte: each
 * byte that does not start a well-formed UTF-8 sequence becomes the lone surrogate
 * U+DC80–U+DCFF (Python's surrogateescape, as Rivumi decodes names). Valid UTF-8 never
 * decodes to a lone surrogate, so the string is an exact, unambiguous spelling of the
 * bytes: it maps back to them at every file-system call (`osPath`), and identities
 * hash those bytes (`osBytes`), never the lossy U+FFFD form Node would produce.
 */

/** The bytes as a path string: strict UTF-8, else surrogateescape for the bytes that are not (Python's `bytes.decode('utf-8', 'surrogateescape')`). */
export function decodeRawName(bytes: Uint8Array): string {
  const text = decodeUtf8(bytes);
  if (text !== undefined) return text;
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const n = sequenceLength(bytes, i);
    if (n === 0) {
      out += String.fromCharCode(0xdc00 + (bytes[i] as number));
      i += 1;
    } else {
      out += decodeUtf8(bytes.subarray(i, i + n)) as string;
      i += n;
    }
  }
  return out;
}

/**
 * Python's `str.encode('utf-8', 'surrogateescape')`, the inverse of `decodeRawName`.
 * Undefined when the string holds a lone surrogate outside U+DC80–U+DCFF: Python raises
 * UnicodeEncodeError there, so such a name cannot be represented as OS bytes at all.
 */
export function encodeOsString(s: string): Buffer | undefined {
  if (!LONE_SURROGATE.test(s)) return Buffer.from(s, 'utf8');
  const parts: Buffer[] = [];
  let run = '';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (ch.length === 1 && c >= 0xd800 && c <= 0xdfff) {
      if (c < 0xdc80 || c > 0xdcff) return undefined;
      if (run) parts.push(Buffer.from(run, 'utf8'));
      run = '';
      parts.push(Buffer.from([c - 0xdc00]));
    } else run += ch;
  }
  if (run) parts.push(Buffer.from(run, 'utf8'));
  return Buffer.concat(parts);
}

/**
 * The bytes to hash for a string: the bytes it stands for. A string that cannot be
 * encoded (its trust unit is refused anyway) hashes its UTF-16 code units instead, so
 * that even then two distinct strings never hash alike.
 */
export function osBytes(s: string): Buffer {
  return encodeOsString(s) ?? Buffer.concat([Buffer.from('\0utf16le\0'), Buffer.from(s, 'utf16le')]);
}

/**
 * What to hand to `fs`: the string itself when it is plain UTF-8, else its exact bytes.
 * A path that cannot be encoded is refused before it gets here (argv and skill paths are
 * checked with `encodeOsString` first); reaching this with one is a bug, and failing
 * loudly (the indexer's fault boundary reports it) is closed.
 */
export function osPath(p: string | Buffer): string | Buffer {
  if (typeof p !== 'string' || !LONE_SURROGATE.test(p)) return p;
  const bytes = encodeOsString(p);
  if (!bytes) throw new Error(`a path that cannot be encoded as bytes reached the file system: ${wellFormed(p)}`);
  return bytes;
}

/** True when the string holds an escaped byte (a name that is not valid UTF-8). */
export function hasEscapedByte(p: string): boolean {
  return ESCAPED_BYTE.test(p);
}

/**
 * The string with every lone surrogate as U+FFFD: for APIs that reject lone
 * surrogates (`encodeURIComponent`, editor URIs). Display only, never a path to open.
 */
export function wellFormed(s: string): string {
  return LONE_SURROGATE.test(s) ? s.replace(LONE_SURROGATE_ALL, '\ufffd') : s;
}

/** Byte order of the UTF-8 (or raw) bytes, as upstream sorts names and paths; not UTF-16 order. */
export function byteOrder(a: string, b: string): number {
  return Buffer.compare(osBytes(a), osBytes(b));
}

/** Strict UTF-8 decoding; undefined when the bytes are not UTF-8. Keeps a BOM. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return UTF8_STRICT.decode(bytes);
  } catch {
    return undefined;
  }
}

const UTF8_STRICT = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const ESCAPED_BYTE = /[\udc80-\udcff]/u;
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const LONE_SURROGATE_ALL = /[\ud800-\udfff]/gu;

/** Length of the well-formed UTF-8 sequence at `i` (Unicode Table 3-7), or 0 when there is none. */
function sequenceLength(b: Uint8Array, i: number): number {
  const b0 = b[i] as number;
  if (b0 < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf) =>
    i + k < b.length && (b[i + k] as number) >= lo && (b[i + k] as number) <= hi;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    const lo = b0 === 0xe0 ? 0xa0 : 0x80;
    const hi = b0 === 0xed ? 0x9f : 0xbf;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    const lo = b0 === 0xf0 ? 0x90 : 0x80;
    const hi = b0 === 0xf4 ? 0x8f : 0xbf;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}
