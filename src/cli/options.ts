import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { IndexOptions } from '../core/systems/registry';
import { defaultCacheDirectory } from '../core/cache/cacheDirectory';
import { cacheRefusal } from '../core/cache/cacheInWorkspace';
import { codewhaleHomeFromEnv, codewhaleUserHome, evaUserHome } from '../core/fs/userHome';
import { typedDirectory } from '../core/fs/spelledPath';

/** Options every command takes (spec/cli.md "Invocation"). */
export interface GlobalOptions {
  readonly workspaces: string[];
  readonly stateDir: string | undefined;
  /** The parse cache directory; null: no cache (`--no-cache`, no per-user cache directory known, or `cacheRefusal`). */
  readonly cacheDir: string | null;
  /** Why the cache directory asked for is not used (it lies in a workspace folder): a warning for standard error. */
  readonly cacheRefusal?: string;
  readonly codewhaleHome: string | null;
  /** Eva-CLI's `$HOME`, for its user skill folders and `~/` paths (null only when none can be resolved). */
  readonly evaHome: string | null;
  /** Whether Eva's user skill folders are listed (not with --no-user); the assumed Eva runtime (eva.md §3.4). */
  readonly evaUserSkills: boolean;
  readonly evaRuntime: NonNullable<IndexOptions['evaRuntime']>;
  readonly json: boolean;
  readonly format: 'text' | 'json' | 'sarif';
}

export class UsageError extends Error {}

export interface ParsedCommand {
  readonly command: string | undefined;
  readonly args: string[];
  readonly options: GlobalOptions;
  readonly flags: Record<string, string | boolean | string[] | undefined>;
}

export function parseCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: bareLockOption(argv),
      allowPositionals: true,
      strict: true,
      tokens: true,
      options: {
        workspace: { type: 'string', multiple: true },
        'state-dir': { type: 'string' },
        'cache-dir': { type: 'string' },
        'no-cache': { type: 'boolean' },
        'codewhale-home': { type: 'string' },
        'no-user': { type: 'boolean' },
        'eva-home': { type: 'string' },
        'eva-runtime': { type: 'string' },
        'eva-team-worker': { type: 'boolean' },
        'eva-interactive': { type: 'boolean' },
        json: { type: 'boolean' },
        format: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
        name: { type: 'string' },
        overwrite: { type: 'boolean' },
        repair: { type: 'boolean' },
        prune: { type: 'boolean' },
        lock: { type: 'string' },
      },
    });
  } catch (e) {
    // Node's message can span lines ("argument is ambiguous.\nDid you forget…"): one sentence on one line.
    throw new UsageError((e as Error).message.replace(/\. To specify a positional.*$/, '').replace(/\s*\n\s*/g, ' '));
  }
  const v = parsed.values;
  // Options are refused, never ignored: parseArgs keeps the last of a repeated option with a
  // value (`--state-dir a --state-dir b` would quietly drop `a`), so such a repeat is a usage error.
  const seen = new Set<string>();
  for (const t of parsed.tokens ?? []) {
    if (t.kind !== 'option' || t.value === undefined || t.name === 'workspace') continue;
    if (seen.has(t.name)) throw new UsageError(`--${t.name} is given more than once`);
    seen.add(t.name);
  }
  if (v.json && v.format !== undefined && v.format !== 'json')
    throw new UsageError(`--json asks for JSON, but --format asks for ${v.format}: give one of them`);
  // A switch that turns off what an option places: the option would be dropped without a word.
  // The Codewhale home names only where user bundles live (codewhaleIndex.ts reads <home>/plugins
  // and nothing else); the cache directory holds the parse and the code caches, both off with
  // --no-cache. $CODEWHALE_HOME and $SKILLGATE_CACHE_DIR are ambient and stay ignored. Not
  // --eva-home: `~/` in a project's skill.path names it under --no-user too (eva.md §3.5).
  if (v['no-user'] && v['codewhale-home'] !== undefined)
    throw new UsageError('--no-user indexes no user bundles, but --codewhale-home names their home: give one of them');
  if (v['no-cache'] && v['cache-dir'] !== undefined)
    throw new UsageError('--no-cache reads and writes no cache, but --cache-dir names one: give one of them');
  // Refused before anything runs: an empty value (`--cache-dir "$UNSET"`) would put the parse
  // and code caches in the current directory, i.e. the repository, and an empty --state-dir
  // would quietly mean the per-user trust store.
  for (const option of ['state-dir', 'cache-dir'] as const)
    if (v[option]?.trim() === '') throw new UsageError(`--${option} needs a directory, but got an empty value`);
  const format = v.format ?? (v.json ? 'json' : 'text');
  if (format !== 'text' && format !== 'json' && format !== 'sarif')
    throw new UsageError(`unknown format "${format}"; use text, json or sarif`);
  const home = v['codewhale-home'] ?? codewhaleHomeFromEnv(env, codewhaleUserHome(env));
  const evaHome = v['eva-home'] ?? evaUserHome(env);
  const evaMode = v['eva-runtime'] ?? 'normal';
  if (!EVA_MODES.includes(evaMode))
    throw new UsageError(`unknown Eva runtime "${evaMode}"; use ${EVA_MODES.join(', ')}`);
  const [command, ...args] = parsed.positionals;
  if (!v.help && !v.version && command !== undefined) checkArguments(command, args, v);
  const workspaces = (v.workspace?.length ? v.workspace : [cwd]).map((w) => path.resolve(cwd, w));
  const cacheDir = v['no-cache']
    ? null
    : v['cache-dir'] !== undefined
      ? path.resolve(cwd, v['cache-dir'])
      : (defaultCacheDirectory(env) ?? null);
  const cacheRefusal = cacheDir === null ? undefined : cacheInWorkspace(cacheDir, workspaces);
  return {
    command: v.help ? 'help' : v.version ? 'version' : command,
    args,
    flags: v,
    options: {
      workspaces,
      stateDir: v['state-dir'] ?? env.SKILLGATE_STATE_DIR,
      cacheDir: cacheRefusal === undefined ? cacheDir : null,
      ...(cacheRefusal === undefined ? {} : { cacheRefusal }),
      // No home that can be resolved: no user content, as upstream disables user discovery (codewhale.md §2.1).
      // The home reaches the file system as spelled: its `..` resolved as the OS resolves them (after a
      // link, the target's parent), never folded; a relative flag value is taken from the working directory.
      codewhaleHome: v['no-user'] || home === null ? null : typedDirectory(home, cwd),
      // --no-user lists no user skill, but `~/` in a project's `skill.path` still names this home (eva.md §3.5).
      evaHome: evaHome === undefined ? null : typedDirectory(evaHome, cwd),
      evaUserSkills: !v['no-user'],
      evaRuntime: {
        mode: evaMode,
        teamWorker: v['eva-team-worker'] ?? false,
        interactiveUser: v['eva-interactive'] ?? false,
      },
      json: v.json ?? format === 'json',
      format,
    },
  };
}

