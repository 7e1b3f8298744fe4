import * as vscode from 'vscode';
import { COMMANDS, type CommandId } from './commandTable';
import type { LogPort } from '../flows/ports';
import { safeLog } from '../text/logText';

/** A command's handler: its first argument is whatever the caller passed (a tree node, an item id, nothing). */
export type CommandHandler = (arg?: unknown) => unknown;

/** The handlers for some of the commands; together they must cover the table (see `registerCommands`). */
export type CommandHandlers<Id extends CommandId> = Readonly<Record<Id, CommandHandler>>;

/**
 * Registers every row of the command table with its handler: a `Record` over every id,
 * so a row without a handler does not compile. A handler's failure is logged with its
 * stack, then rethrown so VS Code reports it as before.
 */
export function registerCommands(
  context: vscode.ExtensionContext,
  handlers: CommandHandlers<CommandId>,
  channel: LogPort,
): void {
  // An error's message can name a repository's file: escaped, its stack's frames a line each (text/logText.ts).
  const log = safeLog(channel);
  for (const { id } of COMMANDS) {
    const handler = handlers[id];
    const run = async (arg?: unknown): Promise<unknown> => {
      try {
        return await handler(arg);
      } catch (e) {
        log.error(`${id} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        throw e;
      }
    };
    context.subscriptions.push(vscode.commands.registerCommand(id, run));
  }
}
