import * as zlib from 'node:zlib';
import type { CacheIo } from './parseCacheIo';
import type { Entry } from './parseCacheEntry';
import { headerWidth, parsedHeader, type Header } from './parseCacheHeader';

/**
 * The entries of a cache file, or none when it cannot be read or trusted: the header
 * must name this format and this code's identity, and the body must have the length
 * and CRC-32 the header records (a truncated or bit-flipped file is refused whole).
 */
export function readCacheFile(file: string, io: CacheIo, identity: string): Map<string, Entry> {
  const reader = new CacheFileReader(identity);
  try {
    io.readFile(file, (piece) => reader.take(piece));
  } catch {
    return new Map();
  }
  return reader.entries();
}

/**
 * A cache file read piece by piece: the header first, then each entry's line as it
 * completes, its text decoded on its own. The file never exists in memory whole (it
 * is about 70 MB at 10,000 bundles), and an entry's text is dropped when it is
 * recalled. The length and CRC-32 are counted along and checked at the end; a file
 * that fails them gives no entry.
 */
class CacheFileReader {
  /** The header line's bytes until its newline arrives, and how many they are. */
  private readonly headerBytes: Buffer[] = [];
  private headerLength = 0;
  private header: Header | undefined;
  /** The bytes of the body's line that is not complete yet. */
  private partial: Buffer[] = [];
  private length = 0;
  private crc = 0;
  private refused = false;
  private readonly parsed = new Map<string, Entry>();
  /** The longest header line `save` writes for this identity, its newline included: a longer one is not a header. */
  private readonly headerLimit: number;

  constructor(private readonly identity: string) {
    this.headerLimit = headerWidth(identity) + 1;
  }

  /** Takes the next piece of the file (the reader may reuse its memory after); false: nothing more is needed. */
  take(piece: Buffer): boolean {
    let body = piece;
    if (this.header === undefined) {
      const newline = piece.indexOf(0x0a);
      if (newline < 0) {
        this.headerBytes.push(Buffer.from(piece));
        this.headerLength += piece.length;
        return this.headerLength < this.headerLimit || this.refuse();
      }
      this.header = parsedHeader(Buffer.concat([...this.headerBytes, piece.subarray(0, newline)]), this.identity);
      if (this.header === undefined) return this.refuse();
      body = piece.subarray(newline + 1);
    }
    this.length += body.length;
    if (this.length > this.header.length) return this.refuse();
    this.crc = zlib.crc32(body, this.crc);
    let start = 0;
    for (let newline = body.indexOf(0x0a); newline >= 0; newline = body.indexOf(0x0a, start)) {
      const line = this.partial.length
        ? Buffer.concat([...this.partial, body.subarray(start, newline)])
        : body.subarray(start, newline);
      this.partial = [];
      if (!this.entry(line)) return this.refuse();
      start = newline + 1;
    }
    if (start < body.length) this.partial.push(Buffer.from(body.subarray(start)));
    return true;
  }

  /** What the whole file held, or nothing when any of it was wrong. */
  entries(): Map<string, Entry> {
    const h = this.header;
    if (this.refused || h === undefined || h.length !== this.length || h.crc !== this.crc || this.length === 0)
      return new Map();
    // The last line has no newline after it (an empty last line is a malformed entry).
    return this.entry(Buffer.concat(this.partial)) ? this.parsed : new Map();
  }

  private refuse(): false {
    this.refused = true;
    return false;
  }

  /** One line: the unit and the key as JSON strings, then the value's JSON text, separated by tabs. */
  private entry(line: Buffer): boolean {
    const first = line.indexOf(0x09);
    const second = first < 0 ? -1 : line.indexOf(0x09, first + 1);
    if (second < 0) return false;
    try {
      const unit: unknown = JSON.parse(line.toString('utf8', 0, first));
      const key: unknown = JSON.parse(line.toString('utf8', first + 1, second));
      if (typeof unit !== 'string' || typeof key !== 'string') return false;
      this.parsed.set(unit, { key, text: line.toString('utf8', second + 1) });
      return true;
    } catch {
      return false;
    }
  }
}
