import * as fs from 'node:fs';
import { errorText, faultOf, lstatEntry, READ_FLAGS, type IoFault } from '../../fs/safeFs';
import { openBeneath } from '../../fs/openBeneath';
import { deniedByPermissions } from '../../fs/permissionDenied';
import { pythonOsErrorText } from './pythonOsError';
import { MAX_HASHED_BYTES } from '../../hashing/treeRead';
import { pythonRepr } from './pythonText';
import { decodeRawName, encodeOsString } from '../../fs/rawNames';
import type { DiagnosticCode } from '../../diagnostics/diagnosticCodes';

/**
 * Which workspace files a hook's argv names, exactly (trust.md "Hook argv files,
 * exactly"): the file that will execute, or a refusal. Rivumi spawns the argv with no
 * shell, in the workspace folder, after turning each string into bytes with
 * surrogateescape; so does this.
 *
 * What counts as naming a file, deliberately:
 * - every argv element is a candidate, argv[0] included (a PATH with `.` or an empty entry
 *   runs it from the workspace); so is the text after the first `=` of any element
 *   (`--require=./pre.js`, `SCRIPT=x.sh`), and the rest of a short option that carries
 *   its value (`-r./x`: `./x`); an element with whitespace or shell punctuation (an
 *   inline script, `bash -c '. ./x.sh'`) adds each of its words, by the same rules;
 * - a relative candidate is followed from the workspace folder one component at a time,
 *   as the kernel does: reaching a regular file covers it; reaching nothing, or a
 *   directory, names no file (a word like `hi` in `echo hi`; if it appears later, the
 *   hash changes); a symbolic link anywhere on the way, `..` above the workspace folder,
 *   or anything but a regular file or directory cannot be covered; nor can a regular file
 *   past the review limit (MAX_HASHED_BYTES): its bytes cannot be hashed, so a change to
 *   them would leave the content hash, and a receipt made on it, as they were;
 * - an absolute candidate names a host file (`/bin/sh`), not the repository's, unless it
 *   lies inside the workspace folder (then as a relative one), goes through `.`/`..`, or
 *   through `/proc` or `/dev/fd`, whose links lead to the hook's own working directory:
 *   those cannot be covered;
 * - an element Rivumi cannot encode (a lone surrogate outside U+DC80–U+DCFF) cannot be
 *   covered: Rivumi's spawn fails on it and the hook denies;
 * - a covered executable file's `#!` line names candidates too, by the same rules: the
 *   kernel runs its interpreter, a relative one from the hook's working directory
 *   (`#!bin/runner`, `#!/usr/bin/env ./runner`), and that one's own in turn, as deep as the
 *   kernel rewrites (MAX_INTERPRETER_DEPTH); a file named further down cannot be covered.
 * Files a program reads on its own (imports, files an inline script builds names for) are
 * not followed.
 */
export interface ArgvCoverage {
  /** Workspace-relative raw paths of covered regular files. */
  readonly files: Buffer[];
  readonly problems: ArgvProblem[];
  /** Absolute paths inside the workspace whose change can change what is covered. */
  readonly watch: string[];
}

export interface ArgvProblem {
  /** Index of the argv element at fault. */
  readonly argIndex: number;
  readonly code: Extract<DiagnosticCode, 'rivumi.hook.argv-uncovered' | 'rivumi.hook.argv-encoding'>;
  readonly message: string;
  /** The element as raw bytes (or its UTF-16 units when it cannot be encoded), for the content hash. */
  readonly marker: Buffer;
}

const SLASH = 0x2f;
const DASH = 0x2d;
const EQUALS = 0x3d;

