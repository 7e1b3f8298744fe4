import { errorText, faultOf, type IoFault } from './safeFs';

/**
 * An io error as Codewhale prints it: Rust's `io::Error` Display of an OS error,
 * `{strerror} (os error {errno})` (codewhale.md §4.6's `{io error}`: `No such file or
 * directory (os error 2)` where Node says `ENOENT: no such file or directory`). The number is
 * this platform's own (libuv reports `-errno` on POSIX); the words are glibc's `strerror`
 * for the errors a path check meets. Anything else, and Windows, keep Node's words.
 * It lives beside safeFs, not in the Codewhale folder: the content walk (hashing/treeRead.ts)
 * words its failures so too, and no shared layer imports an agent's folder.
 */
export function rustIoErrorText(e: unknown): string {
  return rustFaultText(faultOf(e), errorText(e));
}

const STRERROR: Readonly<Record<string, string>> = {
  EPERM: 'Operation not permitted',
  ENOENT: 'No such file or directory',
  EIO: 'Input/output error',
  ENOMEM: 'Cannot allocate memory',
  EACCES: 'Permission denied',
  EBUSY: 'Device or resource busy',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  EINVAL: 'Invalid argument',
  ENFILE: 'Too many open files in system',
  EMFILE: 'Too many open files',
  ENAMETOOLONG: 'File name too long',
  ELOOP: 'Too many levels of symbolic links',
  EOVERFLOW: 'Value too large for defined data type',
  ESTALE: 'Stale file handle',
};

/**
 * A failed call kept as data (safeFs `IoFault`) in Rust's words, as `rustIoErrorText`;
 * `nodeWords` (the call's own `errorText`) where Rust's are not known.
 */
export function rustFaultText(fault: IoFault | undefined, nodeWords: string): string {
  const words = fault?.code ? STRERROR[fault.code] : undefined;
  if (process.platform === 'win32' || words === undefined || fault?.errno === undefined || fault.errno >= 0)
    return nodeWords;
  return `${words} (os error ${-fault.errno})`;
}
