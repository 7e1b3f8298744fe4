import * as fs from 'node:fs';
import { errorText, faultOf, READ_FLAGS, type IoFault } from '../../fs/safeFs';
import { openBeneath } from '../../fs/openBeneath';
import { candidates } from './argvCandidates';

/**
 * The `#!` rewrites Linux makes for one exec: its interpreter may be a script in turn, and the file
 * reached after five rewrites still runs if it is a binary (fs/exec.c `exec_binprm`: `if (depth > 5)
 * return -ELOOP`, checked before each rewrite's successor is loaded; with 4, that file went uncovered).
 */
export const MAX_INTERPRETER_DEPTH = 5;
/** The bytes of an interpreter line the kernel reads (BINPRM_BUF_SIZE). */
const INTERPRETER_LINE_BYTES = 256;

/** Failures that mean the file is gone or was replaced by a link since the walk: hashed as absent, as before. */
const GONE = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EMLINK']);

/**
 * Opens a covered script to read its head (its `#!` line), never through a link: its descriptor,
 * -1 when it has gone since the walk (its absence is hashed; the walk watches it), or the
 * failure that keeps it from being read (a file of another owner at mode 600), which
 * keeps it from being hashed too. It is opened beneath the workspace one component at a time
 * (openBeneath.ts), as the walk checked them: a directory on the way swapped for a link since
 * the walk is gone as a linked script is, so no `#!` line from outside decides what is covered.
 */
export function openScript(ws: Buffer, rel: Buffer): number | { fault: IoFault; error: string } {
  try {
    return openBeneath(ws, rel, READ_FLAGS);
  } catch (e) {
    const fault = faultOf(e);
    return GONE.has(fault.code ?? '') ? -1 : { fault, error: errorText(e) };
  }
}

/** The first bytes of a covered script (where a `#!` line is), with whether the kernel would run it as a program. */
export interface ScriptHead {
  readonly bytes: Buffer;
  readonly executable: boolean;
}

/**
 * Reads the head of a script open as `fd` (-1: gone since the walk, nothing to read), or
 * the failure of that read: a file that opens but does not read (EIO) cannot be hashed,
 * and is found here, at its argv element, rather than only when the unit is hashed. Read
 * whether or not it is executable: `python3 x.py` runs a script without the bit.
 */
export function readHead(fd: number): ScriptHead | { fault: IoFault; error: string } {
  if (fd < 0) return { bytes: Buffer.alloc(0), executable: false };
  try {
    const st = fs.fstatSync(fd);
    // Not a regular file any more (swapped since the walk): the hash says so, and the walk watches it.
    if (!st.isFile()) return { bytes: Buffer.alloc(0), executable: false };
    const head = Buffer.alloc(INTERPRETER_LINE_BYTES);
    const n = fs.readSync(fd, head, 0, head.length, 0);
    return { bytes: head.subarray(0, n), executable: (st.mode & 0o111) !== 0 };
  } catch (e) {
    return { fault: faultOf(e), error: errorText(e) };
  }
}

/**
 * The candidates of an executable file's `#!` line, as the kernel splits it
 * (fs/binfmt_script.c `load_script`): the interpreter, then the rest of the line as one
 * argument (`/usr/bin/env ./runner`). A relative interpreter is resolved from the working
 * directory, the workspace, so it is what runs the hook: changing it must change the hash.
 * Both are C strings there: a NUL ends each, and a NUL right after the interpreter leaves no
 * argument. A line with no newline in the kernel's 256 bytes ends before the last of them,
 * and one whose interpreter does not end within them runs nothing (ENOEXEC).
 */
export function interpreterCandidates(script: ScriptHead): Buffer[] {
  if (!script.executable || script.bytes.length < 2 || script.bytes[0] !== 0x23 || script.bytes[1] !== 0x21) return [];
  // The kernel's buffer: the file's first bytes, zero past its end.
  const buf = Buffer.alloc(INTERPRETER_LINE_BYTES);
  script.bytes.copy(buf);
  const last = buf.length - 1;
  const blank = (at: number) => buf[at] === 0x20 || buf[at] === 0x09;
  const terminator = (at: number) => blank(at) || buf[at] === 0;
  /** The first index in [from, to] that `is`, or -1 (the kernel's `next_non_spacetab`, `next_terminator`). */
  const next = (from: number, to: number, is: (at: number) => boolean) => {
    for (let at = from; at <= to; at++) if (is(at)) return at;
    return -1;
  };
  const nonBlank = (at: number) => !blank(at);
  // strnchr: the newline is looked for up to the first NUL.
  const firstNul = buf.indexOf(0);
  let end = buf.subarray(0, firstNul < 0 ? buf.length : firstNul).indexOf(0x0a);
  if (end < 0) {
    const first = next(2, last, nonBlank);
    if (first < 0 || next(first, last, terminator) < 0) return [];
    end = last;
  }
  while (blank(end - 1)) end--;
  const name = next(2, end, nonBlank);
  if (name < 0 || name === end) return [];
  const sep = next(name, end, terminator);
  const arg = sep >= 0 && buf[sep] !== 0 ? next(sep, end, nonBlank) : -1;
  /** The C string at `from`, ended by a NUL or by `to` (where the kernel writes one). */
  const cString = (from: number, to: number) => {
    const nul = buf.indexOf(0, from);
    return Buffer.from(buf.subarray(from, nul >= 0 && nul < to ? nul : to));
  };
  const interpreter = cString(name, arg >= 0 ? sep : end);
  const argument = arg >= 0 ? cString(arg, end) : Buffer.alloc(0);
  return [...(interpreter.length ? [interpreter] : []), ...(argument.length ? candidates(argument) : [])];
}
