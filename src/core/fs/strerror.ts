import type { IoFault } from './safeFs';

/**
 * glibc's `strerror` for the errors a path check or a read meets: the words an agent prints
 * for an OS error, where Node says `EACCES: permission denied`. Rust's `io::Error` and
 * Python's `OSError` both print them, each in its own frame (rustIoErrorText.ts; Rivumi's
 * pythonOsError.ts).
 */
const STRERROR: Readonly<Record<string, string>> = {
  EPERM: 'Operation not permitted',
  ENOENT: 'No such file or directory',
  EIO: 'Input/output error',
  // Opening a Unix socket (open(2)): an agent's open fails with it as Skillgate's does.
  ENXIO: 'No such device or address',
  ENOMEM: 'Cannot allocate memory',
  EACCES: 'Permission denied',
  EBUSY: 'Device or resource busy',
  // Creating a directory where a file stands: an agent's installer fails with it.
  EEXIST: 'File exists',
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
 * A failed call's OS error number and words, as the agent's own runtime reports them: the
 * number is this platform's own (libuv reports `-errno` on POSIX). Undefined on Windows
 * (its runtimes report Windows errors, not these), and where the words are not known.
 */
export function osErrorWords(
  fault: IoFault | undefined,
): { readonly errno: number; readonly words: string } | undefined {
  const words = fault?.code ? STRERROR[fault.code] : undefined;
  if (process.platform === 'win32' || words === undefined || fault?.errno === undefined || fault.errno >= 0)
    return undefined;
  return { errno: -fault.errno, words };
}
