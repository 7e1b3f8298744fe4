import * as fs from 'node:fs';

/**
 * What a cache may be read from: a place only its user can have written. A cache
 * directory can be shared or handed over (`--cache-dir /tmp/x`, `SKILLGATE_CACHE_DIR`
 * set by a build script), and whoever else can write there can forge an entry whose
 * CRC is right: bytecode the CLI would run (codeCache.ts), or a bundle's items and
 * diagnostics the index would replay in place of what its bytes say (parseCache.ts).
 * Needs only Node's built-ins: the CLI bundles its own copy (scripts/sharedCore.mjs).
 */

/** The current user's id; undefined where there is no owner to check (Windows). */
export function currentUid(): number | undefined {
  return process.getuid?.();
}

/** Owned by `uid`, and writable by nobody else. */
export function ownAndPrivate(st: fs.Stats, uid: number): boolean {
  return st.uid === uid && (st.mode & 0o022) === 0;
}

/** A real directory (not a link) of `uid`'s, that nobody else can write into. */
export function ownDirectory(dir: string, uid: number): boolean {
  try {
    const st = fs.lstatSync(dir);
    return st.isDirectory() && ownAndPrivate(st, uid);
  } catch {
    return false;
  }
}
