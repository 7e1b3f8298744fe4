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
 * (`codewhale_home_override`); else `<user home>/.codewhale`. Null when no home can
 * be resolved: upstream then disables user discovery.
 *
 * Upstream expands a leading `~` (`~`, `~/x`, `~\x`) to the user's home and refuses any
 * value still relative after that (codewhale_paths `validate_absolute_path`), which
 * disables user discovery too: a relative home would resolve against the working
 * directory, the repository, and show its bundles as the user's.
 */
export function codewhaleHomeFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  home: string | undefined,
): string | null {
  const explicit = env.CODEWHALE_HOME?.trim();
  if (explicit) {
    const expanded = expandLeadingTilde(explicit, home);
    return expanded !== undefined && path.isAbsolute(expanded) ? expanded : null;
  }
  return home === undefined ? null : path.join(home, '.codewhale');
}

/** `~`, `~/x` or `~\x` with the home in front, appended as upstream pushes it, not normalized (`~/a/../b` keeps its `..`: `a` may be a link); undefined when there is no home to expand it with. */
function expandLeadingTilde(value: string, home: string | undefined): string | undefined {
  if (value !== '~' && !/^~[/\\]/.test(value)) return value;
  if (home === undefined) return undefined;
  const rest = value.slice(1).replace(/^[/\\]+/, '');
  if (rest === '') return home;
  return home.endsWith(path.sep) ? home + rest : home + path.sep + rest;
}
