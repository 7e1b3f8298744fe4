import * as path from 'node:path';
import { isInside, readRegularFile } from '../fs/safeFs';
import { firstNonDirectory } from '../fs/firstNonDirectory';
import { byteOrder } from '../fs/rawNames';
import { sha256Hex } from './framing';
import { MAX_HASHED_BYTES } from './treeRead';
import type { BundleFile } from '../model';

/**
 * Each listed file that is a regular file inside `root` now, reached without a symbolic
 * link (as everywhere in hashing, trust.md), hashed; the others are absent.
 */
export function hashListed(root: string, rels: readonly string[]): BundleFile[] {
  const files: BundleFile[] = [];
  for (const rel of [...new Set(rels)].sort(byteOrder)) {
    const abs = path.join(root, rel);
    if (!isInside(root, abs) || abs === root || throughLink(root, abs)) continue;
    const read = readRegularFile(abs, MAX_HASHED_BYTES);
    if (read.ok)
      files.push({ path: rel, size: read.bytes.length, sha256: sha256Hex(read.bytes), executable: read.executable });
  }
  return files;
}

/** True when a directory on the way from `root` to `abs` is not a directory (a symbolic link): the last component is opened without following one. */
function throughLink(root: string, abs: string): boolean {
  return firstNonDirectory(root, path.dirname(abs)) !== undefined;
}
