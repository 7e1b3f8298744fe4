import * as path from 'node:path';
import { canonicalPath, isInside, lstatEntry } from '../../fs/safeFs';
import { deniedByPermissions } from '../../fs/permissionDenied';
import { rustFaultText } from '../../fs/rustIoErrorText';

/**
 * Paths a skill names (`skill.path`, `lua.script`, schema files), resolved as the
 * design prescribes and checked against their allowed roots (eva.md §3.5).
 */

export interface ResolvedPath {
  readonly declared: string;
  /** Absolute, lexically normalized; null when the path cannot be resolved (`~user/…`). */
  readonly resolved: string | null;
  /** Real path when the target exists. */
  readonly real: string | null;
  /** What diagnostics show: `~/…` for home paths, project-relative for project paths. */
  readonly display: string;
  readonly exists: boolean;
  readonly allowed: boolean;
  /** The lexical form is inside a root, only the real path escapes. */
  readonly viaSymlink: boolean;
  /**
   * Why this user cannot look at the path (a folder on the way it may not search), in Rust's
   * words; undefined when the lookup was answered. Such a path is neither missing nor outside.
   */
  readonly unreadable?: string;
}

export interface AllowedRoot {
  /** Absolute root as given. */
  readonly root: string;
  /** Its real path when it exists (roots are compared after `realpath`). */
  readonly real: string;
}

export function allowedRoot(root: string): AllowedRoot {
  return { root: path.resolve(root), real: canonicalPath(root) ?? path.resolve(root) };
}

/**
 * Expands a leading `~/` against `home`, joins a relative path to the project root (not
 * the manifest's folder), normalizes `.`/`..`, then follows links when the target exists.
 * The caller has refused a NUL byte first (`schema_invalid`).
 */
export function resolveNamedPath(
  declared: string,
  projectRoot: string,
  home: string | null,
  roots: readonly AllowedRoot[],
): ResolvedPath {
  let resolved: string | null;
  if (declared === '~' || declared.startsWith('~/'))
    resolved = home === null ? null : path.resolve(home, declared.slice(2));
  else if (declared.startsWith('~')) resolved = null;
  else resolved = path.resolve(projectRoot, declared);
  const display = displayPath(resolved, declared, projectRoot, home);
  if (resolved === null)
    return { declared, resolved, real: null, display, exists: false, allowed: false, viaSymlink: false };
  const lexicalOk = roots.some((r) => isInside(r.root, resolved) || isInside(r.real, resolved));
  const entry = lstatEntry(resolved);
  // A folder on the way this user may not search (another user's, at 700 or 744): neither the
  // path nor its real path can be looked at. It is not known to escape, so it is not refused as
  // outside (nor "via symbolic link"): Eva run as a user who may read it takes it, and what trust
  // would cover cannot be read, so the skill cannot be trusted (bundleTrust.ts, hashes.ts).
  if (entry.error !== undefined && deniedByPermissions(entry.fault))
    return {
      declared,
      resolved,
      real: null,
      display,
      exists: false,
      allowed: lexicalOk,
      viaSymlink: false,
      unreadable: rustFaultText(entry.fault, entry.error),
    };
  // A regular file on the way (ENOTDIR) leaves nothing at the path, as ENOENT does: it is missing,
  // and has no real path that could escape.
  const missing = entry.type === 'missing' || entry.fault?.code === 'ENOTDIR';
  const real = missing ? null : (canonicalPath(resolved) ?? null);
  // A path that exists but whose real path cannot be found (a dangling link) is refused: fail closed.
  const exists = !missing && real !== null;
  const realOk = missing ? true : real !== null && roots.some((r) => isInside(r.real, real));
  return { declared, resolved, real, display, exists, allowed: lexicalOk && realOk, viaSymlink: lexicalOk && !realOk };
}

function displayPath(resolved: string | null, declared: string, projectRoot: string, home: string | null): string {
  if (resolved === null) return declared;
  if (isInside(projectRoot, resolved)) return path.relative(projectRoot, resolved).split(path.sep).join('/') || '.';
  if (home !== null && isInside(home, resolved)) return `~/${path.relative(home, resolved).split(path.sep).join('/')}`;
  return resolved;
}
