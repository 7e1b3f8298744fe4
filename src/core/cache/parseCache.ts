import { randomBytes } from 'node:crypto';
import * as nodeFs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { sha256Hex } from '../hashing/framing';
import { codeIdentity } from './codeIdentity';
import { currentUid, ownAndPrivate, ownDirectory } from './privateToUser';

/**
 * A persistent cache of what each trust unit's bytes derive to (its parsed manifest,
 * validation findings, capability model), so a warm start costs a content walk
 * (docs/parse-cache.md). Disposable by design: a file that is missing, unreadable,
 * truncated, corrupt or written by other code is ignored and rebuilt, and every
 * failure to write is ignored; nothing here ever fails an index.
 *
 * One file per segment (an agent names one per discovery root). Each entry belongs to
 * one unit (its directory) and holds the key of the inputs it was derived from; a
 * lookup hits only when the key is equal. A file holds only the entries the last run
 * used, so it stays the size of the workspace. Writes go to a temporary file renamed
 * over the old one: a concurrent reader sees the old file or the new, never half.
 */
export class ParseCache {
  private readonly segments = new Map<string, CacheSegment>();

  constructor(
    private readonly dir: string,
    private readonly io: CacheIo = NODE_CACHE_IO,
    private readonly identity: string = codeIdentity(),
  ) {}

  /** The entries of one segment (loaded from its file on first use). */
  segment(name: string): CacheSegment {
    let s = this.segments.get(name);
    if (!s) {
      s = new CacheSegment(path.join(this.dir, `${sha256Hex(name).slice(0, 32)}${SUFFIX}`), this.io, this.identity);
      this.segments.set(name, s);
    }
    return s;
  }

  /** A new run (a full index): entries count as used again only when this run uses them. */
  beginRun(): void {
    for (const s of this.segments.values()) s.beginRun();
  }

  /** Writes each segment whose entries changed, then drops the oldest files past the bound; never throws. */
  save(): void {
    let wrote = false;
    for (const s of this.segments.values()) wrote = s.save(this.dir) || wrote;
    if (wrote) evictOldFiles(this.dir, this.io);
  }
}

/** One file's entries: each unit's entry, and which of them this run used. */
export class CacheSegment {
  private loaded = false;
  /** Unit → its entry: as read from the file, or put in this process. */
  private readonly entries = new Map<string, Entry>();
  private readonly used = new Set<string>();
  /** How many entries the file held, and whether this run put any: unchanged and all used means no write. */
  private onDisk = 0;
  private changed = false;

  constructor(
    private readonly file: string,
    private readonly io: CacheIo,
    private readonly identity: string,
  ) {}

  /**
   * The value stored for `unit` under exactly `key`, or undefined. The caller validates
   * its shape. Values are plain data that nobody changes: one recalled or put in this
   * process is handed out as it is, not copied.
   */
  get(unit: string, key: string): unknown {
    this.load();
    const entry = this.entries.get(unit);
    if (!entry || entry.key !== key) return undefined;
    if ('text' in entry) {
      let value: unknown;
      try {
        value = JSON.parse(entry.text);
      } catch {
        return undefined;
      }
      // The text is dropped once parsed: the value is kept by the index anyway, so the
      // cache holds no second copy of what a warm run has already recalled.
      this.entries.set(unit, { key, value });
      this.used.add(unit);
      return value;
    }
    this.used.add(unit);
    return entry.value;
  }

  /**
   * Stores `unit`'s value (plain data) under `key`. It is kept as it is and written as
   * JSON by `save`: its text never waits in memory for the end of the run (about 70 MB
   * at 10,000 bundles). A value JSON cannot hold is not written.
   */
  put(unit: string, key: string, value: unknown): void {
    this.load();
    this.entries.set(unit, { key, value });
    this.used.add(unit);
    this.changed = true;
  }

  beginRun(): void {
    this.used.clear();
  }

