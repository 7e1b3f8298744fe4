import * as path from 'node:path';
import { Indexer } from '../core/index/indexer';
import { ParseCache } from '../core/cache/parseCache';
import type { Snapshot } from '../core/index/snapshot';
import { writeJsonText } from '../core/report/jsonText';
import { displayText } from '../core/text/displayText';
import { TrustStore } from '../core/trust/trustStore';
import { defaultStateDirectory } from '../core/trust/stateDirectory';
import type { LifecycleContext } from '../core/trust/lifecycle';
import { UsageError, type GlobalOptions, type ParsedCommand } from './options';
import { selectItem } from './selector';
import type { Item } from '../core/model';
import { startReadAhead } from './readAheadPool';

export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/** One CLI invocation as every command sees it: its arguments, its output, the trust store and the index. */
export interface Invocation {
  readonly cmd: ParsedCommand;
  readonly options: GlobalOptions;
  readonly io: Io;
  readonly store: TrustStore;
  readonly lifecycle: LifecycleContext;
  /** `RIVUMI_ENABLE_PROJECT_HOOKS` is on in this environment. */
  readonly index: () => Snapshot;
  /** The positional argument `i`; a usage error naming `what` when it is missing. */
  readonly arg: (i: number, what: string) => string;
  /** The item the first argument selects (an id or a name). */
  readonly select: (snapshot: Snapshot) => Item;
  readonly json: (value: unknown) => void;
  /** Reports an operation's outcome: one sentence, `--json` as `{ ok, message, ... }`; resolves to the exit code. */
  readonly outcome: (ok: boolean, message: string, facts?: Record<string, unknown>) => number;
}

export function invocation(cmd: ParsedCommand, io: Io): Invocation {
  const options = cmd.options;
  // Written in pieces: a large report never exists as one string (jsonText.ts).
  const json = (value: unknown) => writeJsonText(value, io.out);
  // The store is refused inside a folder this command indexes (trust.md): a relative
  // `SKILLGATE_STATE_DIR=.sg` in a CI job would read receipts the pull request committed.
  const store = new TrustStore(
    options.stateDir ? path.resolve(io.cwd, options.stateDir) : defaultStateDirectory(io.env),
    { workspaces: () => options.workspaces },
  );
  const arg = (i: number, what: string): string => {
    const a = cmd.args[i];
    if (a === undefined) throw new UsageError(`\`${cmd.command}\` needs ${what}`);
    return a;
  };
  return {
    cmd,
    options,
    io,
    store,
    lifecycle: { store },
    index: () => {
      const readAhead = startReadAhead();
      try {
        return new Indexer({
          workspaces: options.workspaces,
          codewhaleHome: options.codewhaleHome,
          evaHome: options.evaHome,
          evaUserSkills: options.evaUserSkills,
          evaRuntime: options.evaRuntime,
          rivumiHooksEnv: io.env.RIVUMI_ENABLE_PROJECT_HOOKS,
          trust: () => store.view(),
          ...(options.cacheDir !== null ? { parseCache: new ParseCache(options.cacheDir) } : {}),
          ...(readAhead ? { readAhead } : {}),
        }).indexAll();
      } finally {
        readAhead?.dispose();
      }
    },
    arg,
    select: (snapshot) => {
      const sel = selectItem(snapshot, arg(0, 'a selector (an item id or a name)'));
      if (!sel.ok) throw new UsageError(sel.message);
      return sel.item;
    },
    json,
    outcome: (ok, message, facts = {}) => {
      if (options.json) json({ ok, message, ...facts });
      else if (ok) io.out(`${displayText(message)}\n`);
      // A refusal is an error (cli.md: one sentence on stderr), with `--json` too: the object is for a
      // script, the sentence for the person reading the log the script's output does not reach.
      if (!ok) io.err(`skillgate: ${displayText(message)}\n`);
      return ok ? 0 : 1;
    },
  };
}
