import * as fs from 'node:fs';

/**
 * The directory the CLI runs in, as a path string that names it exactly; else the one
 * sentence saying why there is none. It is the default workspace and the base of every
 * relative path given, so a string that names another place (or none) would index an
 * empty folder and let `check` pass over what the agents load:
 * - a directory removed under the shell has no path at all (`process.cwd()` throws);
 * - a path that is not valid UTF-8 reads, as Node decodes it, with U+FFFD in place of
 *   each byte that is not, so the string names a directory that does not exist (or,
 *   worse, another one spelled that way).
 */
export function currentDirectory(
  getcwd: () => string = () => process.cwd(),
  realBytes: () => Buffer = () => fs.realpathSync.native('.', { encoding: 'buffer' }),
): { ok: true; cwd: string } | { ok: false; problem: string } {
  const gone = {
    ok: false as const,
    problem: 'the current directory cannot be read (was it removed?); run skillgate from an existing directory',
  };
  let cwd: string;
  try {
    cwd = getcwd();
  } catch {
    return gone;
  }
  // Only a string with U+FFFD can have lost bytes; any other is the path as the system gave it.
  if (!cwd.includes('\ufffd')) return { ok: true, cwd };
  let bytes: Buffer;
  try {
    bytes = realBytes();
  } catch {
    return gone;
  }
  // getcwd gives the physical path, as realpath does: a difference is bytes the string lost.
  if (!Buffer.from(cwd, 'utf8').equals(bytes))
    return {
      ok: false,
      // Not the path itself: it is the one thing here that cannot be shown as it is.
      problem:
        "the current directory's path is not valid UTF-8, so it cannot be named exactly; run skillgate from a directory whose path is UTF-8",
    };
  return { ok: true, cwd };
}
