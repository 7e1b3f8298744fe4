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
 * The candidates of an executable file's `#!` line, as the kernel splits it: the
 * interpreter, then the rest of the line as one argument (`/usr/bin/env ./runner`).
 * A relative interpreter is resolved from the working directory, the workspace, so it
 * is what runs the hook: changing it must change the hash.
 */
export function interpreterCandidates(script: ScriptHead): Buffer[] {
  const head = script.bytes;
  const n = head.length;
  if (!script.executable || n < 2 || head[0] !== 0x23 || head[1] !== 0x21) return [];
  const nl = head.indexOf(0x0a);
  const line = head.subarray(2, nl < 0 ? n : nl);
  const blank = (b: number) => b === 0x20 || b === 0x09;
  let i = 0;
  while (i < line.length && blank(line[i] as number)) i++;
  let j = i;
  while (j < line.length && !blank(line[j] as number) && line[j] !== 0) j++;
  const interpreter = line.subarray(i, j);
  let k = j;
  while (k < line.length && blank(line[k] as number)) k++;
  let end = line.length;
  while (end > k && blank(line[end - 1] as number)) end--;
  const argument = line.subarray(k, end);
  return [...(interpreter.length ? [interpreter] : []), ...(argument.length ? candidates(argument) : [])];
}
