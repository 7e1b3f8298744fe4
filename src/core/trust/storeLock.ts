import * as fs from 'node:fs';
import type * as Lockfile from 'proper-lockfile';
import { errorText } from '../fs/safeFs';
import { lstatOrUndefined } from '../fs/lstatOrUndefined';

/**
 * The writers' lock on the trust store (trust.md "The trust store"): a directory beside
 * `state.json` that every writer takes with proper-lockfile, and `doctor --prune` too.
 * Readers never lock. A writer proves the lock still its own immediately before it
 * replaces the file (`stillOurs`).
 */

/** After this long without a refresh a writer's lock is taken over (a killed writer leaves it behind). */
export const LOCK_STALE_MS = 5000;

/** The lock directory as it was when taken: a takeover makes a new directory, or dates it anew. */
export interface LockIdentity {
  readonly dev: number;
  readonly ino: number;
  readonly mtimeMs: number;
}

/** A writer's hold on the lock, from `takeWriterLock` until `release`. */
export interface WriterLock {
  /** Whether proper-lockfile has reported the lock lost (taken over while we held it). */
  readonly compromised: () => boolean;
  /** The lock turned out not to be ours: releasing leaves its directory to the writer that took it over. */
  readonly forfeit: () => void;
  readonly release: () => Promise<void>;
}

/**
 * Takes the lock for one update of `file`, retrying while another writer holds it; the
 * refusal says why it could not be taken.
 */
export async function takeWriterLock(
  file: string,
  lockDir: string,
  stale: number,
): Promise<{ readonly ok: true; readonly lock: WriterLock } | { readonly ok: false; readonly message: string }> {
  let compromised = false;
  // Set when the lock turned out not to be ours: the directory at `lockDir` then
  // belongs to the writer that took it over, and releasing must not remove it.
  let forfeited = false;
  const lockFs = {
    ...fs,
    rmdir: (p: string, cb: (e: NodeJS.ErrnoException | null) => void) => (forfeited ? cb(null) : fs.rmdir(p, cb)),
    rmdirSync: (p: string) => (forfeited ? undefined : fs.rmdirSync(p)),
  };
  let release: () => Promise<void>;
  try {
    release = await lockfileLibrary().lock(file, {
      realpath: false,
      lockfilePath: lockDir,
      fs: lockFs,
      // A writer killed mid-update leaves its lock behind; after this long it is taken over.
      stale,
      retries: { retries: 400, factor: 1.3, minTimeout: 2, maxTimeout: 60, randomize: true },
      // proper-lockfile's default throws from a timer; a lost lock is an aborted write, reported by `commit`.
      onCompromised: () => {
        compromised = true;
      },
    });
  } catch (e) {
    // Held past every retry: another writer, or a lock no live writer refreshes that proper-lockfile
    // will not take over (dated in the future by a clock stepped back, or from another host).
    const held =
      (e as NodeJS.ErrnoException).code === 'ELOCKED'
        ? `; if no Skillgate is writing it now, remove the lock directory ${lockDir} and try again`
        : '';
    return { ok: false, message: `failed to lock the trust store ${file} for update: ${errorText(e)}${held}` };
  }
  return {
    ok: true,
    lock: {
      compromised: () => compromised,
      forfeit: () => {
        forfeited = true;
      },
      release,
    },
  };
}

/**
 * Takes the lock for `doctor --prune` without waiting (waiting would make `doctor`
 * asynchronous): throws when another process holds it. Returns the release, which throws
 * when the lock was taken over meanwhile.
 */
export function takeLockWithoutWaiting(file: string, lockDir: string, stale: number): () => void {
  return lockfileLibrary().lockSync(file, {
    realpath: false,
    lockfilePath: lockDir,
    stale,
    // The section below is synchronous: the library's refresher never runs, so it never reports a lost lock.
    onCompromised: () => undefined,
  });
}

export function identityOf(lockDir: string): LockIdentity | undefined {
  const st = lstatOrUndefined(lockDir);
  return st?.isDirectory() ? { dev: st.dev, ino: st.ino, mtimeMs: st.mtimeMs } : undefined;
}

export function sameIdentity(a: LockIdentity | undefined, b: LockIdentity): boolean {
  return a !== undefined && a.dev === b.dev && a.ino === b.ino && a.mtimeMs === b.mtimeMs;
}

/**
 * The last check before the rename: the lock is still the one we took (same
 * directory, same mtime, never reported compromised) and `state.json` still holds
 * the bytes we read under it (a compare-and-swap that also catches a writer that
 * finished while we were paused, or a program that ignores the lock). The lock is
 * then refreshed, so the rename that follows has a whole stale period before anyone
 * may take the lock over. Should a takeover slip in between the identity check and
 * the refresh, the new directory fails the inode check here, or (inode reused) the
 * new owner finds its mtime changed in its own check: one of the two aborts.
 *
 * What remains: a pause longer than the stale period that falls exactly between this
 * check and the rename system call, where no code of ours runs. A writer that took
 * the lock over meanwhile commits, and our rename then replaces its update. Closing
 * that needs a compare-and-rename the file system does not offer.
 */
export function stillOurs(
  ours: () => boolean,
  lockDir: string,
  held: LockIdentity,
  text: string,
  currentText: () => string | undefined,
): boolean {
  if (!ours()) return false;
  if (currentText() !== text) return false;
  const now = new Date();
  try {
    fs.utimesSync(lockDir, now, now);
  } catch {
    return false;
  }
  const refreshed = identityOf(lockDir);
  return refreshed !== undefined && refreshed.ino === held.ino && refreshed.dev === held.dev;
}

/**
 * proper-lockfile, loaded by the first write: only writers lock, and loading it costs a
 * read-only command (`list`, `check`) its start-up. Run from source it also loads
 * graceful-fs, which patches `fs.closeSync` and `process.cwd` for the whole process; the
 * built core gives it Node's own fs instead (scripts/sharedCore.mjs), so nothing is patched.
 */
function lockfileLibrary(): typeof Lockfile {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('proper-lockfile') as typeof Lockfile;
}
