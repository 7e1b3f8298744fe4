import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import { lstatEntry } from '../../fs/safeFs';
import { portableRelative } from '../../fs/portablePath';
import { pythonErrorText } from './pythonOsError';

/** A destination that another writer took after it was checked, refused in Rivumi's words for it (§5.6 steps 5-6). */
export class Taken extends Error {}

/**
 * One file on its way in. Each step is recorded the moment it has happened, so that a
 * failure at any point can be undone exactly: the temporary file we made, the old file
 * moved aside, the new file in place.
 */
export interface Landing {
  readonly dest: string;
  readonly tmp: string;
  tmpMade: boolean;
  backup: string | null;
  landed: boolean;
}

/**
 * Writes `bytes` under a temporary name beside `dest`, moves an existing `dest` aside and
 * renames the new file into place. The landing is recorded before the first step, so a
 * throw at any step leaves the caller's rollback knowing what was done.
 */
export function land(dest: string, bytes: Buffer, landings: Landing[], repo: string, taken?: string): void {
  const l: Landing = {
    dest,
    tmp: `${dest}.skillgate-${crypto.randomBytes(6).toString('hex')}`,
    tmpMade: false,
    backup: null,
    landed: false,
  };
  landings.push(l);
  // Opened apart from the write: a name already taken ('wx' fails) is not ours to delete.
  const fd = fs.openSync(l.tmp, 'wx');
  l.tmpMade = true;
  try {
    fs.writeFileSync(fd, bytes);
  } finally {
    fs.closeSync(fd);
  }
  // Checked before anything was written, checked again now: a directory is never moved aside.
  const present = lstatEntry(dest);
  if (present.type === 'directory') throw new Error(`${portableRelative(repo, dest)} is a directory`);
  // Without --overwrite, a file that appeared since the checks (a second install of the
  // same name) is someone else's: refused, never moved aside and deleted on success.
  if (taken !== undefined) {
    if (present.type !== 'missing') throw new Taken(taken);
    // link() never replaces what is there, so not even one landing between this check and
    // the write is lost; where the file system has no hard links, the rename below does it.
    if (linkedInPlace(l.tmp, dest, taken)) {
      l.landed = true;
      fs.rmSync(l.tmp);
      l.tmpMade = false;
      return;
    }
  }
  if (present.type !== 'missing') {
    const backup = `${dest}.skillgate-backup-${crypto.randomBytes(6).toString('hex')}`;
    fs.renameSync(dest, backup);
    l.backup = backup;
  }
  fs.renameSync(l.tmp, dest);
  l.tmpMade = false;
  l.landed = true;
}

/** Gives `tmp` the name `dest` only if that name is free: true when done, false when this file system cannot link. */
function linkedInPlace(tmp: string, dest: string, taken: string): boolean {
  try {
    fs.linkSync(tmp, dest);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new Taken(taken);
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') return false;
    throw e;
  }
}

/**
 * Undoes landings, last first, and never throws: each file is restored on its own, so
 * one that cannot be does not keep the others from it. Returns what could not be undone,
 * in words that tell the user where their old file is.
 */
export function undoLandings(landings: readonly Landing[], repo: string): string[] {
  const problems: string[] = [];
  for (const l of [...landings].reverse()) {
    const shown = portableRelative(repo, l.dest);
    try {
      // A rename puts the old file back over the new one in one step; without a backup
      // there was nothing before, and the new file goes.
      if (l.backup) fs.renameSync(l.backup, l.dest);
      else if (l.landed) fs.rmSync(l.dest, { force: true });
    } catch (e) {
      problems.push(
        l.backup
          ? `the previous ${shown} is kept at ${portableRelative(repo, l.backup)} (${pythonErrorText(e)})`
          : `the new ${shown} could not be removed (${pythonErrorText(e)})`,
      );
    }
    if (l.tmpMade && !removeQuietly(l.tmp)) problems.push(`${portableRelative(repo, l.tmp)} could not be removed`);
  }
  return problems;
}

export function removeQuietly(file: string): boolean {
  try {
    fs.rmSync(file, { force: true });
    return true;
  } catch {
    return false;
  }
}
