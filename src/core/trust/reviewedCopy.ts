import * as crypto from 'node:crypto';
import { MAX_HASHED_BYTES } from '../hashing/treeRead';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readRegularFile } from '../fs/safeFs';
import { sha256Hex } from '../hashing/framing';
import { osBytes, osPath } from '../fs/rawNames';
import type { BundleFile } from '../model';
import type { BundleSource } from './bundleSource';

export type ReviewedCopyResult =
  | { readonly ok: true; readonly dir: string; readonly reused: boolean }
  | { readonly ok: false; readonly message: string };

/**
 * The reviewed copy of a bundle: the files a reviewer approved, copied read-only into
 * `<copiesDir>/<contentHash>/` through a staging directory, and kept only when
 * re-hashing the copy reproduces the approved content hash (trust.md "Snapshots"). A
 * bundle that changes while it is copied is refused and leaves nothing behind. The
 * review diffs against this copy; enable requires it.
 *
 * "Snapshot" in Skillgate means the index's picture of the agents (index/snapshot.ts).
 * The store's directory of reviewed copies is still called `snapshots/`: that name is
 * the trust store's on-disk format (spec/trust.md), so it does not change.
 */
// The refusal texts below ("could not snapshot the bundle") are asserted by tests and shown to users as they were.
export function copyReviewed(copiesDir: string, source: BundleSource, contentHash: string): ReviewedCopyResult {
  const final = path.join(copiesDir, contentHash);
  if (verifyReviewedCopy(copiesDir, source, contentHash)) return { ok: true, dir: final, reused: true };
  const staging = path.join(copiesDir, `.staging-${crypto.randomBytes(8).toString('hex')}`);
  const refuse = (message: string): ReviewedCopyResult => {
    try {
      removeTree(staging);
    } catch {
      // Never made (its parent could not be); one that could not be removed is `doctor --prune`'s.
    }
    return { ok: false, message };
  };
  try {
    // Inside the try: a directory that cannot be made (a read-only file system) is a refusal too.
    fs.mkdirSync(copiesDir, { recursive: true, mode: 0o700 });
    fs.mkdirSync(staging, { mode: 0o700 });
    // Every path by its exact bytes: a name that is not UTF-8 is copied as itself, so the
    // copy re-hashes to the reviewed content hash (a lossy name would point elsewhere).
    for (const d of source.directories)
      if (d !== '') fs.mkdirSync(osPath(path.join(staging, d)), { recursive: true, mode: 0o755 });
    for (const f of source.files) {
      const abs = under(source.root, f);
      // Hashing allows hard links; a reviewed copy does not: another name could change the bytes (codewhale.md §8.6).
      if (fs.lstatSync(abs).nlink !== 1)
        return refuse(`${f.path} is hard-linked; Plugin content may not contain hard-linked files`);
      const read = readRegularFile(abs, MAX_HASHED_BYTES);
      if (!read.ok || sha256Hex(read.bytes) !== f.sha256 || read.executable !== f.executable) {
        return refuse(`${f.path} changed while it was being copied for trust; review the bundle again`);
      }
      const dest = under(staging, f);
      fs.mkdirSync(parentOf(dest), { recursive: true, mode: 0o755 });
      fs.writeFileSync(dest, read.bytes, { mode: f.executable ? 0o555 : 0o444 });
      fs.chmodSync(dest, f.executable ? 0o555 : 0o444);
    }
    if (source.rehashCopy(staging) !== contentHash)
      return refuse(
        'the bundle changed while it was being trusted: its copy does not reproduce the reviewed content hash; review it again',
      );
    return place(staging, final, () => verifyReviewedCopy(copiesDir, source, contentHash));
  } catch (e) {
    return refuse(`could not snapshot the bundle: ${(e as Error).message}`);
  }
}

/**
 * Moves a verified staging copy to its final place. Another trust of the same content (a
 * second window, the CLI, the same bundle in another worktree) may have placed a copy
 * there since we looked, and a receipt may already rely on it: a copy that verifies is
 * kept, never removed (removing it left a receipt without its copy for a while, and for
 * good when the remover was killed halfway). One that does not verify is renamed aside
 * before it is removed, so the final place never holds a half-removed tree.
 */
function place(staging: string, final: string, verifies: () => boolean): ReviewedCopyResult {
  for (let attempt = 0; ; attempt++) {
    try {
      fs.renameSync(staging, final);
      return { ok: true, dir: final, reused: false };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (attempt >= 3 || !(code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR' || code === 'EPERM'))
        throw e;
    }
    if (verifies()) {
      removeTree(staging);
      return { ok: true, dir: final, reused: true };
    }
    // Named like a staging directory, so `doctor --prune` removes it should we be killed first.
    const aside = path.join(path.dirname(final), `.staging-${crypto.randomBytes(8).toString('hex')}`);
    try {
      fs.renameSync(final, aside);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    removeTree(aside);
  }
}

/** `root/<relative path>` for `fs`, by the file's raw bytes when its name is not UTF-8. */
function under(root: string, f: BundleFile): string | Buffer {
  return f.rawPath ? Buffer.concat([osBytes(root), SLASH, f.rawPath]) : osPath(path.join(root, f.path));
}

function parentOf(p: string | Buffer): string | Buffer {
  if (typeof p === 'string') return path.dirname(p);
  return p.subarray(0, p.lastIndexOf(SLASH[0] as number));
}

const SLASH = Buffer.from('/');

/** A reviewed copy is verified when it exists and re-hashes to the receipt's content hash. */
export function verifyReviewedCopy(
  copiesDir: string,
  source: Pick<BundleSource, 'rehashCopy'>,
  contentHash: string,
): boolean {
  const dir = path.join(copiesDir, contentHash);
  try {
    if (!fs.lstatSync(dir).isDirectory()) return false;
  } catch {
    return false;
  }
  return source.rehashCopy(dir) === contentHash;
}

export function removeTree(p: string): void {
  // Reviewed copies are read-only; make them writable so removal works everywhere.
  try {
    for (const e of fs.readdirSync(p, { recursive: true, withFileTypes: true })) {
      if (!e.isSymbolicLink()) fs.chmodSync(path.join(e.parentPath, e.name), 0o700);
    }
  } catch {
    // missing or unreadable: rmSync reports nothing either way
  }
  fs.rmSync(p, { recursive: true, force: true });
}
