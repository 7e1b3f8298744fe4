import * as path from 'node:path';

/**
 * `target` relative to `from`, with `/` separators whatever the host: the spelling the
 * agents and our receipts use for paths inside a bundle or workspace.
 */
export function portableRelative(from: string, target: string): string {
  return path.relative(from, target).split(path.sep).join('/');
}

/** True when `p` lies strictly inside `ancestor`. */
export function isAncestor(ancestor: string, p: string): boolean {
  const rel = path.relative(ancestor, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
