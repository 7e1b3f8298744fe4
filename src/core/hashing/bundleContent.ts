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
  readonly children: Buffer[];
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
    let names: Buffer[];
    try {
      names = fs.readdirSync(abs, { encoding: 'buffer' });
    } catch (e) {
      return `failed to read component directory ${display(rel)}: ${errorText(e)}`;
    }
    walked += names.length;
    if (walked > MAX_WALKED_ENTRIES) return LIMIT_MESSAGE;
    names.sort(Buffer.compare);
    stack.push({ abs, rel, children: names, next: 0 });
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
    const name = frame.children[frame.next++] as Buffer;
    const abs = Buffer.concat([frame.abs, SLASH, name]);
    const rel = frame.rel.length === 0 ? name : Buffer.concat([frame.rel, SLASH, name]);
    const st = safeLstat(abs);
    if (!st.ok) return fail(`failed to inspect component ${display(rel)}: ${st.error}`, rel);
    const entry = st.entry;
    if (entry.type === 'symlink') return fail(`component trees may not contain symbolic link ${display(rel)}`, rel);
    if (entry.type === 'directory') {
      const err = enterDirectory(abs, rel);
      if (err) return fail(err, rel);
      continue;
    }
    if (entry.type !== 'file') return fail(`component ${display(rel)} is neither a regular file nor directory`, rel);
    if (files.length + 1 > MAX_HASHED_FILES || totalBytes + entry.size > MAX_HASHED_BYTES) return fail(LIMIT_MESSAGE, rel);
    const read = readWhole(abs, entry.size);
    if (!read.ok) return fail(read.message.replace('{path}', display(rel)), rel);
    totalBytes += read.bytes.length;
    fileRecord(h, rel, entry.executable, read.bytes);
    const relPath = display(rel);
    files.push({
      rel,
      path: relPath,
      size: read.bytes.length,
      sha256: sha256Hex(read.bytes),
      executable: entry.executable,
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

/** Reads exactly the size lstat reported; a file that grows or shrinks meanwhile is refused. */
function readWhole(p: Buffer, size: number): { ok: true; bytes: Buffer } | { ok: false; message: string } {
  let fd: number;
  try {
    fd = fs.openSync(p, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  } catch (e) {
    return { ok: false, message: `failed to read component file {path}: ${errorText(e)}` };
  }
  try {
    const bytes = Buffer.allocUnsafe(size);
    let total = 0;
    while (total < size) {
      const n = fs.readSync(fd, bytes, total, size - total, null);
      if (n === 0) break;
      total += n;
    }
    const probe = Buffer.allocUnsafe(1);
    if (total !== size || fs.readSync(fd, probe, 0, 1, null) !== 0) {
      return { ok: false, message: 'component file {path} changed length while being reviewed' };
    }
    return { ok: true, bytes };
  } catch (e) {
    return { ok: false, message: `failed to read component file {path}: ${errorText(e)}` };
  } finally {
    fs.closeSync(fd);
  }
}