export function hookArgvCoverage(workspace: string, argv: readonly string[]): ArgvCoverage {
  const out: ArgvCoverage = { files: [], problems: [], watch: [] };
  const ws = Buffer.from(workspace, 'utf8');
  let canonicalWs: Buffer | undefined;
  // One problem per element, the first name found, with a count of the others (trust.md: "an
  // error diagnostic at that argv element"). One per name quoted the whole element in each
  // message, marker and review row: an inline script of 9,000 names outside the workspace in a
  // 64 KiB hooks.json made gigabytes of them, and the CLI ran out of memory.
  const more = new Map<ArgvProblem, number>();
  const uncovered = (argIndex: number, arg: string, message: string) => {
    const last = out.problems[out.problems.length - 1];
    if (last?.argIndex === argIndex) {
      more.set(last, (more.get(last) ?? 0) + 1);
      return;
    }
    out.problems.push({
      argIndex,
      code: 'rivumi.hook.argv-uncovered',
      message: `${message}: it cannot be covered by trust`,
      marker: encodeOsString(arg) ?? Buffer.from(arg, 'utf16le'),
    });
  };
  argv.forEach((arg, argIndex) => {
    if (arg.includes('\0')) return; // the schema refuses it; Rivumi never spawns it
    const bytes = encodeOsString(arg);
    if (!bytes) {
      out.problems.push({
        argIndex,
        code: 'rivumi.hook.argv-encoding',
        message: `hook argument is not valid Unicode: ${pythonRepr(arg)} holds a lone surrogate that Rivumi cannot turn into bytes (its spawn fails and the hook denies); it cannot be covered by trust`,
        marker: Buffer.concat([Buffer.from('\0utf16le\0'), Buffer.from(arg, 'utf16le')]),
      });
      return;
    }
    const seen = new Set<string>();
    const expanded = new Set<string>();
    // Once per element, not per name in it: an inline script may name thousands.
    let quotedArg: string | undefined;
    const quoted = () => (quotedArg ??= pythonRepr(arg));
    const cover = (candidate: Buffer, depth: number, script?: Buffer): void => {
      const key = candidate.toString('latin1');
      if (candidate.length === 0 || seen.has(key)) return;
      seen.add(key);
      const shown =
        pythonRepr(decodeRawName(candidate)) +
        (script ? ` (on the #! line of ${pythonRepr(decodeRawName(script))})` : '');
      let rel: Buffer = candidate;
      if (candidate[0] === SLASH) {
        const inside = under(candidate, ws) ?? under(candidate, (canonicalWs ??= canonical(ws)));
        if (inside) rel = inside;
        else {
          if (reachesWorkspace(candidate, (canonicalWs ??= canonical(ws))))
            uncovered(
              argIndex,
              arg,
              `hook argument ${quoted()} names ${shown}, an absolute path that can lead into the workspace through a link`,
            );
          return;
        }
      }
      const walk = walkInside(ws, rel);
      if (walk.watch) out.watch.push(decodeRawName(Buffer.concat([ws, Buffer.from('/'), walk.watch])));
      switch (walk.kind) {
        case 'file':
          if (walk.size > MAX_HASHED_BYTES) {
            uncovered(
              argIndex,
              arg,
              `hook script ${pythonRepr(decodeRawName(walk.rel))} is ${walk.size} bytes, past the ${MAX_HASHED_BYTES}-byte review limit, so Skillgate cannot hash what Rivumi runs`,
            );
            break;
          }
          if (expanded.has(walk.rel.toString('latin1'))) break; // covered already, its interpreters followed
          if (depth > MAX_INTERPRETER_DEPTH) {
            // Past the kernel's rewrites a file still runs when the last interpreter runs it afresh
            // (`#!/usr/bin/env ./next` starts the count again) or reads it (`#!/bin/sh ./next`): a chain
            // followed no further, so not covered (a file covered nearer the hook is, above).
            uncovered(
              argIndex,
              arg,
              `hook argument ${quoted()} leads to ${shown} through more than ${MAX_INTERPRETER_DEPTH} interpreter lines, further than Skillgate follows them`,
            );
            break;
          }
          expanded.add(walk.rel.toString('latin1'));
          {
            const abs = Buffer.concat([ws, Buffer.from('/'), walk.rel]);
            argvSeams.walked?.(walk.rel);
            const opened = openScript(ws, walk.rel);
            if (typeof opened !== 'number') {
              // Not covered: hashed as absent, a change to its bytes would leave the content hash and a receipt as they were.
              uncovered(
                argIndex,
                arg,
                unreadableCovered(
                  'hook script',
                  walk.rel,
                  pythonOsErrorText(opened.fault, opened.error, decodeRawName(abs)),
                  opened.fault,
                ),
              );
              break;
            }
            let head: ScriptHead | { fault: IoFault; error: string };
            try {
              head = readHead(opened);
            } finally {
              if (opened >= 0) fs.closeSync(opened);
            }
            if ('fault' in head) {
              // Open, but its bytes do not read (EIO): not hashed as absent either, for the same reason.
              uncovered(
                argIndex,
                arg,
                unreadableCovered('hook script', walk.rel, pythonOsErrorText(head.fault, head.error), head.fault),
              );
              break;
            }
            out.files.push(walk.rel);
            // An executable script's interpreter runs too, a relative one from the hook's working directory.
            for (const c of interpreterCandidates(head)) cover(c, depth + 1, walk.rel);
          }
          break;
        case 'none':
          break;
        case 'outside':
          uncovered(argIndex, arg, `hook argument ${quoted()} names ${shown} outside the workspace`);
          break;
        case 'symlink':
          uncovered(
            argIndex,
            arg,
            walk.at.equals(walk.rel)
              ? `hook script ${pythonRepr(decodeRawName(walk.rel))} is a symbolic link (Rivumi runs whatever it points to, which trust cannot pin)`
              : `hook script ${pythonRepr(decodeRawName(walk.rel))} is reached through the symbolic link ${pythonRepr(decodeRawName(walk.at))} (Rivumi follows it, and trust cannot pin where it points)`,
          );
          break;
        case 'special':
          uncovered(
            argIndex,
            arg,
            walk.fault
              ? `hook argument ${quoted()} names ${pythonRepr(decodeRawName(walk.rel))}, which cannot be inspected (${pythonOsErrorText(walk.fault, walk.error ?? 'lstat error', decodeRawName(Buffer.concat([ws, Buffer.from('/'), walk.rel])))})${unhashable(walk.fault, 'runs')}`
              : `hook argument ${quoted()} names ${pythonRepr(decodeRawName(walk.rel))}, which is neither a regular file nor a directory`,
          );
          break;
      }
    };
    for (const candidate of candidates(bytes)) cover(candidate, 0);
  });
  out.problems.forEach((p, i) => {
    const n = more.get(p);
    if (n)
      out.problems[i] = { ...p, message: `${p.message}, nor can ${n} more name${n === 1 ? '' : 's'} in this argument` };
  });
  return out;
}

