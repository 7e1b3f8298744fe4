import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeRawName, osPath } from './rawNames';
import { leavesBase, resolvedWithin } from './portablePath';

export { decodeUtf8 } from './rawNames';

/**
 * File access that never follows a symbolic link and never reads past a limit.
 * Everything the core reads from a repository goes through here: a cloned repository
 * is hostile input (spec/trust.md "Hashing"). Path strings may spell names that are
 * not UTF-8 (rawNames.ts); each call hands `fs` their exact bytes.
 */

export type EntryType = 'file' | 'directory' | 'symlink' | 'other' | 'missing';

export interface Entry {
  readonly type: EntryType;
  readonly size: number;
  readonly executable: boolean;
  readonly nlink: number;
  readonly error?: string;
  /** The failed call's error as data (`code`, `errno`), for callers that must tell EACCES from ENOTDIR or word it as the agent does. */
  readonly fault?: IoFault;
}

/** What a failed call reported, kept as plain data (the entry crosses to workers). */
export interface IoFault {
  readonly code: string | undefined;
  readonly errno: number | undefined;
}

/** A thrown error's code and number, as data. */
export function faultOf(e: unknown): IoFault {
  const err = e as NodeJS.ErrnoException | undefined;
  return { code: err?.code, errno: typeof err?.errno === 'number' ? err.errno : undefined };
}

const MISSING: Entry = { type: 'missing', size: 0, executable: false, nlink: 0 };

export function entryOf(stat: fs.Stats): Entry {
  const type: EntryType = stat.isSymbolicLink()
    ? 'symlink'
    : stat.isFile()
      ? 'file'
      : stat.isDirectory()
        ? 'directory'
        : 'other';
  return { type, size: stat.size, executable: type === 'file' && (stat.mode & 0o111) !== 0, nlink: stat.nlink };
}

/** lstat that reports errors as values; a missing path is `missing`, not an error. */
export function lstatEntry(p: string | Buffer): Entry {
  try {
    const st = fs.lstatSync(osPath(p), { throwIfNoEntry: false });
    return st ? entryOf(st) : MISSING;
  } catch (e) {
    return { ...MISSING, type: 'other', error: errorText(e), fault: faultOf(e) };
  }
}

/** stat that follows links (for rules that say "exists follows symbolic links"). */
export function statEntry(p: string | Buffer): Entry {
  try {
    const st = fs.statSync(osPath(p), { throwIfNoEntry: false });
    return st ? entryOf(st) : MISSING;
  } catch (e) {
    return { ...MISSING, error: errorText(e), fault: faultOf(e) };
  }
}

export type ReadResult =
  | { readonly ok: true; readonly bytes: Buffer; readonly executable: boolean }
  | {
      readonly ok: false;
      readonly reason: 'symlink' | 'not-file' | 'too-large' | 'missing' | 'io';
      readonly size?: number;
      readonly error?: string;
      /**
       * With `io`, and with `missing` or `not-file` when the open failed (an agent words ENOENT and
       * ENOTDIR apart): the failed call's error as data, for callers that must tell EACCES apart or
       * word it as the agent does.
       */
      readonly fault?: IoFault;
      /** With `io`: whether opening the file failed, or reading it once open (an agent may word the two apart). */
      readonly during?: 'open' | 'read';
    };

const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

/**
 * How a regular file is opened for reading: never through a link at its last component;
 * O_NONBLOCK keeps a FIFO swapped in after the lstat from blocking the indexer.
 */
export const READ_FLAGS = fs.constants.O_RDONLY | O_NOFOLLOW | O_NONBLOCK;

/**
 * Reads a regular file without following a link at its last component, at most
 * `limit` bytes. A larger file is refused by its size, before any byte is read.
 */
export function readRegularFile(p: string | Buffer, limit: number): ReadResult {
  let fd: number;
  try {
    fd = fs.openSync(osPath(p), READ_FLAGS);
  } catch (e) {
    return openFailure(e);
  }
  return readOpenFile(fd, limit);
}

/**
 * Why opening a file to read it failed, as `readRegularFile` answers: shared with the read
 * beneath a held directory (openBeneath.ts), so the same failure reads the same way.
 */
export function openFailure(e: unknown): Extract<ReadResult, { ok: false }> {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return { ok: false, reason: 'missing', fault: faultOf(e) };
  if (code === 'ELOOP' || code === 'EMLINK') return { ok: false, reason: 'symlink' };
  if (code === 'EISDIR') return { ok: false, reason: 'not-file', fault: faultOf(e) };
  return { ok: false, reason: 'io', error: errorText(e), fault: faultOf(e), during: 'open' };
}

/**
 * Reads the file open as `fd` (opened with `READ_FLAGS`) as `readRegularFile` does, and
 * closes it: a regular file only, at most `limit` bytes, refused by its size first.
 */