/**
 * Why a cache directory inside a workspace folder is not used (cacheInWorkspace.ts). Decided
 * while the options are parsed, before the code cache is installed, so no cached bytecode is
 * read first; the run goes on without a cache, with the same results.
 */
function cacheInWorkspace(cacheDir: string, workspaces: readonly string[]): string | undefined {
  const refusal = cacheRefusal(cacheDir, workspaces);
  return (
    refusal &&
    `${refusal}; this run reads and writes no cache (choose a --cache-dir or SKILLGATE_CACHE_DIR outside every workspace folder)`
  );
}

const SELECTOR = 'a selector (an item id or a name)';

/** Eva's runtime modes (eva.md §3.4). */
const EVA_MODES: readonly string[] = ['normal', 'team', 'swarm', 'ralph'];

/**
 * `--lock` takes an optional file (`check --lock [<file>]`): a bare `--lock` (last, or
 * followed by another option) becomes `--lock=`, which means each workspace's own
 * skillgate.lock. parseArgs alone would take the next option as the file name.
 */
function bareLockOption(argv: readonly string[]): string[] {
  return argv.map((a, i) =>
    a === '--lock' && (i === argv.length - 1 || (argv[i + 1] ?? '').startsWith('-')) ? '--lock=' : a,
  );
}

/** What each command takes, in order (spec/cli.md); every other positional is a usage error. */
const ARGUMENTS: Readonly<Record<string, readonly string[]>> = {
  help: [],
  version: [],
  list: [],
  validate: [],
  check: [],
  lock: [],
  doctor: [],
  show: [SELECTOR],
  explain: [SELECTOR],
  review: [SELECTOR],
  enable: [SELECTOR],
  disable: [SELECTOR],
  revoke: [SELECTOR],
  trust: [SELECTOR, 'the review token shown by `skillgate review`'],
  hash: ['a bundle directory or manifest file'],
  install: ['a plugin manifest'],
};

