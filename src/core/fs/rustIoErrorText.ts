import { constants } from 'node:os';
import { errorText, faultOf, type IoFault } from './safeFs';
import { osErrorWords } from './strerror';

/**
 * An io error as Codewhale prints it: Rust's `io::Error` Display of an OS error,
 * `{strerror} (os error {errno})` (codewhale.md §4.6's `{io error}`: `No such file or
 * directory (os error 2)` where Node says `ENOENT: no such file or directory`). The number is
 * this platform's own (libuv reports `-errno` on POSIX); the words are glibc's `strerror`
 * for the errors a path check meets (strerror.ts). Anything else, and Windows, keep Node's words.
 * It lives beside safeFs, not in the Codewhale folder: the content walk (hashing/treeRead.ts)
 * words its failures so too, and no shared layer imports an agent's folder.
 */
export function rustIoErrorText(e: unknown): string {
  return rustFaultText(faultOf(e), errorText(e));
}

/**
 * A failed call kept as data (safeFs `IoFault`) in Rust's words, as `rustIoErrorText`;
 * `nodeWords` (the call's own `errorText`) where Rust's are not known.
 */
export function rustFaultText(fault: IoFault | undefined, nodeWords: string): string {
  const os = osErrorWords(fault);
  return os ? `${os.words} (os error ${os.errno})` : nodeWords;
}

/**
 * A failed read (safeFs `readRegularFile`) in Rust's words: the failed call's io error, or the
 * refusal's own name (`missing`, `not-file`, …) where no call failed.
 */
export function readFailureText(read: {
  readonly reason: string;
  readonly error?: string;
  readonly fault?: IoFault;
}): string {
  return read.error === undefined ? read.reason : rustFaultText(read.fault, read.error);
}

/**
 * The error a call Skillgate did not make would have failed with, in Rust's words: a directory
 * `fs::read_to_string` opens and then cannot read (`Is a directory (os error 21)`), where Skillgate
 * refuses it by its type before any read; a path a `stat` found absent, where `read_dir` would fail
 * on it (`No such file or directory (os error 2)`). `nodeWords` where the platform has no such number.
 */
export function rustErrnoText(code: 'EISDIR' | 'ENOENT', nodeWords: string): string {
  const errno = constants.errno[code];
  return rustFaultText(errno === undefined ? undefined : { code, errno: -errno }, nodeWords);
}