/**
 * The element's own candidates, then, when it holds whitespace or shell punctuation (an
 * inline script: `bash -c '. ./x.sh'`), those of each of its words.
 */
function candidates(b: Buffer): Buffer[] {
  const out = optionCandidates(b);
  if (b.some((x) => WORD_BREAK.has(x))) for (const word of words(b)) out.push(...optionCandidates(word));
  return out;
}

/**
 * The `#!` rewrites Linux makes for one exec: its interpreter may be a script in turn, and the file
 * reached after five rewrites still runs if it is a binary (fs/exec.c `exec_binprm`: `if (depth > 5)
 * return -ELOOP`, checked before each rewrite's successor is loaded; with 4, that file went uncovered).
 */
const MAX_INTERPRETER_DEPTH = 5;
/** The bytes of an interpreter line the kernel reads (BINPRM_BUF_SIZE). */
const INTERPRETER_LINE_BYTES = 256;

/**
 * Why a file Skillgate may not read cannot be covered: its bytes cannot be hashed, so what
 * runs (or, for a plugin skill file, loads) is not what a receipt pins. For want of
 * permission, Rivumi run as a user who may read it uses it all the same.
 */
function unhashable(fault: IoFault | undefined, uses: 'runs' | 'loads'): string {
  return deniedByPermissions(fault)
    ? `: a user who may read it ${uses} what it holds, which Skillgate cannot hash`
    : `, so Skillgate cannot hash what Rivumi ${uses}`;
}

