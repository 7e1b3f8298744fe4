import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readRegularFile, type ReadResult } from '../fs/safeFs';
import { sha256Hex } from '../hashing/framing';
import { osBytes, osPath } from '../fs/rawNames';
import type { BundleFile } from '../model';
import type { BundleSource } from './bundleSource';
import { readFromUnit } from './unitFileRead';

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
 * Units with one content hash share one copy, and Rivumi's and Eva's leave the manifest's
 * path out (trust.md "Hashes"): two plugin manifests with identical bytes, or one unit in
 * two worktrees, each need their own files there. A copy is therefore reused only when it
 * holds this unit's files at this unit's paths (`holdsUnit`), and the files it lacks are
 * added to it, never by replacing it (`place`). `reused` says nothing was written.
 *
 * The unit's files are read as its hash read them (`readFromUnit`): beneath held directories,
 * never through a link on the way, so a directory swapped for a link since the review
 * (`skills -> /tmp/decoy`) is refused as a file that is itself a link is, and nothing from
 * outside is opened; and no more of a file than its recorded size and one byte, so one grown
 * since is refused by its size unread (it was read whole up to the hash's 64 MiB a file,
 * before its SHA-256 refused it).
 *
 * "Snapshot" in Skillgate means the index's picture of the agents (index/snapshot.ts).
 * The store's directory of reviewed copies is still called `snapshots/`: that name is
 * the trust store's on-disk format (spec/trust.md), so it does not change.
 */
// The refusal texts below ("could not snapshot the bundle") are asserted by tests and shown to users as they were.
export function copyReviewed(copiesDir: string, source: BundleSource, contentHash: string): ReviewedCopyResult {
  const final = path.join(copiesDir, contentHash);
  markFresh(final);
  if (holdsUnit(final, source, contentHash)) return { ok: true, dir: final, reused: true };
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
      // At most its recorded size and one byte: a file larger now is refused by its size unread.
      const bytes = asRecorded(readFromUnit(source, f, f.size), f);
      if (!bytes) return refuse(`${f.path} changed while it was being copied for trust; review the bundle again`);
      const dest = under(staging, f);
      fs.mkdirSync(parentOf(dest), { recursive: true, mode: 0o755 });
      writeReadOnly(dest, bytes, f.executable);
    }
    if (source.rehashCopy(staging) !== contentHash)
      return refuse(
        'the bundle changed while it was being trusted: its copy does not reproduce the reviewed content hash; review it again',
      );
    return place(staging, final, source, contentHash);
  } catch (e) {
    return refuse(`could not snapshot the bundle: ${(e as Error).message}`);
  }
}

/**
 * Moves a verified staging copy to its final place. Another trust of the same content (a
 * second window, the CLI, the same bundle in another worktree, another Rivumi plugin or Eva
 * unit with identical bytes) may have placed a copy there since we looked, and a receipt may
 * already rely on it: that copy is kept, never removed (removing it left a receipt without
 * its copy for a while, and for good when the remover was killed halfway). The files of
 * this unit it lacks are added to it (`mergeInto`): Rivumi's and Eva's content hashes leave
 * the manifest's path out, so units at different paths share one copy, each needing its own
 * manifest there. Only a copy that still does not hold this unit (damaged: a Codewhale copy
 * with a file too many) is renamed aside before it is removed, so the final place never
 * holds a half-removed tree.
 */
