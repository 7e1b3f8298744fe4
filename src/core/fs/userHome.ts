import * as os from 'node:os';
import * as path from 'node:path';
import { rustTrim } from '../text/rustText';
import { joinAsSpelled } from './spelledPath';
import { expandLeadingTilde } from './leadingTilde';

type Environment = Readonly<Record<string, string | undefined>>;

/** The account's home from the passwd database (or the profile folder on Windows); undefined when there is none. */
function accountHome(): string | undefined {
  try {
    return os.userInfo().homedir;
  } catch {
    return undefined; // no passwd entry for this user
  }
}

/**
 * The user's home as Skillgate reads it for its own trust store (trust.md), or undefined
 * when none can be resolved. `os.homedir()` returns `$HOME` as it is: an empty `HOME` gives
 * "", and the trust store would then resolve against the working directory, that is, the
 * repository. So an empty or relative `HOME` is not taken, and the account's home from the
 * passwd database is used instead. Kept as it is: moving this home would move the trust store.
 */
export function userHome(): string | undefined {
  const home = os.homedir();
  if (path.isAbsolute(home)) return home;
  const account = accountHome();
  return account !== undefined && path.isAbsolute(account) ? account : undefined;
}

/**
 * The home whose `~/.codex/skills` and `~/.agents/skills` Eva-CLI's design lists and that
 * `~/` in a `skill.path` names (eva.md §1.3: "`~` is `$HOME`, else `%USERPROFILE%`"), in
 * that order on every platform (Node's `os.homedir()` prefers `USERPROFILE` on Windows).
 * An empty or relative value is not a home, since it would resolve against the working
 * directory, the repository, and show its folders as the user's: the next one is used, and
 * last the account's home from the passwd database.
 */
export function evaUserHome(env: Environment, account: () => string | undefined = accountHome): string | undefined {
  for (const value of [env.HOME, env.USERPROFILE]) if (value && path.isAbsolute(value)) return value;
  const home = account();
  return home !== undefined && path.isAbsolute(home) ? home : undefined;
}

/** A path variable as codewhale_paths reads it (`normalize_path_value`): trimmed as Rust trims; empty or blank is unset. */
function codewhalePathVariable(value: string | undefined): string | undefined {
  const trimmed = value === undefined ? '' : rustTrim(value);
  return trimmed === '' ? undefined : trimmed;
}

/**
 * The user's home as Codewhale resolves it (codewhale_paths `user_home`): `HOME`, else
 * `USERPROFILE`, else (Windows) `HOMEDRIVE` + `HOMEPATH`, else the platform's resolver
 * (dirs::home_dir: on Unix a non-empty `$HOME` as it is, else the passwd database); only an
 * absolute candidate is a home. A `HOME` that is set but relative is no home at all, with no
 * fall back to the account's ("an explicit invalid home is an error, not permission to fall
 * back"): Codewhale then disables user discovery, so Skillgate must list no user bundle.
 */
export function codewhaleUserHome(
  env: Environment,
  account: () => string | undefined = accountHome,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const home = codewhalePathVariable(env.HOME);
  if (home !== undefined) return path.isAbsolute(home) ? home : undefined;
  const profile = codewhalePathVariable(env.USERPROFILE);
  if (profile !== undefined && path.isAbsolute(profile)) return profile;
  // The chain's last filter is on whichever candidate came first: a relative HOMEDRIVE/HOMEPATH
  // ends it there, it does not fall through to the platform resolver.
  const candidate =
    windowsHomeFromEnvironment(env, platform) ?? (platform !== 'win32' && env.HOME ? env.HOME : account());
  return candidate !== undefined && path.isAbsolute(candidate) ? candidate : undefined;
}

function windowsHomeFromEnvironment(env: Environment, platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') return undefined;
  const drive = codewhalePathVariable(env.HOMEDRIVE);
  const rest = codewhalePathVariable(env.HOMEPATH);
  return drive === undefined || rest === undefined ? undefined : path.win32.join(drive, rest);
}

/**
 * Codewhale's home from the process environment (codewhale.md §2.1): `$CODEWHALE_HOME`
 * trimmed as Rust trims, where an empty or blank value counts as unset, as upstream reads it
 * (`codewhale_home_override`); else `<user home>/.codewhale`, the user home as Codewhale
 * resolves it (`codewhaleUserHome`). Null when no home can be resolved: upstream then
 * disables user discovery.
 *
 * Upstream expands a leading `~` (`~`, `~/x`, `~\x`) to the user's home and refuses any
 * value still relative after that (codewhale_paths `validate_absolute_path`), which
 * disables user discovery too: a relative home would resolve against the working
 * directory, the repository, and show its bundles as the user's.
 */
export function codewhaleHomeFromEnv(env: Environment, home: string | undefined): string | null {
  const explicit = codewhalePathVariable(env.CODEWHALE_HOME);
  if (explicit !== undefined) {
    const expanded = expandLeadingTilde(explicit, home);
    return expanded !== undefined && path.isAbsolute(expanded) ? expanded : null;
  }
  // `home.join(".codewhale")`, appended: a `..` in HOME is resolved by the OS, after any link before it.
  return home === undefined ? null : joinAsSpelled(home, '.codewhale');
}
