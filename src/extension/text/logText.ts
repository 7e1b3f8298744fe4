import { displayText } from '../../core/text/displayText';
import type { LogPort } from '../flows/ports';

/** How far a message's later lines are indented: an entry of the log starts at the line's start, with its time. */
const CONTINUATION = '    ';
const UNINDENTED_LINE = new RegExp(`\\n(?!${CONTINUATION})`, 'g');

/**
 * A message as the "Skillgate" output channel shows it. The channel prints each entry as
 * `<time> [<level>] <message>`, and an error's message can name a repository's file
 * (`EACCES: permission denied, scandir '<path>'`): a line break in that name started a
 * line that read as an entry of its own (`2026-… [info] trust store: trust … in 3 ms`),
 * and ESC or a bidi override acted instead of being read. So the message is escaped as
 * every other surface escapes repository text (displayText), its line breaks kept, for
 * a stack's frames, and every line after the first indented: none starts where an entry
 * does. Idempotent, as displayText is: a message escaped twice reads the same.
 */
export function logText(message: string): string {
  return displayText(message, 'multi-line').replace(UNINDENTED_LINE, `\n${CONTINUATION}`);
}

/** A log whose every message passes `logText`, whichever path it comes by. */
export function safeLog(log: LogPort): LogPort {
  return {
    debug: (m) => log.debug(logText(m)),
    info: (m) => log.info(logText(m)),
    warn: (m) => log.warn(logText(m)),
    error: (m) => log.error(logText(m)),
  };
}
