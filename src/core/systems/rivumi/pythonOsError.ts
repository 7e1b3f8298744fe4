import { errorText, faultOf, type IoFault } from '../../fs/safeFs';
import { osErrorWords } from '../../fs/strerror';
import { pythonRepr } from './pythonText';

/**
 * A failed call as Rivumi, written in Python, says it: the `str()` of the OSError it raises
 * (CPython Objects/exceptions.c `OSError_str`): `[Errno 13] Permission denied: '<path>'`,
 * the file name as Python's `repr` of the path the call was given; without it, `[Errno 5]
 * Input/output error`, for a call that had none (a read of a file already open: FileIO's
 * read raises with the number only). `nodeWords` (the call's own `errorText`) stand where
 * Python's are not known (strerror.ts: an error outside its table, or Windows, whose
 * Python reports `[WinError …]` for most calls).
 */
export function pythonOsErrorText(fault: IoFault | undefined, nodeWords: string, filename?: string): string {
  const os = osErrorWords(fault);
  if (!os) return nodeWords;
  return `[Errno ${os.errno}] ${os.words}${filename === undefined ? '' : `: ${pythonRepr(filename)}`}`;
}

/**
 * A thrown error of a call Skillgate made for Rivumi, in Python's words, with the path or
 * paths the call named (`'a' -> 'b'` for a rename, as `OSError_str` prints two file names);
 * an error that is no OS error keeps its own message.
 */
export function pythonErrorText(e: unknown): string {
  const err = e as NodeJS.ErrnoException & { dest?: unknown };
  const text = pythonOsErrorText(faultOf(e), errorText(e), typeof err?.path === 'string' ? err.path : undefined);
  return typeof err?.path === 'string' && typeof err.dest === 'string' && text !== errorText(e)
    ? `${text} -> ${pythonRepr(err.dest)}`
    : text;
}

/**
 * The errors pathlib's `exists()`, `is_symlink()`, `is_file()` and `is_dir()` answer with
 * False; any other (EACCES above all) they raise (CPython 3.11 to 3.13 pathlib
 * `_IGNORED_ERRNOS` and `_ignore_error`). Rivumi asks these before it opens a file, so a
 * path it may not inspect fails its load with that OSError, never as "not a regular file".
 */
const PATHLIB_IGNORED = new Set(['ENOENT', 'ENOTDIR', 'EBADF', 'ELOOP']);

export function pathlibRaises(fault: IoFault | undefined): boolean {
  return fault !== undefined && !PATHLIB_IGNORED.has(fault.code ?? '');
}
