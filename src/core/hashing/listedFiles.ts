import * as path from 'node:path';
import { isInside } from '../fs/safeFs';
import { readBeneath } from '../fs/openBeneath';
import { portableRelative } from '../fs/portablePath';
import { firstNonDirectory } from '../fs/firstNonDirectory';
import { byteOrder, osPath } from '../fs/rawNames';
import { sha256Hex } from './framing';
import { MAX_HASHED_BYTES } from './treeRead';
import type { BundleFile } from '../model';

/**
 * Each listed file that is a regular file inside `root` now, reached without a symbolic
 * link (as everywhere in hashing, trust.md), hashed; the others are absent. The way is
 * checked with `lstat` (`throughLink`, the rule where the platform cannot read beneath a
 * held directory) and the file read beneath `root` (`readBeneath`), so the check cannot be
 * raced.
 */
export function hashListed(root: string, rels: readonly string[]): BundleFile[] {
  const files: BundleFile[] = [];
  for (const rel of [...new Set(rels)].sort(byteOrder)) {
    const abs = path.join(root, rel);
    if (!isInside(root, abs) || abs === root || throughLink(root, abs)) continue;
    listedSeams.checked?.(abs);
    // Read beneath `root`, one component at a time (openBeneath.ts): a directory on the way
    // swapped for a link since the check is refused as one, and the file is absent as behind a
    // link the check found; no byte from outside the root is hashed.
    const read = readBeneath(root, Buffer.from(osPath(portableRelative(root, abs))), MAX_HASHED_BYTES);
    if (read.ok)
      files.push({ path: rel, size: read.bytes.length, sha256: sha256Hex(read.bytes), executable: read.executable });
  }
  return files;
}

/** True when a directory on the way from `root` to `abs` is not a directory (a symbolic link): the last component is opened without following one. */
function throughLink(root: string, abs: string): boolean {
  return firstNonDirectory(root, path.dirname(abs)) !== undefined;
}

/**
 * Where a test may act between the check of a listed file's way and its read, as another
 * process in the repository could: a race no unit test can win by timing, made deterministic.
 */
export const listedSeams: {
  /** After every directory on the way to `abs` was found a directory, before the file is read. */
  checked?: (abs: string) => void;
} = {};
