import * as path from 'node:path';
import { MAX_HASHED_BYTES } from '../../hashing/bundleContent';
import { sha256Hex } from '../../hashing/framing';
import { portableRelative } from '../../fs/portablePath';
import { byteOrder } from '../../fs/rawNames';
import { isInside } from '../../fs/safeFs';
import type { BundleFile, ListedFile } from '../../model';
import { hashOrder, readCovered, unreadCovered } from './hashes';
import type { CoverNoting } from './indexedTrustUnit';

/** A covered file that is not there, in the review's list: its hash would record only that it is absent (eva.md §6.2). */
export const MISSING_COVERED = 'not there: the hash records it as missing';

/**
 * Every file an Eva unit Skillgate cannot hash covers, as far as it can name them, for the
 * review's Files: the reviewer most needs to see the file that stops the hash (eva.md §6.1).
 * The covered set is named again past each path trust cannot cover, which is listed with why
 * and never followed, entered or read (`cover`); each file it names is read as the hash reads
 * it (hashes.ts `readCovered`, within the bytes the hash reads) and listed with its size and
 * SHA-256, or with why not. `listed` are the files the review reads apart (the manifest, the
 * ones a receipt names), kept as they are. Names are relative to `root` (the project, as the
 * manifest's is) where it holds the file, else its absolute path.
 */
export function coveredListing(cover: CoverNoting, root: string, listed: readonly BundleFile[]): ListedFile[] {
  const name = (at: string) => (path.isAbsolute(at) && isInside(root, at) ? portableRelative(root, at) : at);
  const out = new Map<string, ListedFile>(listed.map((f) => [f.path, f]));
  const add = (f: ListedFile) => {
    if (!out.has(f.path)) out.set(f.path, f);
  };
  const set = cover((at, failure) => add({ path: name(at), unhashed: failure.message }));
  // With a note, nothing refuses the set: each path it cannot cover was noted above. Read in the
  // hash's order, so that the file past the bytes it reads is the one it stopped at.
  let total = 0;
  for (const f of set.ok ? [...set.files].sort(hashOrder) : []) {
    const known = out.get(name(f.abs));
    if (known) {
      if ('size' in known) total += known.size;
      continue;
    }
    const read = readCovered(f, MAX_HASHED_BYTES - total);
    if (read === 'missing') add({ path: name(f.abs), unhashed: MISSING_COVERED });
    else if (!read.ok) add({ path: name(f.abs), unhashed: unreadCovered(f, read).message });
    else {
      total += read.bytes.length;
      add({ path: name(f.abs), size: read.bytes.length, sha256: sha256Hex(read.bytes), executable: read.executable });
    }
  }
  return [...out.values()].sort((a, b) => byteOrder(a.path, b.path));
}
