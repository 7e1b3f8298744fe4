import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Paths as an agent spells them and the OS reads them. The agents join as Rust's
 * `Path::join` does, by appending, and hand the result to the OS, which resolves each `..`
 * against the real directory before it: after a link, the parent of the link's target.
 * Node's `path.join` and `path.resolve` fold `..` lexically, which through a link names
 * another directory (`~/link/../x` is not `~/x` when `link` leads elsewhere).
 */

/** Rust's `Path::join`: an absolute second part replaces the first, and nothing is normalized. */
export function joinAsSpelled(base: string, rel: string): string {
  if (path.isAbsolute(rel)) return rel;
  return base.endsWith(path.sep) ? base + rel : base + path.sep + rel;
}

/**
 * An absolute path written without `..` (nor `.`, `//`, a trailing `/`), naming what the OS
 * reaches by the spelled one, so that Node's joins below it (which fold `..`) reach what the
 * agent reaches: the part up to the last `..` becomes its real path. Kept as spelled when that part reaches nothing (a
 * missing directory, a file): the OS reaches nothing under it either, and the path given
 * to the OS as spelled fails there as the agent's does. Windows folds `..` before the file
 * system sees it (`GetFullPathName`), as Node does, so there the lexical form is the one reached.
 */
export function withParentsResolved(spelled: string, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32') return path.resolve(spelled);
  const parts = spelled.split('/');
  const last = parts.lastIndexOf('..');
  // With no `..` left, folding `.`, `//` and a trailing `/` names the same directory.
  if (last < 0) return path.resolve(spelled);
  let real: string;
  try {
    real = fs.realpathSync.native(parts.slice(0, last + 1).join('/'));
  } catch {
    return spelled;
  }
  return path.resolve(real, parts.slice(last + 1).join('/'));
}

/**
 * A directory a user typed (a CLI flag, a setting): relative to `cwd`, appended, then its
 * `..` resolved as the OS resolves them, as `ls` reads such a path in a shell.
 */
export function typedDirectory(given: string, cwd: string): string {
  return withParentsResolved(joinAsSpelled(cwd, given));
}
