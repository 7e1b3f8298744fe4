import { displayText } from '../core/text/displayText';
import { checkWorkspaces, UsageError, type ParsedCommand } from './options';
import { cliCommands } from './commands';
import { invocation, type Io } from './invocation';

/**
 * Everything a command prints passes the display escape as a last line of defence; each
 * field and line is escaped as one line first, so a newline in a name never starts a line.
 */
function escaping(raw: Io): Io {
  return {
    ...raw,
    out: (t) => raw.out(displayText(t, 'multi-line')),
    err: (t) => raw.err(displayText(t, 'multi-line')),
  };
}

/** Runs one parsed command; resolves to its exit code. */
export async function dispatch(cmd: ParsedCommand, raw: Io, version: string): Promise<number> {
  const io = escaping(raw);
  try {
    // One line per run, on standard error (a --json report on standard output is unchanged).
    if (cmd.options.cacheRefusal !== undefined)
      io.err(`skillgate: warning: ${displayText(cmd.options.cacheRefusal)}\n`);
    checkWorkspaces(cmd, io.cwd);
    const commands = cliCommands(version);
    const command = Object.hasOwn(commands, cmd.command ?? '') ? commands[cmd.command ?? ''] : undefined;
    if (!command) throw new UsageError(`unknown command \`${cmd.command}\`; run \`skillgate --help\``);
    return await command(invocation(cmd, io));
  } catch (e) {
    return failure(e, raw, '');
  }
}

/**
 * A usage error (the message, then `usage` when the command line did not parse), exit 2;
 * anything else that still escapes (the index itself contains a fault to its bundle): one
 * sentence, exit 2.
 */
export function failure(e: unknown, raw: Io, usage: string): number {
  const io = escaping(raw);
  if (e instanceof UsageError) {
    io.err(`skillgate: ${displayText(e.message)}\n${usage}`);
    return 2;
  }
  const error = e instanceof Error ? e : new Error(String(e));
  io.err(
    `skillgate: internal error: ${displayText(error.message)}\n${io.env.SKILLGATE_DEBUG === '1' ? `${displayText(error.stack ?? '', 'multi-line')}\n` : ''}`,
  );
  return 2;
}