  /**
   * Whether a file was written. The entries are encoded one after the other into one
   * reused piece of about a mebibyte, written when full, with the header's length and
   * CRC-32 counted along: the file's content never exists in memory whole, and no entry
   * becomes a string or a buffer of its own on the way. The header is written last, in
   * the space kept for it at the start (JSON allows the spaces that pad it).
   */
  save(dir: string): boolean {
    if (!this.loaded || (!this.changed && this.used.size === this.onDisk)) return false;
    const temp = `${this.file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    const headerSpace = headerWidth(this.identity) + 1;
    let lines = 0;
    try {
      this.io.mkdir(dir);
      this.io.writeFile(temp, (write) => {
        const body = new BodyWriter(write, headerSpace);
        for (const unit of this.used) {
          // An entry is gone, or holds a value JSON cannot hold: it has no line.
          const e = this.entries.get(unit);
          const text = e === undefined ? undefined : entryText(e);
          if (e === undefined || text === undefined) continue;
          body.add(`${lines++ === 0 ? '' : '\n'}${JSON.stringify(unit)}\t${JSON.stringify(e.key)}\t`);
          body.add(text);
        }
        const { length, crc } = body.end();
        const header: Header = { magic: MAGIC, format: FORMAT, identity: this.identity, length, crc };
        write(Buffer.from(`${JSON.stringify(header).padEnd(headerSpace - 1)}\n`, 'utf8'), 0);
      });
      this.io.rename(temp, this.file);
    } catch {
      try {
        this.io.unlink(temp);
      } catch {
        // Nothing was written, or it is gone already.
      }
      return false;
    }
    this.onDisk = lines;
    this.changed = false;
    return true;
  }

  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    const entries = readCacheFile(this.file, this.io, this.identity);
    for (const [unit, entry] of entries) this.entries.set(unit, entry);
    this.onDisk = entries.size;
  }
}

/** The file system calls the cache makes, injected so tests can make any of them fail. */
export interface CacheIo {
  /** Reads `file` from its start, handing each piece to `take` (which may keep none of its memory) until it returns false or the file ends. */
  readFile(file: string, take: (piece: Buffer) => boolean): void;
  /**
   * Creates `file` (never over an existing one) and lets `fill` write its bytes, each
   * piece at its position; a piece's memory is reused once `write` returns.
   */
  writeFile(file: string, fill: (write: (data: Uint8Array, position: number) => void) => void): void;
  rename(from: string, to: string): void;
  unlink(file: string): void;
  mkdir(dir: string): void;
  /** Names in a directory with each one's last write time (ms), for evicting the oldest files. */
  list(dir: string): { readonly name: string; readonly mtimeMs: number }[];
}

export const NODE_CACHE_IO: CacheIo = {
  readFile: (file, take) => {
    const uid = mustBePrivate(file);
    // Never through a link, and never waiting on a FIFO's writer: a cache file is a regular file its writer renamed there.
    const fd = nodeFs.openSync(file, READ_FLAGS);
    try {
      const st = nodeFs.fstatSync(fd);
      if (!st.isFile()) throw new Error(`${file} is not a regular file`);
      // A second link could be a name another user keeps for the same bytes.
      if (uid !== undefined && (!ownAndPrivate(st, uid) || st.nlink !== 1))
        throw new Error(`${file} is not the user's own`);
      const buffer = Buffer.allocUnsafe(READ_PIECE_BYTES);
      for (;;) {
        const n = nodeFs.readSync(fd, buffer, 0, buffer.length, null);
        if (n === 0 || !take(buffer.subarray(0, n))) break;
      }
    } finally {
      nodeFs.closeSync(fd);
    }
  },
  writeFile: (file, fill) => {
    // Nothing is read back from a directory others can write (mustBePrivate): writing there would be wasted.
    mustBePrivate(file);
    const fd = nodeFs.openSync(file, 'wx', 0o600);
    try {
      fill((data, position) => {
        for (let done = 0; done < data.length;)
          done += nodeFs.writeSync(fd, data, done, data.length - done, position + done);
      });
    } finally {
      nodeFs.closeSync(fd);
    }
  },
  rename: (from, to) => nodeFs.renameSync(from, to),
  unlink: (file) => nodeFs.unlinkSync(file),
  mkdir: (dir) => void nodeFs.mkdirSync(dir, { recursive: true, mode: 0o700 }),
  list: (dir) =>
    nodeFs.readdirSync(dir).map((name) => ({ name, mtimeMs: nodeFs.statSync(path.join(dir, name)).mtimeMs })),
};

/**
 * The user a cache file must belong to, after checking that its directory is that user's
 * and nobody else can write into it (privateToUser.ts): an entry is replayed as a bundle's
 * items and diagnostics, so one forged by another local user would hide or invent what a
 * bundle does. Undefined where there is no owner to check (Windows).
 */
function mustBePrivate(file: string): number | undefined {
  const uid = currentUid();
  if (uid !== undefined && !ownDirectory(path.dirname(file), uid))
    throw new Error(`${path.dirname(file)} is not a directory only this user can write`);
  return uid;
}

