import * as nodeFs from 'node:fs';
import * as path from 'node:path';
import { currentUid, ownAndPrivate, ownDirectory } from './privateToUser';

/** The file system calls the cache makes, injected so tests can make any of them fail. */
export interface CacheIo {
  /** Reads `file` from its start, handing each piece to `take` (which may keep none of its memory) until it returns false or the file ends. */
  readFile(file: string, take: (piece: Buffer) => boolean): void;
  /**
   * Creates `file` (never over an existing one) and lets `fill` write its bytes, each
   * piece at its position; a piece's memory is reused once `write` returns.
   */
  writeFile(file: string, fill: (write: (data: Uint8Array, position: number) => void) => void): void;
  rename(from: string, to: string): void;
  unlink(file: string): void;
  mkdir(dir: string): void;
  /** Names in a directory with each one's last write time (ms), for evicting the oldest files. */
  list(dir: string): { readonly name: string; readonly mtimeMs: number }[];
}

export const NODE_CACHE_IO: CacheIo = {
  readFile: (file, take) => {
    const uid = mustBePrivate(file);
    // Never through a link, and never waiting on a FIFO's writer: a cache file is a regular file its writer renamed there.
    const fd = nodeFs.openSync(file, READ_FLAGS);
    try {
      const st = nodeFs.fstatSync(fd);
      if (!st.isFile()) throw new Error(`${file} is not a regular file`);
      // A second link could be a name another user keeps for the same bytes.
      if (uid !== undefined && (!ownAndPrivate(st, uid) || st.nlink !== 1))
        throw new Error(`${file} is not the user's own`);
      const buffer = Buffer.allocUnsafe(READ_PIECE_BYTES);
      for (;;) {
        const n = nodeFs.readSync(fd, buffer, 0, buffer.length, null);
        if (n === 0 || !take(buffer.subarray(0, n))) break;
      }
    } finally {
      nodeFs.closeSync(fd);
    }
  },
  writeFile: (file, fill) => {
    // Nothing is read back from a directory others can write (mustBePrivate): writing there would be wasted.
    mustBePrivate(file);
    const fd = nodeFs.openSync(file, 'wx', 0o600);
    try {
      fill((data, position) => {
        for (let done = 0; done < data.length;)
          done += nodeFs.writeSync(fd, data, done, data.length - done, position + done);
      });
    } finally {
      nodeFs.closeSync(fd);
    }
  },
  rename: (from, to) => nodeFs.renameSync(from, to),
  unlink: (file) => nodeFs.unlinkSync(file),
  mkdir: (dir) => void nodeFs.mkdirSync(dir, { recursive: true, mode: 0o700 }),
  list: (dir) =>
    nodeFs.readdirSync(dir).map((name) => ({ name, mtimeMs: nodeFs.statSync(path.join(dir, name)).mtimeMs })),
};

/**
 * The user a cache file must belong to, after checking that its directory is that user's
 * and nobody else can write into it (privateToUser.ts): an entry is replayed as a bundle's
 * items and diagnostics, so one forged by another local user would hide or invent what a
 * bundle does. Undefined where there is no owner to check (Windows).
 */
function mustBePrivate(file: string): number | undefined {
  const uid = currentUid();
  if (uid !== undefined && !ownDirectory(path.dirname(file), uid))
    throw new Error(`${path.dirname(file)} is not a directory only this user can write`);
  return uid;
}

const READ_FLAGS = nodeFs.constants.O_RDONLY | (nodeFs.constants.O_NOFOLLOW ?? 0) | (nodeFs.constants.O_NONBLOCK ?? 0);
/** Bytes of a cache file read at once. */
const READ_PIECE_BYTES = 1 << 20;
