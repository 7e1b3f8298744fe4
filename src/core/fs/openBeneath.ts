import * as fs from 'node:fs';
import { constants as osConstants } from 'node:os';
import { directoryOpenFailure } from './directoryOpenFailure';
import { heldDirectoriesWork, heldPath } from './heldDirectory';
import { osPath } from './rawNames';
import { openFailure, READ_FLAGS, readOpenFile, type ReadResult } from './safeFs';

/**
 * A file opened beneath a directory without following a link on the way, as Linux's
 * `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)` would. A caller that checked each
 * component of `base/a/b/file` with `lstat` and then opens the whole path follows `a` if a
 * process in the repository replaced it by a symbolic link in between (`O_NOFOLLOW`
 * guards only the last component), and reads bytes from outside the bundle. Here `base`
 * is opened by its path (its spelling is the caller's to check: a skill folder may be a
 * link Eva follows), then each component below it is opened against the one before it
 * (heldDirectory.ts: `/proc/<pid>/fd/<fd>/<name>`, as `openat` would), never following a
 * link: a component that is a link by now fails as a link at the last component does
 * (ELOOP), and no byte from outside is read.
 *
 * The directories on the way are opened `O_PATH` (open(2)): that needs search permission
 * on the way and none on the directory itself, exactly what a path lookup needs, so a
 * directory this user may search but not list (mode 711) is passed as a path passes it.
 * Where the platform cannot (`beneathWorks`: macOS, Windows, a Linux without procfs) the
 * whole path is opened, as before, and that race remains there.
 */

/**
 * open(2)'s `O_PATH`, which Node does not export: `010000000` in asm-generic/fcntl.h, the
 * value of every Linux architecture Node runs on (alpha, parisc and sparc differ: Node
 * has none). The probe checks that the bit means it here.
 */
const O_PATH = 0o10000000;
const O_DIRECTORY = fs.constants.O_DIRECTORY ?? 0;
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/** Linux's PATH_MAX (linux/limits.h: 4096 bytes with the terminating NUL), as treeRead.ts has it. */
const PATH_MAX = 4096;
const SLASH = 0x2f;

let works: boolean | undefined;

/** Whether files are opened beneath held directories here: held directories work and `O_PATH` is what this bit asks for. */
export function beneathWorks(): boolean {
  return (works ??= heldDirectoriesWork() && probePathDescriptors());
}

function probePathDescriptors(): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync('/', O_PATH | O_DIRECTORY);
    const held = fs.fstatSync(fd);
    const root = fs.statSync('/');
    if (!held.isDirectory() || held.dev !== root.dev || held.ino !== root.ino) return false;
    // A descriptor of `O_PATH` reads nothing (EBADF); one open for reading a directory fails EISDIR.
    try {
      fs.readSync(fd, Buffer.alloc(1));
      return false;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EBADF';
    }
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Holds the directory `base` names, following a link in it as a path lookup does (the
 * callers chose and checked that spelling), for naming what lies beneath it
 * (`heldPath`). Throws as `fs.openSync` throws. The caller closes it.
 */
export function holdBase(base: string | Buffer): number {
  return fs.openSync(osPath(base), O_PATH | O_DIRECTORY);
}

/**
 * Holds the directory `name` in the directory `held` holds, never through a link: one
 * that is a link now throws ELOOP, as `O_NOFOLLOW` answers at a path's last component (Linux
 * answers ENOTDIR with `O_DIRECTORY`: the entry is looked at to tell, as the content walk
 * looks, directoryOpenFailure.ts). Anything else throws as `fs.openSync` throws: a file
 * there is ENOTDIR, as a path through it is.
 */
export function holdBeneath(held: number, name: Buffer): number {
  const at = heldPath(held, name);
  try {
    return fs.openSync(at, O_PATH | O_DIRECTORY | O_NOFOLLOW);
  } catch (e) {
    if (directoryOpenFailure(at, e).kind === 'link') throw linkOnTheWay();
    throw e;
  }
}

/** The error a path's last component that is a link fails with under `O_NOFOLLOW`. */
function linkOnTheWay(): NodeJS.ErrnoException {
  const errno = osConstants.errno.ELOOP;
  return Object.assign(new Error('ELOOP: too many symbolic links encountered, open'), {
    code: 'ELOOP',
    errno: -errno,
    syscall: 'open',
  });
}

/**
 * Opens `base/rel` with `flags` (the last component's, `O_NOFOLLOW` among them), each
 * component of `rel` (`/`-separated raw bytes) beneath the one before it. Throws as
 * `fs.openSync` would for the whole path, but a link on the way is ELOOP. A `rel` with an
 * empty, `.` or `..` component, or a path past PATH_MAX (which fails `File name too long`
 * before any component is looked up), is opened whole, as before.
 */
export function openBeneath(base: string | Buffer, rel: Buffer, flags: number): number {
  const parts = componentsOf(rel);
  const whole = Buffer.concat([Buffer.from(osPath(base)), Buffer.from([SLASH]), rel]);
  if (parts === undefined || whole.length >= PATH_MAX || !beneathWorks()) return fs.openSync(whole, flags);
  let held = holdBase(base);
  try {
    for (let i = 0; i < parts.length - 1; i++) {
      const next = holdBeneath(held, parts[i] as Buffer);
      const done = held;
      held = next;
      fs.closeSync(done);
    }
    return fs.openSync(heldPath(held, parts[parts.length - 1] as Buffer), flags);
  } finally {
    fs.closeSync(held);
  }
}

/**
 * `readRegularFile(base/rel, limit)` read beneath `base` (`openBeneath`): the same result
 * for the same file, the same limits, the same failures in the same words; a directory
 * on the way that is a link now is `symlink`, as a link at the last component is.
 */
export function readBeneath(base: string | Buffer, rel: Buffer, limit: number): ReadResult {
  let fd: number;
  try {
    fd = openBeneath(base, rel, READ_FLAGS);
  } catch (e) {
    return openFailure(e);
  }
  return readOpenFile(fd, limit);
}

/** The components of `rel`, or undefined when one is empty, `.` or `..` (a path of those is opened whole). */
function componentsOf(rel: Buffer): Buffer[] | undefined {
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i <= rel.length; i++) {
    if (i < rel.length && rel[i] !== SLASH) continue;
    const part = rel.subarray(start, i);
    if (part.length === 0 || (part[0] === 0x2e && (part.length === 1 || (part.length === 2 && part[1] === 0x2e))))
      return undefined;
    parts.push(part);
    start = i + 1;
  }
  return parts;
}

/** Whether the path `p` is past PATH_MAX: a lookup of it fails before any component is looked up. */
export function pastPathMax(p: string): boolean {
  // A well-formed string takes at most 3 UTF-8 bytes per UTF-16 unit: most paths need no count.
  if (p.length * 3 < PATH_MAX) return false;
  return Buffer.from(osPath(p)).length >= PATH_MAX;
}