/** An entry as read from the file (its JSON text, parsed when it is asked for), or as recalled or put since. */
type Entry = { readonly key: string; readonly text: string } | { readonly key: string; readonly value: unknown };

/** An entry's value as JSON text, or undefined for a value JSON cannot hold. */
function entryText(e: Entry): string | undefined {
  if ('text' in e) return e.text;
  try {
    return JSON.stringify(e.value);
  } catch {
    return undefined;
  }
}

/**
 * The body of a cache file as it is written: text encoded as UTF-8 straight into one
 * piece of memory reused for the whole file, each full piece written at its position
 * with the body's length and CRC-32 counted along. A text too long for a piece is
 * written on its own.
 */
class BodyWriter {
  private readonly piece = Buffer.allocUnsafe(WRITE_PIECE_BYTES);
  private used = 0;
  private length = 0;
  private crc = 0;

  constructor(
    private readonly write: (data: Uint8Array, position: number) => void,
    private readonly start: number,
  ) {}

  add(text: string): void {
    // A UTF-16 code unit is at most three bytes of UTF-8 (a surrogate pair, two units, is four).
    if (this.used + text.length * 3 > this.piece.length) {
      this.flush();
      if (text.length * 3 > this.piece.length) {
        this.written(Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.used += this.piece.write(text, this.used, 'utf8');
  }

  /** Writes what is left; the body's length and CRC-32. */
  end(): { length: number; crc: number } {
    this.flush();
    return { length: this.length, crc: this.crc };
  }

  private flush(): void {
    if (this.used === 0) return;
    this.written(this.piece.subarray(0, this.used));
    this.used = 0;
  }

  private written(bytes: Buffer): void {
    this.write(bytes, this.start + this.length);
    this.length += bytes.length;
    this.crc = zlib.crc32(bytes, this.crc);
  }
}

interface Header {
  readonly magic: string;
  readonly format: number;
  readonly identity: string;
  readonly length: number;
  readonly crc: number;
}

/** The longest header line this identity can have: the space `save` keeps for it. */
function headerWidth(identity: string): number {
  const widest: Header = { magic: MAGIC, format: FORMAT, identity, length: Number.MAX_SAFE_INTEGER, crc: 0xffffffff };
  return JSON.stringify(widest).length;
}

const MAGIC = 'skillgate-parse-cache';
/** The layout of the file; the identity covers the layout of each value. */
const FORMAT = 1;
const SUFFIX = '.cache';
const READ_FLAGS = nodeFs.constants.O_RDONLY | (nodeFs.constants.O_NOFOLLOW ?? 0) | (nodeFs.constants.O_NONBLOCK ?? 0);
/** Bytes of a cache file read at once. */
const READ_PIECE_BYTES = 1 << 20;
/** Bytes of entries encoded before one write. */
const WRITE_PIECE_BYTES = 1 << 20;
/** Segment files kept in the directory: about one per discovery root of a recently indexed workspace. */
export const MAX_SEGMENT_FILES = 64;
/** A temporary file this old was left by a writer that died before its rename. */
const STALE_TEMP_MS = 60 * 60 * 1000;

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

/** The header line when it names this format and this identity (its length and CRC are checked at the end). */
function parsedHeader(line: Buffer, identity: string): Header | undefined {
  let header: Partial<Header>;
  try {
    header = JSON.parse(line.toString('utf8')) as Partial<Header>;
  } catch {
    return undefined;
  }
  if (
    header === null ||
    typeof header !== 'object' ||
    header.magic !== MAGIC ||
    header.format !== FORMAT ||
    header.identity !== identity ||
    typeof header.length !== 'number' ||
    typeof header.crc !== 'number'
  )
    return undefined;
  return header as Header;
}

/** Keeps the directory bounded: the newest segment files, and no temporary file a dead writer left. */
function evictOldFiles(dir: string, io: CacheIo): void {
  try {
    const files = io.list(dir);
    const now = Date.now();
    for (const f of files)
      if (f.name.endsWith('.tmp') && now - f.mtimeMs > STALE_TEMP_MS) io.unlink(path.join(dir, f.name));
    const segments = files.filter((f) => f.name.endsWith(SUFFIX)).sort((a, b) => b.mtimeMs - a.mtimeMs);
    for (const f of segments.slice(MAX_SEGMENT_FILES)) io.unlink(path.join(dir, f.name));
  } catch {
    // Another process may be evicting the same files; the next save tries again.
  }
}
