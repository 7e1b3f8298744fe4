import { randomBytes } from 'node:crypto';
import type { CacheIo } from './parseCacheIo';
import type { Entry } from './parseCacheEntry';
import { FORMAT, headerWidth, MAGIC, type Header } from './parseCacheHeader';
import { BodyWriter } from './parseCacheBodyWriter';
import { readCacheFile } from './parseCacheReader';

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

/** An entry's value as JSON text, or undefined for a value JSON cannot hold. */
function entryText(e: Entry): string | undefined {
  if ('text' in e) return e.text;
  try {
    return JSON.stringify(e.value);
  } catch {
    return undefined;
  }
}
