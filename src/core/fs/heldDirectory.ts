import * as fs from 'node:fs';

/**
 * A directory held open by a descriptor, so that what lies under it is named against the
 * directory itself, never again by a path. `O_NOFOLLOW` guards only a path's last
 * component: a walk that lists `dir` and then opens `dir/sub/file` follows `sub` if a
 * process in the repository replaced it by a symbolic link in between, and reads bytes
 * from outside the bundle. Node has no `openat` or `fdopendir`; on Linux
 * `/proc/<pid>/fd/<fd>` is a magic link to exactly the directory the descriptor holds
 * (proc(5), "/proc/pid/fd/"), so `/proc/<pid>/fd/<fd>/<name>` resolves `name` in that
 * directory as `openat(fd, name)` would, whatever its path now leads to. The process's
 * own number, not `/proc/self`: resolving `self` (a link procfs builds on each lookup)
 * made each open through it about a third dearer (8,000 opens of bundle files, 17.0 against
 * 12.8 ms); the probe checks that `/proc/self` is this number, so a /proc of another PID
 * namespace is never used.
 *
 * Where `/proc` does not name this process's descriptors so (macOS, Windows, a Linux
 * without procfs, of another PID namespace, or where this process may not read its own fd
 * directory) `heldDirectoriesWork` is false and callers name entries by path, as before:
 * there a directory swapped for a link between two calls is still followed (the race
 * upstream's own path walk has too).
 */

/** A directory opened without following a link at its last component: a link is ELOOP, or ENOTDIR as Linux answers with O_DIRECTORY. */
const HOLD_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_DIRECTORY ?? 0) | (fs.constants.O_NOFOLLOW ?? 0);

let fdDirectory: string | undefined;
let works: boolean | undefined;

/**
 * Whether this process names a held directory by `/proc/<pid>/fd/<fd>`: probed once, by
 * checking that `/proc/self` is this process, then holding `/` and checking that the
 * magic link leads to the very directory the descriptor holds (same device and inode).
 */
export function heldDirectoriesWork(): boolean {
  return (works ??= probe());
}

function probe(): boolean {
  if (process.platform !== 'linux') return false;
  let fd: number | undefined;
  try {
    if (fs.readlinkSync('/proc/self') !== String(process.pid)) return false;
    const candidate = `/proc/${process.pid}/fd/`;
    fd = fs.openSync('/', HOLD_FLAGS);
    const held = fs.fstatSync(fd);
    const named = fs.statSync(candidate + fd);
    if (!named.isDirectory() || named.dev !== held.dev || named.ino !== held.ino) return false;
    fdDirectory = candidate;
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * Opens the directory `p` names and holds it: a link at its last component or anything
 * but a directory fails (ELOOP or ENOTDIR), as any other error does, thrown as `fs`
 * throws it; which failure it was, directoryOpenFailure.ts decides. `O_DIRECTORY` refuses
 * a FIFO before it is opened, so nothing blocks. The caller closes the descriptor
 * (`fs.closeSync`) on every path.
 */
export function holdDirectory(p: string | Buffer): number {
  return fs.openSync(p, HOLD_FLAGS);
}

/**
 * The path of the directory `fd` holds, or of its entry `name`: every component up to
 * the descriptor resolved against it, only `name` looked up (so `O_NOFOLLOW` on an open
 * of it guards the one component that is left). A name that is not UTF-8 stays its bytes.
 */
export function heldPath(fd: number, name?: string | Buffer): string | Buffer {
  if (!heldDirectoriesWork() || fdDirectory === undefined)
    throw new Error('a held directory was named where /proc does not name descriptors');
  if (name === undefined) return fdDirectory + fd;
  if (typeof name === 'string') return `${fdDirectory}${fd}/${name}`;
  return Buffer.concat([Buffer.from(`${fdDirectory}${fd}/`), name]);
}