/** Options only some commands read: given to another command they would be ignored, so they are refused. */
const OWN_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  name: ['install'],
  overwrite: ['install'],
  repair: ['doctor'],
  prune: ['doctor'],
  lock: ['lock', 'check'],
};

/**
 * A CI gate must check what it was asked to check: `skillgate check path/to/repo` would
 * otherwise check the current directory and pass. Too few or too many positionals, and
 * an option the command does not read, are usage errors (exit 2).
 */
function checkArguments(command: string, args: readonly string[], values: Record<string, unknown>): void {
  const wanted = ARGUMENTS[command];
  if (!wanted) return; // an unknown command is reported by name when dispatched
  const missing = wanted[args.length];
  if (missing !== undefined) throw new UsageError(`\`${command}\` needs ${missing}`);
  if (args.length > wanted.length) {
    const extra = args.slice(wanted.length);
    const takes = wanted.length === 0 ? 'takes no arguments' : `takes ${wanted.join(' and ')}`;
    const hint =
      wanted.length === 0 && command !== 'help' && command !== 'version' && command !== 'doctor'
        ? `; to use another workspace folder, pass --workspace ${extra[0]}`
        : '';
    throw new UsageError(
      `\`${command}\` ${takes}, but got ${extra.length === 1 ? 'an extra argument' : 'extra arguments'}: ${extra.map((a) => JSON.stringify(a)).join(' ')}${hint}`,
    );
  }
  for (const [option, commands] of Object.entries(OWN_OPTIONS)) {
    if (values[option] !== undefined && !commands.includes(command))
      throw new UsageError(`--${option} applies only to \`${commands.join('`, `')}\`, not to \`${command}\``);
  }
  if (values.format === 'sarif' && command !== 'validate' && !(command === 'check' && values.lock !== undefined))
    throw new UsageError(
      `--format sarif applies only to \`validate\` and \`check --lock\`, not to \`${command}${command === 'check' ? '` without --lock' : '`'}`,
    );
}

/**
 * Every `--workspace` must name an existing directory: a typo must not index an empty
 * folder and report "ok". `install` writes into exactly one workspace.
 */
export function checkWorkspaces(cmd: ParsedCommand, cwd: string, searchable: Searchable = mayTraverse): void {
  const given = Array.isArray(cmd.flags.workspace) ? cmd.flags.workspace : [];
  for (const w of given) mustBeDirectory('--workspace', w, path.resolve(cwd, w), searchable);
  // The current directory as the default workspace, for the commands that index one.
  if (given.length === 0 && cmd.command !== 'hash' && cmd.command !== 'doctor')
    mustBeSearchable('the current directory', cwd, searchable, '; pass --workspace <dir>');
  // Likewise an explicit Codewhale home: a typo would silently leave every user bundle unchecked.
  const home = cmd.flags['codewhale-home'];
  if (typeof home === 'string' && cmd.options.codewhaleHome !== null)
    mustBeDirectory('--codewhale-home', home, cmd.options.codewhaleHome, searchable);
  const evaHome = cmd.flags['eva-home'];
  if (typeof evaHome === 'string' && cmd.options.evaHome !== null)
    mustBeDirectory('--eva-home', evaHome, cmd.options.evaHome, searchable);
  if (
    (cmd.command === 'lock' || cmd.command === 'check') &&
    typeof cmd.flags.lock === 'string' &&
    cmd.flags.lock !== '' &&
    cmd.options.workspaces.length > 1
  ) {
    throw new UsageError(
      `--lock ${cmd.flags.lock} names one lock file, but ${cmd.options.workspaces.length} workspace folders were given; without a file name each folder uses its own skillgate.lock`,
    );
  }
  if (cmd.command === 'install' && given.length > 1)
    throw new UsageError(`\`install\` installs into one workspace folder; got ${given.length} --workspace options`);
}

/** Throws when this process may not look up names in the directory (`access(2)` with X_OK). */
export type Searchable = (dir: string) => void;

const mayTraverse: Searchable = (dir) => fs.accessSync(dir, fs.constants.X_OK);

/**
 * Every path the index reads in a folder is a name looked up in it: where that is denied
 * (mode 000, another user's checkout), each lookup fails as "absent", so `check` found
 * nothing the agents load and passed. Refused instead, as a missing folder is.
 */
