import * as path from 'node:path';

/**
 * `target` relative to `from`, with `/` separators whatever the host: the spelling the
 * agents and our receipts use for paths inside a bundle or workspace.
 */
export function portableRelative(from: string, target: string): string {
  return insideSuffix(from, target) ?? path.relative(from, target).split(path.sep).join('/');
}

/** True when `p` lies strictly inside `ancestor`. */
export function isAncestor(ancestor: string, p: string): boolean {
  const within = resolvedWithin(ancestor, p);
  if (within !== undefined) return within && p !== ancestor;
  const rel = path.relative(ancestor, p);
  return rel !== '' && !leavesBase(rel);
}

/**
 * Whether `p` is `base` or lies inside it, decided from the bytes where that is exact: on a
 * POSIX host, for two paths `path.resolve` leaves unchanged; undefined elsewhere, where
 * `path.relative` decides. A watcher's storm asks this of every path it reports against
 * every tree an index reads (an `npm install` in a bundle: 50,000 paths), and
 * `path.relative` costs a microsecond or two each time.
 */
export function resolvedWithin(base: string, p: string): boolean | undefined {
  // `/` ends in a separator, so it is left to path.relative too.
  if (path.sep !== '/' || !isResolved(base) || !isResolved(p)) return undefined;
  return p.startsWith(base) && (p.length === base.length || p.charCodeAt(base.length) === 0x2f);
}

/**
 * True when `rel`, a result of `path.relative(base, p)`, leads out of `base`: its first
 * component is `..`, or it is absolute (another drive). A name that merely starts with
 * two dots (`..x`, a legal file or directory name the agents load) stays inside.
 */
export function leavesBase(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
}

/**
 * `path.relative(from, target)` without resolving either path, when both are absolute
 * POSIX paths in the form `path.resolve` returns and `target` is `from` or lies under
 * it: the rest of `target`. Undefined when that does not hold (ask `path.relative`).
 * A snapshot relates every item, diagnostic and bundle file to its root this way, and
 * `path.relative` resolves and splits both paths each time.
 */
export function insideSuffix(from: string, target: string): string | undefined {
  if (path.sep !== '/' || from === '/' || !isResolved(from) || !target.startsWith(from)) return undefined;
  if (target.length === from.length) return '';
  if (target.charCodeAt(from.length) !== 0x2f || !isResolved(target)) return undefined;
  return target.slice(from.length + 1);
}

/** Absolute, with no empty, `.` or `..` segment and no trailing `/`: what `path.resolve` leaves unchanged. */
function isResolved(p: string): boolean {
  return p.charCodeAt(0) === 0x2f && !NOT_RESOLVED.test(p);
}

const NOT_RESOLVED = /\/\/|\/\.\.?(?:\/|$)|\/$/;