export function readOpenFile(fd: number, limit: number): ReadResult {
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { ok: false, reason: 'not-file' };
    if (st.size > limit) return { ok: false, reason: 'too-large', size: st.size };
    const bytes = readExactly(fd, st.size, limit);
    if (bytes.length > limit) return { ok: false, reason: 'too-large', size: bytes.length };
    return { ok: true, bytes, executable: (st.mode & 0o111) !== 0 };
  } catch (e) {
    return { ok: false, reason: 'io', error: errorText(e), fault: faultOf(e), during: 'read' };
  } finally {
    fs.closeSync(fd);
  }
}

const CHUNK = 64 * 1024;
/** Where reads past the size fstat gave land; they nearly always find the end of the file (0 bytes). */
let probe: Buffer | undefined;

/** Reads what the file holds now, up to one byte past `limit` (a file may grow after fstat). */
function readExactly(fd: number, expected: number, limit: number): Buffer {
  const cap = limit + 1;
  const first = Buffer.allocUnsafe(Math.max(1, Math.min(cap, expected + 1)));
  const chunks: Buffer[] = [];
  let total = fs.readSync(fd, first, 0, first.length, null);
  if (total > 0) chunks.push(first.subarray(0, total));
  while (total > 0 && total < cap) {
    // A fresh 64 KiB buffer per file would only be thrown away: copy out just the bytes found.
    probe ??= Buffer.allocUnsafe(CHUNK);
    const n = fs.readSync(fd, probe, 0, Math.min(CHUNK, cap - total), null);
    if (n === 0) break;
    chunks.push(Buffer.from(probe.subarray(0, n)));
    total += n;
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
}

/** Directory entries as raw name bytes, so that non-UTF-8 names survive (codewhale.md §7.1). */
export function listDirectory(
  p: string | Buffer,
): { ok: true; names: Buffer[] } | { ok: false; error: string; fault: IoFault } {
  try {
    return { ok: true, names: fs.readdirSync(osPath(p), { encoding: 'buffer' }) };
  } catch (e) {
    return { ok: false, error: errorText(e), fault: faultOf(e) };
  }
}

/** An entry's type as its directory listing states it (d_type): a link is a link, never followed. */
export type ListedType = Exclude<EntryType, 'missing'>;

/**
 * Directory entries as raw name bytes with the listing's own types, so that a caller
 * needs no lstat per entry. Where the file system leaves a type unknown, Node lstats
 * that entry itself. Undefined when the typed listing fails in any way: the caller then
 * lists plain names and lstats each (`listDirectory`, `lstatEntry`), whose answers and
 * error messages stay the authority.
 */
export function listTypedDirectory(p: string | Buffer): { name: Buffer; type: ListedType }[] | undefined {
  try {
    return fs.readdirSync(osPath(p), { encoding: 'buffer', withFileTypes: true }).map((e) => ({
      name: e.name,
      type: e.isSymbolicLink() ? 'symlink' : e.isDirectory() ? 'directory' : e.isFile() ? 'file' : 'other',
    }));
  } catch {
    return undefined;
  }
}

/**
 * Where `p` is, as the kernel resolves it: a `..` after a link goes up from the link's target
 * (Node's JavaScript `fs.realpathSync` folds it into the link's text first, and so names another
 * folder, or none), its bytes kept exactly. Throws the system's error.
 */
export function realPath(p: string): string {
  return decodeRawName(fs.realpathSync.native(osPath(p), { encoding: 'buffer' }));
}

/** The canonical path, its bytes kept exactly (a name that is not UTF-8 stays escaped, never U+FFFD). */
export function canonicalPath(p: string): string | undefined {
  const resolved = canonicalize(p);
  return resolved.ok ? resolved.path : undefined;
}

/**
 * `canonicalPath` with the failure kept, for callers that must say why a path did not
 * resolve in the agent's words (Codewhale prints Rust's io error: rustIoErrorText.ts).
 */
export function canonicalize(p: string): { ok: true; path: string } | { ok: false; error: string; fault: IoFault } {
  try {
    return { ok: true, path: realPath(p) };
  } catch (e) {
    return { ok: false, error: errorText(e), fault: faultOf(e) };
  }
}

/** True when `child` is `parent` or lies inside it (both absolute, normalized). */
export function isInside(parent: string, child: string): boolean {
  return resolvedWithin(parent, child) ?? !leavesBase(path.relative(parent, child));
}

export function errorText(e: unknown): string {
  if (e && typeof e === 'object' && 'code' in e && 'message' in e) {
    const err = e as NodeJS.ErrnoException;
    // Node's messages repeat the syscall and path; the code and its meaning are enough.
    // `s`: a name may hold a line break or U+2028, which a plain `.` does not match.
    return err.code ? `${err.code}: ${err.message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/s, '')}` : err.message;
  }
  return String(e);
}