function mustBeSearchable(shown: string, dir: string, searchable: Searchable, hint = ''): void {
  try {
    searchable(dir);
  } catch (e) {
    throw new UsageError(`${shown} cannot be searched (${systemError(e)}), so nothing in it can be seen${hint}`);
  }
}

/**
 * `EACCES: permission denied`: Node's message without the call and path it repeats. Not
 * safeFs's errorText: what option parsing imports is loaded before the core's code cache
 * (scripts/sharedCore.mjs), and safeFs would load the core uncached.
 */
function systemError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return err.code
    ? `${err.code}: ${err.message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/s, '')}`
    : String(err.message);
}

/** `given` as typed, for the message; `indexed`, the path the index will read. */
function mustBeDirectory(option: string, given: string, indexed: string, searchable: Searchable): void {
  // An empty value (`--codewhale-home "$UNSET"`) would name the current directory, i.e. the repository.
  if (given.trim() === '') throw new UsageError(`${option} needs a directory, but got an empty value`);
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(indexed, { throwIfNoEntry: false });
  } catch (e) {
    throw new UsageError(`${option} ${given} cannot be read: ${(e as Error).message}`);
  }
  if (!st) throw new UsageError(`${option} ${given} does not exist`);
  if (!st.isDirectory()) throw new UsageError(`${option} ${given} is not a directory`);
  mustBeSearchable(`${option} ${given}`, indexed, searchable);
}

export const USAGE = `skillgate <command> [arguments] [options]

Commands:
  list                        every item with its decision and reasons
  validate [--format text|json|sarif]
                              every diagnostic; exit 1 if any has severity error
  show <selector>             one item in full: inventory, files, hashes, trust, decision, diagnostics
  explain <selector>          decision first, then source, schema, gates, capabilities, conflicts, diagnostics
  hash <bundle-dir>           content hash, capability hash and review token of one bundle directory or manifest file
  review <selector>           what a reviewer needs, the diff since the last review, and the review token
  trust <selector> <token>    trust exactly what was reviewed (the full review token); leaves it disabled
  enable <selector>           enable a bundle trusted at its current hashes
  disable <selector>          disable; trust is kept
  revoke <selector>           drop the trust receipt; history and the enable bit are kept
  check                       exit 0 only if everything the agents would load is trusted at its current hashes
  check --lock [<file>] [--format text|json|sarif]
                              the CI gate: exit 0 only if every bundle in the repository is pinned in the lock
                              (default skillgate.lock at the workspace root) at exactly its current review token
  lock [--lock <file>]        write the lock: every bundle's workspace-relative path, system, name and review token;
                              it records a team's review for CI and grants no trust
  doctor [--repair] [--prune] trust store health, stale receipts, unreferenced snapshots
  install <manifest> [--name <n>] [--overwrite]
                              install a Rivumi plugin package into the workspace, atomically

Options (all commands):
  --workspace <dir>           a workspace folder to index (an existing directory); repeatable; default: the current directory
  --state-dir <dir>           the trust store directory (default: $SKILLGATE_STATE_DIR, else the per-user state dir)
  --cache-dir <dir>           where the parse cache and the CLI's code cache live (default: $SKILLGATE_CACHE_DIR, else the per-user cache dir)
  --no-cache                  derive every bundle and compile the core afresh: no parse cache and no code cache
  --codewhale-home <dir>      Codewhale's home for user bundles, an existing directory ($CODEWHALE_HOME, default ~/.codewhale)
  --eva-home <dir>            the home whose ~/.codex/skills and ~/.agents/skills Eva-CLI lists, an existing directory (default ~)
  --eva-runtime <mode>        the Eva runtime Skillgate assumes: normal (default), team, swarm or ralph
  --eva-team-worker           assume Eva runs as a team worker
  --eva-interactive           assume an interactive user (default: non-interactive, as \`skill run\`)
  --no-user                   do not index user-level bundles or skills
  --json                      machine-readable output on stdout
  -h, --help / --version

A selector is an item id, or a bundle or skill name. A command takes exactly the arguments shown:
anything else is refused, never ignored (\`skillgate check path/to/repo\` is an error; use --workspace).
--format sarif is for validate and check --lock; --name and --overwrite for install; --repair and --prune for doctor.
--no-user refuses --codewhale-home, and --no-cache refuses --cache-dir: each turns off what the other places.
Exit codes: 0 success; 1 validation errors, a refused operation, or a failed check (something not trusted
or not pinned); 2 usage error (a malformed lock, or a missing lock named with --lock <file>; a missing default
skillgate.lock is an empty lock) or internal failure.
`;