/**
 * A covered file Skillgate failed to read, named as Rivumi would name it, with the error in
 * Python's words (`pythonWords`) and why it cannot be hashed: one sentence for a hook script
 * found here, at its argv element, and for any covered file whose read fails when the unit is
 * hashed (hashes.ts `rivumiContentHash`).
 */
export function unreadableCovered(
  what: 'hook script' | 'plugin skill file',
  rel: Buffer,
  pythonWords: string,
  fault: IoFault | undefined,
): string {
  return `${what} ${pythonRepr(decodeRawName(rel))} cannot be read (${pythonWords})${unhashable(fault, what === 'hook script' ? 'runs' : 'loads')}`;
}

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
function openScript(ws: Buffer, rel: Buffer): number | { fault: IoFault; error: string } {
  try {
    return openBeneath(ws, rel, READ_FLAGS);
  } catch (e) {
    const fault = faultOf(e);
    return GONE.has(fault.code ?? '') ? -1 : { fault, error: errorText(e) };
  }
}

/**
 * Where a test may act between two of the argv walk's calls, as another process in the
 * repository could (treeRead.ts `WalkSeams`): a race no unit test can win by timing.
 */
export const argvSeams: {
  /** After `rel` was walked to a regular file, before it is opened to read its `#!` line. */
  walked?: (rel: Buffer) => void;
} = {};

/** The first bytes of a covered script (where a `#!` line is), with whether the kernel would run it as a program. */
interface ScriptHead {
  readonly bytes: Buffer;
  readonly executable: boolean;
}

/**
 * Reads the head of a script open as `fd` (-1: gone since the walk, nothing to read), or
 * the failure of that read: a file that opens but does not read (EIO) cannot be hashed,
 * and is found here, at its argv element, rather than only when the unit is hashed. Read
 * whether or not it is executable: `python3 x.py` runs a script without the bit.
 */
function readHead(fd: number): ScriptHead | { fault: IoFault; error: string } {
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
function interpreterCandidates(script: ScriptHead): Buffer[] {
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

/** The element itself unless it is an option; the text after its first `=`; a short option's attached value. */
function optionCandidates(b: Buffer): Buffer[] {
  const out: Buffer[] = [];
  if (b[0] !== DASH) out.push(b);
  const eq = b.indexOf(EQUALS);
  if (eq >= 0) out.push(b.subarray(eq + 1));
  else if (b[0] === DASH && b.length > 2 && b[1] !== DASH) out.push(b.subarray(2));
  return out;
}

/** Whitespace and the shell's punctuation: where a word of an inline script ends. */
const WORD_BREAK = new Set(Buffer.from(' \t\n\r\v\f;&|()<>`\'"'));

function words(b: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = 0; i <= b.length; i++) {
    if (i === b.length || WORD_BREAK.has(b[i] as number)) {
      if (i > start) out.push(b.subarray(start, i));
      start = i + 1;
    }
  }
  return out;
}

export type Walk =
  | { kind: 'file'; rel: Buffer; size: number; watch: Buffer }
  | { kind: 'none'; watch: Buffer | undefined }
  | { kind: 'outside'; watch: undefined }
  | { kind: 'symlink'; rel: Buffer; at: Buffer; watch: Buffer }
  | { kind: 'special'; rel: Buffer; error: string | undefined; fault?: IoFault; watch: Buffer };

/**
 * Follows `rel` from the folder `ws` one component at a time, never through a link: here
 * from the workspace folder, and for plugin skill files from `.rivumi/plugins` (hashes.ts).
 */
export function walkInside(ws: Buffer, rel: Buffer): Walk {
  const parts = split(rel).filter((p) => p.length > 0 && !(p.length === 1 && p[0] === 0x2e));
  const stack: Buffer[] = [];
  const joined = () => Buffer.concat(stack.flatMap((p, i) => (i ? [Buffer.from('/'), p] : [p])));
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Buffer;
    if (part.length === 2 && part[0] === 0x2e && part[1] === 0x2e) {
      if (stack.length === 0) return { kind: 'outside', watch: undefined };
      stack.pop();
      continue;
    }
    stack.push(part);
    const here = joined();
    const entry = lstatEntry(Buffer.concat([ws, Buffer.from('/'), here]));
    const last = i === parts.length - 1;
    if (entry.type === 'symlink')
      return { kind: 'symlink', rel: fullRel(stack, parts.slice(i + 1)), at: here, watch: here };
    if (entry.type === 'missing') return { kind: 'none', watch: fullRel(stack, parts.slice(i + 1)) };
    if (entry.error !== undefined || entry.type === 'other')
      return {
        kind: 'special',
        rel: here,
        error: entry.error,
        ...(entry.fault ? { fault: entry.fault } : {}),
        watch: here,
      };
    if (entry.type === 'file')
      return last ? { kind: 'file', rel: here, size: entry.size, watch: here } : { kind: 'none', watch: here };
  }
  return { kind: 'none', watch: stack.length ? joined() : undefined };
}

