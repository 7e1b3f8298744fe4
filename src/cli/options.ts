import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';

/** Options every command takes (spec/cli.md "Invocation"). */
export interface GlobalOptions {
  readonly workspaces: string[];
  readonly stateDir: string | undefined;
  readonly codewhaleHome: string | null;
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
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        workspace: { type: 'string', multiple: true },
        'state-dir': { type: 'string' },
        'codewhale-home': { type: 'string' },
        'no-user': { type: 'boolean' },
        json: { type: 'boolean' },
        format: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
        name: { type: 'string' },
        overwrite: { type: 'boolean' },
        repair: { type: 'boolean' },
        prune: { type: 'boolean' },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/\. To specify a positional.*$/, ''));
  }
  const v = parsed.values;
  const format = v.format ?? (v.json ? 'json' : 'text');
  if (format !== 'text' && format !== 'json' && format !== 'sarif') throw new UsageError(`unknown format "${format}"; use text, json or sarif`);
  const home = v['codewhale-home'] ?? env.CODEWHALE_HOME ?? path.join(os.homedir(), '.codewhale');
  const [command, ...args] = parsed.positionals;
  return {
    command: v.help ? 'help' : v.version ? 'version' : command,
    args,
    flags: v,
    options: {
      workspaces: (v.workspace?.length ? v.workspace : [cwd]).map((w) => path.resolve(cwd, w)),
      stateDir: v['state-dir'] ?? env.SKILLGATE_STATE_DIR,
      codewhaleHome: v['no-user'] ? null : path.resolve(cwd, home),
      json: v.json ?? format === 'json',
      format,
    },
  };
}

export const USAGE = `skillgate <command> [arguments] [options]

Commands:
  list                        every item with its decision and reasons
  validate [--format text|json|sarif]
                              every diagnostic; exit 1 if any has severity error
  show <selector>             one item in full: inventory, files, hashes, decision, diagnostics
  explain <selector>          decision first, then source, schema, gates, capabilities, conflicts, diagnostics
  hash <bundle-dir>           content hash, capability hash and review token of one bundle
  review <selector>           what a reviewer needs, the diff since the last review, and the review token
  trust <selector> <token>    trust exactly what was reviewed (the full review token); leaves it disabled
  enable <selector>           enable a bundle trusted at its current hashes
  disable <selector>          disable; trust is kept
  revoke <selector>           drop the trust receipt; history and the enable bit are kept
  check                       exit 0 only if everything the agents would load is trusted at its current hashes
  doctor [--repair] [--prune] trust store health, stale receipts, unreferenced snapshots
  install <manifest> [--name <n>] [--overwrite]
                              install a Rivumi plugin package into the workspace, atomically

Options (all commands):
  --workspace <dir>           a workspace folder to index; repeatable; default: the current directory
  --state-dir <dir>           the trust store directory (default: $SKILLGATE_STATE_DIR, else the per-user state dir)
  --codewhale-home <dir>      Codewhale's home for user bundles ($CODEWHALE_HOME, default ~/.codewhale)
  --no-user                   do not index user-level bundles
  --json                      machine-readable output on stdout
  -h, --help / --version

A selector is an item id, or a bundle or skill name.
Exit codes: 0 success; 1 validation errors or a refused operation; 2 usage error or internal failure.
`;