function place(staging: string, final: string, source: BundleSource, contentHash: string): ReviewedCopyResult {
  for (let attempt = 0; ; attempt++) {
    try {
      fs.renameSync(staging, final);
      return { ok: true, dir: final, reused: false };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (attempt >= 3 || !(code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR' || code === 'EPERM'))
        throw e;
    }
    markFresh(final);
    const added = mergeInto(final, staging, source.files);
    if (added !== undefined && holdsUnit(final, source, contentHash)) {
      removeTree(staging);
      return { ok: true, dir: final, reused: added === 0 };
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

/**
 * Adds to the copy in place each of `files` it does not hold with the reviewed bytes, taken
 * from the verified staging copy: written beside the staging copy (so one left by a killed
 * process is pruned with it, and the final copy never holds a partial file) and renamed into
 * place, one file at a time. The count of files added; undefined when the copy cannot take
 * them (it is not a directory, or a directory on the way is a link or a file), which leaves it
 * to be replaced. The copy's other files, another unit's, stay.
 */
function mergeInto(final: string, staging: string, files: readonly BundleFile[]): number | undefined {
  if (!isRealDirectory(final)) return undefined;
  let added = 0;
  for (const f of files) {
    const dest = under(final, f);
    if (readAsRecorded(dest, f)) continue;
    if (!directoriesOnTheWay(final, f)) return undefined;
    const staged = readAsRecorded(under(staging, f), f);
    // The staging copy re-hashed to the content hash; a file in it that no longer matches was changed by someone else.
    if (!staged) return undefined;
    const temp = path.join(staging, `.merge-${crypto.randomBytes(8).toString('hex')}`);
    writeReadOnly(temp, staged, f.executable);
    try {
      fs.renameSync(temp, dest);
    } catch {
      fs.rmSync(temp, { force: true });
      return undefined;
    }
    added++;
  }
  return added;
}

/**
 * Makes the directories from the copy's root to `f`'s parent, and checks that each one on the
 * way is a real directory: a write into the copy never follows a link out of it.
 */
function directoriesOnTheWay(final: string, f: BundleFile): boolean {
  const rel = f.rawPath ?? osBytes(f.path);
  const root = osBytes(final);
  for (let end = rel.indexOf(SLASH); end !== -1; end = rel.indexOf(SLASH, end + 1)) {
    const at = Buffer.concat([root, SLASH, rel.subarray(0, end)]);
    try {
      fs.mkdirSync(at, { mode: 0o755 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return false;
    }
    if (!isRealDirectory(at)) return false;
  }
  return true;
}

function isRealDirectory(p: string | Buffer): boolean {
  try {
    return fs.lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Whether the copy holds this unit: each of its files at its own path, with the reviewed
 * bytes and executable bit, and the copy re-hashing to the reviewed content hash. The
 * re-hash alone does not say it: Rivumi's and Eva's read the manifest at this unit's path,
 * but a copy another unit made may hold its manifest at another (trust.md "Hashes": the
 * manifest's path is not hashed), and the review diffs each file at its path.
 */
function holdsUnit(final: string, source: BundleSource, contentHash: string): boolean {
  if (!isRealDirectory(final)) return false;
  if (!source.files.every((f) => readAsRecorded(under(final, f), f))) return false;
  return source.rehashCopy(final) === contentHash;
}

/** The bytes at `p` in a reviewed copy (the store's own, read by its path) when they are `f`'s as recorded, else undefined. */
function readAsRecorded(p: string | Buffer, f: BundleFile): Buffer | undefined {
  return asRecorded(readRegularFile(p, f.size), f);
}

/** The bytes read when they are `f`'s as recorded (its SHA-256 and executable bit), else undefined. */
function asRecorded(read: ReadResult, f: BundleFile): Buffer | undefined {
  return read.ok && sha256Hex(read.bytes) === f.sha256 && read.executable === f.executable ? read.bytes : undefined;
}

/** A reviewed file as the copy holds it: read-only, executable as recorded (the mode set again past the umask). */
function writeReadOnly(p: string | Buffer, bytes: Uint8Array, executable: boolean): void {
  fs.writeFileSync(p, bytes, { mode: executable ? 0o555 : 0o444 });
  fs.chmodSync(p, executable ? 0o555 : 0o444);
}

/**
 * `doctor --prune` removes a copy no receipt names once it is an hour old (unreferencedCopies.ts
 * FRESH_COPY_MS), deciding under the store's lock, which a trust takes only to write its
 * receipt after the copy is made. A copy this trust reuses or adds to may be such an old
 * one (its receipts fell out of the history); marked fresh first, it is not pruned before
 * the receipt naming it is written. A prune that decided on it just before the mark may
 * still remove it; the trust verifies the copy again under the lock (grantTrust.ts `trustShown`).
 */
function markFresh(final: string): void {
  try {
    const now = new Date();
    // Not through a link: what it points to is not the store's to touch (and is refused as a copy below).
    fs.lutimesSync(final, now, now);
  } catch {
    // Missing (the copy is made anew, and a new directory is fresh), or not ours to touch: verified below either way.
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
  return isRealDirectory(dir) && source.rehashCopy(dir) === contentHash;
}

export function removeTree(p: string): void {
  // Reviewed copies are read-only; make them writable so removal works everywhere. Only a real
  // directory: a link in its place is removed as a link, and what it leads to is not the store's
  // (listing through it made every file there 0700).
  try {
    if (!isRealDirectory(p)) throw new Error('not a directory of the store');
    for (const e of fs.readdirSync(p, { recursive: true, withFileTypes: true })) {
      if (!e.isSymbolicLink()) fs.chmodSync(path.join(e.parentPath, e.name), 0o700);
    }
  } catch {
    // missing or unreadable: rmSync reports nothing either way
  }
  fs.rmSync(p, { recursive: true, force: true });
}
