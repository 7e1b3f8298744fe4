import * as path from 'node:path';

/**
 * Where the parse cache lives (docs/parse-cache.md): `$SKILLGATE_CACHE_DIR`, else the
 * platform's per-user cache directory. Never the state directory: a read-only command
 * must not create the trust store's directory, and a cache is disposable where trust
 * records are not. Read from the given environment only, so a caller that passes an
 * environment without a home (a test, a sandbox) gets no cache, never the real home's.
 */
export function defaultCacheDirectory(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (env.SKILLGATE_CACHE_DIR) return path.resolve(env.SKILLGATE_CACHE_DIR);
  const isAbsolute = platform === 'win32' ? path.win32.isAbsolute : path.posix.isAbsolute;
  const absolute = (p: string | undefined) => (p && isAbsolute(p) ? p : undefined);
  if (platform === 'win32') {
    // Beside the state directory (%LOCALAPPDATA%\skillgate), never inside it.
    const local = absolute(env.LOCALAPPDATA);
    return local && path.join(local, 'skillgate-cache');
  }
  const home = absolute(env.HOME);
  if (platform === 'darwin') return home && path.join(home, 'Library', 'Caches', 'skillgate');
  const xdg = absolute(env.XDG_CACHE_HOME);
  if (xdg) return path.join(xdg, 'skillgate');
  return home && path.join(home, '.cache', 'skillgate');
}