function fullRel(stack: readonly Buffer[], rest: readonly Buffer[]): Buffer {
  const all = [...stack, ...rest];
  return Buffer.concat(all.flatMap((p, i) => (i ? [Buffer.from('/'), p] : [p])));
}

function split(b: Buffer): Buffer[] {
  const out: Buffer[] = [];
  let start = 0;
  for (let i = 0; i <= b.length; i++) {
    if (i === b.length || b[i] === SLASH) {
      out.push(b.subarray(start, i));
      start = i + 1;
    }
  }
  return out;
}

/** `abs` relative to `root` when it lies strictly inside it, lexically. */
function under(abs: Buffer, root: Buffer): Buffer | undefined {
  const prefix = Buffer.concat([root, Buffer.from('/')]);
  return abs.length > prefix.length && abs.subarray(0, prefix.length).equals(prefix)
    ? abs.subarray(prefix.length)
    : undefined;
}

function canonical(ws: Buffer): Buffer {
  try {
    return fs.realpathSync.native(ws, { encoding: 'buffer' });
  } catch {
    return ws;
  }
}

/**
 * An absolute path that `.`/`..`, a per-process link (`/proc/…/cwd`, `/dev/fd/…`: they
 * lead to the hook's own working directory, the workspace) or any other link can carry
 * into the workspace.
 */
function reachesWorkspace(abs: Buffer, canonicalWs: Buffer): boolean {
  const parts = split(abs)
    .filter((p) => p.length > 0)
    .map((p) => p.toString('latin1'));
  if (parts.some((p) => p === '.' || p === '..')) return true;
  if (parts[0] === 'proc' || (parts[0] === 'dev' && (parts[1] === 'fd' || parts[1]?.startsWith('std')))) return true;
  // A path that does not exist yet leads into the workspace when the part of it that exists does:
  // the file it names may appear there later, unwatched and uncovered. That part is the longest
  // of the path and its ancestors that resolves. A path resolves only when its parent does, so
  // those that resolve are the shorter ones and bisection finds it: trying each ancestor from the
  // longest was quadratic in a 64 KiB argument of 30,000 components that do not exist (1 s each).
  const ancestors = ancestorLengths(abs);
  let lo = 0;
  let hi = ancestors.length;
  let real: Buffer | undefined;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const resolved = realpathOf(abs.subarray(0, ancestors[mid] as number));
    if (resolved) {
      real = resolved;
      hi = mid;
    } else lo = mid + 1;
  }
  return real !== undefined && (real.equals(canonicalWs) || under(real, canonicalWs) !== undefined);
}

/** The lengths of the absolute path and of each ancestor (up to `/`), longest first. */
function ancestorLengths(abs: Buffer): number[] {
  const out = [abs.length];
  for (let i = abs.length - 1; i > 0; i--) if (abs[i] === SLASH) out.push(i);
  if (out[out.length - 1] !== 1) out.push(1);
  return out;
}

function realpathOf(abs: Buffer): Buffer | undefined {
  try {
    return fs.realpathSync.native(abs, { encoding: 'buffer' });
  } catch {
    return undefined;
  }
}
