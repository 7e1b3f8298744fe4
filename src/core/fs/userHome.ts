import * as os from 'node:os';
import * as path from 'node:path';

/**
 * The user's home directory, or undefined when none can be resolved. `os.homedir()`
 * returns `$HOME` as it is: an empty `HOME` gives "", and every path under the home
 * (Codewhale's home, Eva's skill folders, the trust store) would then resolve against
 * the working directory, that is, the repository. As upstream Codewhale does
 * (codewhale_paths `user_home`: "Only an absolute candidate is a home"), a `HOME` that
 * is empty or relative is not a home, and the account's home from the passwd database
 * (dirs::home_dir) is used instead.
 */
export function userHome(): string | undefined {
  const home = os.homedir();
  if (path.isAbsolute(home)) return home;
  try {
    const account = os.userInfo().homedir;
    return path.isAbsolute(account) ? account : undefined;
  } catch {
    return undefined; // no passwd entry for this user
  }
}

/**
 * Codewhale's home from the process environment (codewhale.md §2.1): `$CODEWHALE_HOME`
 * trimmed, where an empty or blank value counts as unset, as upstream reads it
 * (`codewhale_home_env_override`); else `<user home>/.codewhale`. Null when no home can
 * be resolved: upstream then disables user discovery.
 */
export function codewhaleHomeFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  home: string | undefined,
): string | null {
  const explicit = env.CODEWHALE_HOME?.trim();
  if (explicit) return explicit;
  return home === undefined ? null : path.join(home, '.codewhale');
}
