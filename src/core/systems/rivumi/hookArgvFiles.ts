import * as fs from 'node:fs';
import type { IoFault } from '../../fs/safeFs';
import { pythonOsErrorText } from './pythonOsError';
import { MAX_HASHED_BYTES } from '../../hashing/treeRead';
import { pythonRepr } from './pythonText';
import { decodeRawName, encodeOsString } from '../../fs/rawNames';
import type { DiagnosticCode } from '../../diagnostics/diagnosticCodes';
import { candidates } from './argvCandidates';
import { canonical, reachesWorkspace, under } from './absoluteCandidates';
import { interpreterCandidates, MAX_INTERPRETER_DEPTH, openScript, readHead, type ScriptHead } from './interpreterLine';
import { unhashable, unreadableCovered } from './unreadableCovered';
import { walkInside } from './walkInside';
import { SLASH } from './rawPathParts';

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
 * Where a test may act between two of the argv walk's calls, as another process in the
 * repository could (treeRead.ts `WalkSeams`): a race no unit test can win by timing.
 */
export const argvSeams: {
  /** After `rel` was walked to a regular file, before it is opened to read its `#!` line. */
  walked?: (rel: Buffer) => void;
} = {};
