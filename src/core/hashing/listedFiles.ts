import * as path from 'node:path';
import { isInside, lstatEntry, readRegularFile } from '../fs/safeFs';
import { sha256Hex } from './framing';
import type { BundleFile } from '../model';

const MAX_FILE = 67108864;

/**
 * Each listed file that is a regular file inside `root` now, reached without a symbolic
 * link (as everywhere in hashing, trust.md), hashed; the others are absent.
 */
export function hashListed(root: string, rels: readonly string[]): BundleFile[] {
  const files: BundleFile[] = [];
  for (const rel of [...new Set(rels)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))) {
    const abs = path.join(root, rel);
    if (!isInside(root, abs) || abs === root || throughLink(root, abs)) continue;
    const read = readRegularFile(abs, MAX_FILE);
    if (read.ok)
      files.push({ path: rel, size: read.bytes.length, sha256: sha256Hex(read.bytes), executable: read.executable });
  }
  return files;
}

/** True when a directory on the way from `root` to `abs` is a symbolic link (the last component is opened without following one). */
function throughLink(root: string, abs: string): boolean {
  let cur = root;
  const parts = path.relative(root, abs).split(path.sep);
  for (const part of parts.slice(0, -1)) {
    cur = path.join(cur, part);
    if (lstatEntry(cur).type !== 'directory') return true;
  }
  return false;
}
