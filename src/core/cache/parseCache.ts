import { randomBytes } from 'node:crypto';
import * as nodeFs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { sha256Hex } from '../hashing/framing';
import { codeIdentity } from './codeIdentity';

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

  /** The value stored for `unit` under exactly `key`, or undefined. The caller validates its shape. */
  get(unit: string, key: string): unknown {
    this.load();
    const entry = this.entries.get(unit);
    if (!entry || entry.key !== key) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(entry.value);
    } catch {
      return undefined;
    }
    this.used.add(unit);
    return value;
  }

  /** Stores `unit`'s value (plain data) under `key`; a value JSON cannot hold is not stored. */
  put(unit: string, key: string, value: unknown): void {
    this.load();
    let text: string | undefined;
    try {
      text = JSON.stringify(value);
    } catch {
      text = undefined;
    }
    if (text === undefined) {
      this.entries.delete(unit);
      return;
    }
    this.entries.set(unit, { key, value: text });
    this.used.add(unit);
    this.changed = true;
  }

  beginRun(): void {
    this.used.clear();
  }

  /** Whether a file was written. */
  save(dir: string): boolean {
    if (!this.loaded || (!this.changed && this.used.size === this.onDisk)) return false;
    const lines: string[] = [];
    for (const unit of this.used) {
      const e = this.entries.get(unit);
      if (e) lines.push(`${JSON.stringify(unit)}\t${JSON.stringify(e.key)}\t${e.value}`);
    }
    const body = Buffer.from(lines.join('\n'), 'utf8');
    const header: Header = {
      magic: MAGIC,
      format: FORMAT,
      identity: this.identity,
      length: body.length,
      crc: zlib.crc32(body),
    };
    const temp = `${this.file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      this.io.mkdir(dir);
      this.io.writeFile(temp, Buffer.concat([Buffer.from(JSON.stringify(header) + '\n', 'utf8'), body]));
      this.io.rename(temp, this.file);
    } catch {
      try {
        this.io.unlink(temp);
      } catch {
        // Nothing was written, or it is gone already.
      }
      return false;
    }
    this.onDisk = lines.length;
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
  readFile(file: string): Buffer;
  writeFile(file: string, data: Buffer): void;
  rename(from: string, to: string): void;
  unlink(file: string): void;
  mkdir(dir: string): void;
  /** Names in a directory with each one's last write time (ms), for evicting the oldest files. */
  list(dir: string): { readonly name: string; readonly mtimeMs: number }[];
}

export const NODE_CACHE_IO: CacheIo = {
  readFile: (file) => nodeFs.readFileSync(file),
  writeFile: (file, data) => nodeFs.writeFileSync(file, data, { mode: 0o600, flag: 'wx' }),
  rename: (from, to) => nodeFs.renameSync(from, to),
  unlink: (file) => nodeFs.unlinkSync(file),
  mkdir: (dir) => void nodeFs.mkdirSync(dir, { recursive: true, mode: 0o700 }),
  list: (dir) =>
    nodeFs.readdirSync(dir).map((name) => ({ name, mtimeMs: nodeFs.statSync(path.join(dir, name)).mtimeMs })),
};

interface Entry {
  readonly key: string;
  /** The value as JSON text, parsed only when it is asked for. */
  readonly value: string;
}

interface Header {
  readonly magic: string;
  readonly format: number;
  readonly identity: string;
  readonly length: number;
  readonly crc: number;
}

const MAGIC = 'skillgate-parse-cache';
/** The layout of the file; the identity covers the layout of each value. */
const FORMAT = 1;
const SUFFIX = '.cache';
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
  const entries = new Map<string, Entry>();
  let data: Buffer;
  try {
    data = io.readFile(file);
  } catch {
    return entries;
  }
  const newline = data.indexOf(0x0a);
  if (newline < 0) return entries;
  let header: Partial<Header>;
  try {
    header = JSON.parse(data.subarray(0, newline).toString('utf8')) as Partial<Header>;
  } catch {
    return entries;
  }
  const body = data.subarray(newline + 1);
  if (
    header === null ||
    typeof header !== 'object' ||
    header.magic !== MAGIC ||
    header.format !== FORMAT ||
    header.identity !== identity ||
    header.length !== body.length ||
    header.crc !== zlib.crc32(body)
  )
    return entries;
  if (body.length === 0) return entries;
  for (const line of body.toString('utf8').split('\n')) {
    const first = line.indexOf('\t');
    const second = line.indexOf('\t', first + 1);
    if (first < 0 || second < 0) return new Map();
    try {
      const unit: unknown = JSON.parse(line.slice(0, first));
      const key: unknown = JSON.parse(line.slice(first + 1, second));
      if (typeof unit !== 'string' || typeof key !== 'string') return new Map();
      entries.set(unit, { key, value: line.slice(second + 1) });
    } catch {
      return new Map();
    }
  }
  return entries;
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
