import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TrustState } from './stateSchema';

/**
 * How a writer replaces `state.json` (trust.md "The trust store"), under the writers'
 * lock: a temporary file beside it, written whole and flushed, renamed over it, and the
 * directory flushed, so a crash leaves the old store or the new one, never a mix.
 * `dir` is the store's directory and `file` its `state.json` in it.
 */

/** Temporary files of a writer that was killed; safe to remove while we hold the lock. */
export function removeAbandonedTemporaries(dir: string, file: string): void {
  const prefix = `${path.basename(file)}.tmp-`;
  for (const name of fs.readdirSync(dir)) if (name.startsWith(prefix)) fs.rmSync(path.join(dir, name), { force: true });
}

/** Writes `state` through a temporary file; renames it over `state.json` only when `mayCommit()` still holds. */
export function writeAtomically(dir: string, file: string, state: TrustState, mayCommit: () => boolean): boolean {
  const tmp = `${file}.tmp-${process.pid}-${crypto.randomBytes(6).toString('hex')}`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    // A write may store only part of what it is given (a disk filling up); only the next one
    // fails with ENOSPC. A short write taken for the whole would rename a truncated store into place.
    const bytes = Buffer.from(JSON.stringify(state, null, 2) + '\n');
    for (let done = 0; done < bytes.length;) done += fs.writeSync(fd, bytes, done, bytes.length - done);
    fs.fsyncSync(fd);
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  fs.closeSync(fd);
  try {
    if (!mayCommit()) {
      fs.rmSync(tmp, { force: true });
      return false;
    }
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  try {
    const dirFd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dirFd);
    } finally {
      fs.closeSync(dirFd);
    }
  } catch (e) {
    throw new UpdateNotFlushed(e);
  }
  return true;
}

/**
 * The rename replaced `state.json`, so every reader has the update, but the directory could
 * not be flushed: the update is in place, and a crash before a later flush may undo it. Not
 * "nothing was changed", which a failure before the rename is.
 */
export class UpdateNotFlushed extends Error {
  constructor(readonly reason: unknown) {
    super('the trust store was updated, but its directory could not be flushed');
  }
}
