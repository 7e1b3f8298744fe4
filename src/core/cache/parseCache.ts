import * as path from 'node:path';
import { sha256Hex } from '../hashing/framing';
import { codeIdentity } from './codeIdentity';
import { CacheSegment } from './parseCacheSegment';
import { NODE_CACHE_IO, type CacheIo } from './parseCacheIo';

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

const SUFFIX = '.cache';
/** Segment files kept in the directory: about one per discovery root of a recently indexed workspace. */
export const MAX_SEGMENT_FILES = 64;
/** A temporary file this old was left by a writer that died before its rename. */
const STALE_TEMP_MS = 60 * 60 * 1000;

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
