import * as fs from 'node:fs';

/**
 * The first command-line argument whose bytes Node lost, as its index; undefined when none
 * did. Node decodes each argument as UTF-8 with U+FFFD for every byte that is not, so a
 * path such as `plugins/p\xff` reaches the CLI as `plugins/p\ufffd`: it names no file,
 * or, worse, another one a repository put beside it under that very name (`hash` then
 * printed the other bundle's token; `check --workspace` passed over an empty twin of the
 * repository). A selector likewise (`disable` would act on the twin item): an item whose
 * name is not UTF-8 is selected as `skillgate list` prints it (selector.ts). The bytes
 * themselves are in `/proc/self/cmdline` on Linux; where there is none (macOS and Windows
 * name files by Unicode text) the strings are taken as given.
 */
export function lostArgument(
  args: readonly string[],
  cmdline: () => Buffer | undefined = readCmdline,
): number | undefined {
  // Only a string with U+FFFD can have lost bytes; any other is the argument as given.
  const suspect = args.findIndex((a) => a.includes('\ufffd'));
  if (suspect < 0) return undefined;
  const raw = cmdline();
  if (raw === undefined) return undefined;
  // NUL-terminated arguments; the script's own come last, after node's options and the script.
  const parts = splitArguments(raw);
  // Arguments that cannot be matched up with their bytes cannot be shown exact: closed.
  if (parts.length < args.length) return suspect;
  const own = parts.slice(parts.length - args.length);
  const lost = args.findIndex((a, i) => a.includes('\ufffd') && !Buffer.from(a, 'utf8').equals(own[i] as Buffer));
  return lost < 0 ? undefined : lost;
}

function splitArguments(raw: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] !== 0) continue;
    parts.push(raw.subarray(start, i));
    start = i + 1;
  }
  if (start < raw.length) parts.push(raw.subarray(start));
  return parts;
}

function readCmdline(): Buffer | undefined {
  try {
    return fs.readFileSync('/proc/self/cmdline');
  } catch {
    return undefined;
  }
}

/** The one sentence refusing an argument whose bytes Node lost; undefined when none did. */
export function lostArgumentProblem(
  args: readonly string[],
  cmdline: () => Buffer | undefined = readCmdline,
): string | undefined {
  const lost = lostArgument(args, cmdline);
  // Not the argument itself: it is the one thing here that cannot be shown as it is.
  return lost === undefined
    ? undefined
    : `argument ${lost + 1} is not valid UTF-8, and Node reads it with U+FFFD in place of those bytes, so it could name another file or item; give a path that is UTF-8, or an item as \`skillgate list\` prints it, in single quotes (\`'…\\u{dcff}…'\` for the byte 0xFF)`;
}
