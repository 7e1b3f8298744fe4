import * as path from 'node:path';
import { lstatEntry, type EntryType } from './safeFs';

/**
 * The first entry on the way from `root` down to `abs` (each component below `root`, `abs`
 * itself included) that is not a directory as `lstat` sees it: where a walk that follows no
 * symbolic link stops, and what stops it. Undefined when every one is a directory.
 */
export function firstNonDirectory(
  root: string,
  abs: string,
): { readonly at: string; readonly type: Exclude<EntryType, 'directory'> } | undefined {
  let at = root;
  for (const part of path.relative(root, abs).split(path.sep)) {
    if (part === '') continue;
    at = path.join(at, part);
    const type = lstatEntry(at).type;
    if (type !== 'directory') return { at, type };
  }
  return undefined;
}
