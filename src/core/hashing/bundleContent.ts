import * as fs from 'node:fs';
import { directoryClose, directoryOpen, fileRecord, newHash, sha256Hex, u64le } from './framing';
import { entryOf, errorText } from '../fs/safeFs';
import type { BundleFile } from '../model';

/** Upstream review limits for one bundle (codewhale.md §3, trust.md). */
export const MAX_HASHED_FILES = 4096;
export const MAX_HASHED_BYTES = 67108864;
/**
 * [Skillgate] Upstream counts files only; a bundle of a million empty directories
 * would still be walked. We stop at this many directory entries in all.
 */
export const MAX_WALKED_ENTRIES = 65536;

export interface HashedFile extends BundleFile {
  /** Raw bundle-relative path bytes (names need not be UTF-8). */
  readonly rel: Buffer;
  /** Bytes, kept only for the files the caller asked for (skills, manifests). */
  readonly bytes?: Buffer;
}

export type ContentWalk =
  | { readonly ok: true; readonly contentHash: string; readonly files: readonly HashedFile[]; readonly directories: readonly string[] }
  | { readonly ok: false; readonly message: string; readonly rel?: string };

export const LIMIT_MESSAGE = `plugin bundle content exceeds the plugin review limit (${MAX_HASHED_FILES} files / ${MAX_HASHED_BYTES} bytes)`;

interface Frame {
  readonly abs: Buffer;
  readonly rel: Buffer;
  readonly children: fs.Dirent<Buffer>[];
  next: number;
}

const SLASH = Buffer.from('/');

/**
 * Codewhale's content hash, domain v2 (codewhale.md §7.2): the manifest prefix, then
 * a depth-first walk of the whole bundle with lstat on every entry. Each file is read
 * once; `retain` picks the files whose bytes the caller parses next, so nothing is
 * read twice. Iterative, so a deeply nested tree cannot overflow the stack.
 */
export function hashBundleContent(
  root: string,
  label: string,
  manifestBytes: Uint8Array,
  retain: (rel: string) => boolean,
  recordPrefix: { domain: string } = { domain: 'codewhale-plugin-content-v2\0' },
): ContentWalk {
  const h = newHash();
  h.update(recordPrefix.domain);
  h.update(label);
  h.update('\0');
  h.update(u64le(manifestBytes.length));
  h.update(manifestBytes);

  const files: HashedFile[] = [];
  const directories: string[] = [];
  let totalBytes = 0;
  let walked = 0;
  const rootBuf = Buffer.from(root);
  const stack: Frame[] = [];

  const enterDirectory = (abs: Buffer, rel: Buffer): string | undefined => {
    directoryOpen(h, rel);
    directories.push(rel.toString('utf8'));
    let entries: fs.Dirent<Buffer>[];
    try {
      // The entry types come from the directory listing itself (d_type, which is what
      // lstat would say: links are never followed); Node falls back to lstat when a
      // file system does not report types.
      entries = fs.readdirSync(abs, { encoding: 'buffer', withFileTypes: true });
    } catch (e) {
      return `failed to read component directory ${display(rel)}: ${errorText(e)}`;
    }
    walked += entries.length;
    if (walked > MAX_WALKED_ENTRIES) return LIMIT_MESSAGE;
    entries.sort((a, b) => Buffer.compare(a.name, b.name));
    stack.push({ abs, rel, children: entries, next: 0 });
    return undefined;
  };

  const fail = (message: string, rel?: Buffer): ContentWalk => (rel ? { ok: false, message, rel: display(rel) } : { ok: false, message });

  const rootStat = safeLstat(rootBuf);
  if (!rootStat.ok) return fail(`failed to inspect plugin root: ${rootStat.error}`);
  if (rootStat.entry.type !== 'directory') return fail('plugin root must be a directory, not a symbolic link');
  const rootError = enterDirectory(rootBuf, Buffer.alloc(0));
  if (rootError) return fail(rootError);

  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.next >= frame.children.length) {
      directoryClose(h);
      stack.pop();
      continue;
    }
    const dirent = frame.children[frame.next++] as fs.Dirent<Buffer>;
    const name = dirent.name;
    const abs = Buffer.concat([frame.abs, SLASH, name]);
    const rel = frame.rel.length === 0 ? name : Buffer.concat([frame.rel, SLASH, name]);
    if (dirent.isSymbolicLink()) return fail(`component trees may not contain symbolic link ${display(rel)}`, rel);
    if (dirent.isDirectory()) {
      const err = enterDirectory(abs, rel);
      if (err) return fail(err, rel);
      continue;
    }
    if (!dirent.isFile()) return fail(`component ${display(rel)} is neither a regular file nor directory`, rel);
    if (files.length + 1 > MAX_HASHED_FILES) return fail(LIMIT_MESSAGE, rel);
    const read = readWhole(abs, MAX_HASHED_BYTES - totalBytes);
    if (!read.ok) {
      if (read.message === LIMIT_MESSAGE) return fail(LIMIT_MESSAGE, rel);
      return fail(read.message.replace('{path}', display(rel)), rel);
    }
    totalBytes += read.bytes.length;
    fileRecord(h, rel, read.executable, read.bytes);
    const relPath = display(rel);
    files.push({
      rel,
      path: relPath,
      size: read.bytes.length,
      sha256: sha256Hex(read.bytes),
      executable: read.executable,
      ...(retain(relPath) ? { bytes: read.bytes } : {}),
    });
  }
  return { ok: true, contentHash: h.digest('hex'), files, directories };
}

function display(rel: Buffer): string {
  return rel.toString('utf8');
}

function safeLstat(p: Buffer): { ok: true; entry: ReturnType<typeof entryOf> } | { ok: false; error: string } {
  try {
    return { ok: true, entry: entryOf(fs.lstatSync(p)) };
  } catch (e) {
    return { ok: false, error: errorText(e) };
  }
}

/**
 * Opens without following a link (O_NOFOLLOW: a file swapped for a link fails here),
 * takes size and mode from the open descriptor, refuses a file past the remaining
 * byte budget before reading it, and reads once into size + 1 bytes: a file that
 * grows or shrinks while it is read is refused.
 */
function readWhole(p: Buffer, budget: number): { ok: true; bytes: Buffer; executable: boolean } | { ok: false; message: string } {
  let fd: number;
  try {
    fd = fs.openSync(p, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { ok: false, message: 'component trees may not contain symbolic link {path}' };
    return { ok: false, message: `failed to read component file {path}: ${errorText(e)}` };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) return { ok: false, message: 'component {path} is neither a regular file nor directory' };
    if (st.size > budget) return { ok: false, message: LIMIT_MESSAGE };
    const buf = Buffer.allocUnsafe(st.size + 1);
    let total = 0;
    for (;;) {
      const n = fs.readSync(fd, buf, total, buf.length - total, null);
      total += n;
      // A short read of a regular file means end of file.
      if (n === 0 || total === buf.length || total >= st.size) break;
    }
    if (total !== st.size) return { ok: false, message: 'component file {path} changed length while being reviewed' };
    return { ok: true, bytes: buf.subarray(0, total), executable: (st.mode & 0o111) !== 0 };
  } catch (e) {
    return { ok: false, message: `failed to read component file {path}: ${errorText(e)}` };
  } finally {
    fs.closeSync(fd);
  }
}
