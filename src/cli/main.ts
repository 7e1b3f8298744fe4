import { displayText } from '../core/text/displayText';
import { checkWorkspaces, parseCommandLine, UsageError, USAGE, type ParsedCommand } from './options';
import { cliCommands } from './commands';
import { invocation, type Io } from './invocation';

declare const SKILLGATE_VERSION: string | undefined;
const VERSION = typeof SKILLGATE_VERSION === 'string' ? SKILLGATE_VERSION : '0.0.0-dev';

/** Runs one CLI invocation; resolves to the exit code (0 ok, 1 errors or refusal, 2 usage or internal). */
export async function run(argv: readonly string[], raw: Io): Promise<number> {
  // Everything printed passes the display escape as a last line of defence; each field
  // and line below is escaped as one line first, so a newline in a name never starts a line.
  const io: Io = {
    ...raw,
    out: (t) => raw.out(displayText(t, 'multi-line')),
    err: (t) => raw.err(displayText(t, 'multi-line')),
  };
  let cmd: ParsedCommand;
  try {
    cmd = parseCommandLine(argv, io.env, io.cwd);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`skillgate: ${displayText(e.message)}\n${USAGE}`);
      return 2;
    }
    return internalError(e, io);
  }
  try {
    return await dispatch(cmd, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`skillgate: ${displayText(e.message)}\n`);
      return 2;
    }
    return internalError(e, io);
  }
}

/** Anything that still escapes (the index itself contains a fault to its bundle): one sentence, exit 2. */
function internalError(e: unknown, io: Io): number {
  const error = e instanceof Error ? e : new Error(String(e));
  io.err(
    `skillgate: internal error: ${displayText(error.message)}\n${io.env.SKILLGATE_DEBUG === '1' ? `${displayText(error.stack ?? '', 'multi-line')}\n` : ''}`,
  );
  return 2;
}

async function dispatch(cmd: ParsedCommand, io: Io): Promise<number> {
  if (cmd.command === undefined || cmd.command === 'help') {
    io.out(USAGE);
    return cmd.command === undefined ? 2 : 0;
  }
  if (cmd.command === 'version') {
    io.out(`${VERSION}\n`);
    return 0;
  }
  checkWorkspaces(cmd, io.cwd);
  const commands = cliCommands(VERSION);
  const command = Object.hasOwn(commands, cmd.command) ? commands[cmd.command] : undefined;
  if (!command) throw new UsageError(`unknown command \`${cmd.command}\`; run \`skillgate --help\``);
  return command(invocation(cmd, io));
}
