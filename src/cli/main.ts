import { parseCommandLine, USAGE, type GlobalOptions, type ParsedCommand } from './options';
import type * as Dispatch from './dispatch';
import type { Io } from './invocation';

declare const SKILLGATE_VERSION: string | undefined;
const VERSION = typeof SKILLGATE_VERSION === 'string' ? SKILLGATE_VERSION : '0.0.0-dev';

/**
 * Runs one CLI invocation; resolves to the exit code (0 ok, 1 errors or refusal, 2 usage
 * or internal). `beforeCore` learns the options before the core is loaded (the binary
 * serves the core from its code cache, src/core/cache/codeCache.ts).
 */
export async function run(
  argv: readonly string[],
  io: Io,
  beforeCore: (options: GlobalOptions) => void = () => undefined,
): Promise<number> {
  let cmd: ParsedCommand;
  try {
    cmd = parseCommandLine(argv, io.env, io.cwd);
  } catch (e) {
    return dispatcher().failure(e, io, USAGE);
  }
  // `--help` and `--version` print this build's own constants: nothing to escape, so they
  // answer before the commands and the core are loaded.
  if (cmd.command === 'help') {
    io.out(USAGE);
    return 0;
  }
  // No command is a usage error like any other: said on standard error, where a script
  // reading standard output (`--json`) takes no text for a report.
  if (cmd.command === undefined) {
    io.err(`skillgate: no command given\n${USAGE}`);
    return 2;
  }
  if (cmd.command === 'version') {
    io.out(`${VERSION}\n`);
    return 0;
  }
  beforeCore(cmd.options);
  return dispatcher().dispatch(cmd, io, VERSION);
}

/**
 * The rest of the CLI, loaded when a command runs. `require`, not `import()`: the bundle
 * evaluates a required module in place, and the tests' CommonJS loader resolves it.
 */
function dispatcher(): typeof Dispatch {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./dispatch') as typeof Dispatch;
}
