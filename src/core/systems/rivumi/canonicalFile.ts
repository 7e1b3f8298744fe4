import * as fs from 'node:fs';
import * as path from 'node:path';
import { decodeRawName, osPath } from '../../fs/rawNames';

/** The path a Rivumi trust unit (a plugin manifest, hooks.json) is keyed by in receipts. */

/**
 * A trust unit's identity is its canonical path (trust.md "Bundle identity"), whichever spelling
 * of its workspace folder reached it. A file whose own path does not resolve (a link to itself,
 * a dangling link) is named in its directory's canonical path: as spelled, it was another key
 * through a folder given by a symbolic link than through the folder itself.
 */
export function canonicalFile(abs: string): string {
  const real = (p: string) => decodeRawName(fs.realpathSync.native(osPath(p), { encoding: 'buffer' }));
  try {
    return real(abs);
  } catch {
    try {
      return path.join(real(path.dirname(abs)), path.basename(abs));
    } catch {
      return abs;
    }
  }
}
