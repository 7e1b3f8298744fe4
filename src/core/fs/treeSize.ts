import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Whether the tree under `dir` holds more than `limit` entries (files, directories, links;
 * symbolic links are counted, never followed). Stops as soon as it knows: the walk reads at
 * most about `limit` entries whatever the tree's size. Names are read as bytes, so a name
 * that is not UTF-8 is walked into as it is. A directory that cannot be read counts as empty.
 */
export function holdsMoreEntriesThan(dir: string, limit: number): boolean {
  let count = 0;
  const pending: Buffer[] = [Buffer.from(dir)];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    let entries: fs.Dirent<Buffer>[];
    try {
      entries = fs.readdirSync(next, { encoding: 'buffer', withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (++count > limit) return true;
      if (entry.isDirectory()) pending.push(Buffer.concat([next, SEPARATOR, entry.name]));
    }
  }
  return false;
}

const SEPARATOR = Buffer.from(path.sep);
