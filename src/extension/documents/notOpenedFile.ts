import { promises as fsp } from 'node:fs';
import { displayText } from '../../core/text/displayText';

/**
 * A path Skillgate does not open in the editor: a symbolic link, or no regular file at all.
 * Skillgate never follows a link out of a bundle, and the editor opens a link as the text
 * of its target: a repository's `notes.md -> /etc/hostname`, with a diagnostic on it,
 * showed that file from the review's list, the tree, Open Manifest and the Problems panel
 * as if it were the bundle's. A FIFO would hold the editor until something writes to it.
 * Such a path is shown as a read-only note that says what it is (readonlyDocuments.ts), as
 * a name the editor cannot spell is (unopenableFile.ts). Its query is the path, what it is
 * and a link's target as JSON; the note's path ends with the name and what it is, so its
 * tab reads "notes.md (symbolic link)" and is never taken for the file.
 */
export const NOT_OPENED_PREFIX = '/not-opened/';

export type NotOpenedKind = 'symbolic link' | 'directory' | 'FIFO' | 'socket' | 'device';

interface NotOpened {
  readonly path: string;
  readonly kind: NotOpenedKind;
  /** A link's target as the link spells it (repository text), when it could be read. */
  readonly target?: string;
}

/**
 * The note's path and query for a path that is no regular file, looked at now (never
 * through a link: lstat); undefined for a regular file, and for a path that is gone or
 * cannot be looked at (the editor says so itself, and opens nothing).
 */
export async function notOpenedNote(p: string): Promise<{ readonly path: string; readonly query: string } | undefined> {
  const kind = await notOpenedKind(p);
  if (!kind) return undefined;
  const target = kind === 'symbolic link' ? await fsp.readlink(p).catch(() => undefined) : undefined;
  const what: NotOpened = { path: p, kind, ...(target === undefined ? {} : { target }) };
  return {
    path: `${NOT_OPENED_PREFIX}${displayText(p).replace(/^[/\\]+/, '')} (${kind})`,
    query: JSON.stringify(what),
  };
}

/**
 * What the path is when it is no regular file, looked at now (never through a link: lstat);
 * undefined for a regular file, and for a path that is gone or cannot be looked at.
 */
export async function notOpenedKind(p: string): Promise<NotOpenedKind | undefined> {
  const stats = await fsp.lstat(p).catch(() => undefined);
  if (!stats || stats.isFile()) return undefined;
  return stats.isSymbolicLink()
    ? 'symbolic link'
    : stats.isDirectory()
      ? 'directory'
      : stats.isFIFO()
        ? 'FIFO'
        : stats.isSocket()
          ? 'socket'
          : 'device';
}

const WHY: Record<NotOpenedKind, string> = {
  'symbolic link':
    'it is a symbolic link.\nSkillgate never follows a link out of a bundle: the editor would show its target, which can be any file on this machine.',
  directory: 'it is a directory, not a file.',
  FIFO: 'it is a FIFO (a named pipe).\nThe editor would wait for something to write to it.',
  socket: 'it is a socket, not a file.',
  device: 'it is a device, not a file.',
};

/** The note's text, from its query; every name in it is repository text, escaped. */
export function notOpenedText(query: string): string {
  const what = parsed(query);
  if (!what) return 'Skillgate did not open this path: it is not a regular file.\n';
  return [
    `Skillgate did not open this path: ${WHY[what.kind]}`,
    '',
    `Path: ${displayText(what.path)}`,
    ...(what.target === undefined ? [] : [`Link target: ${displayText(what.target)}`]),
    '',
    'Its diagnostics are in the Problems panel; Explain Decision says what the agent does with it.',
    '',
  ].join('\n');
}

function parsed(query: string): NotOpened | undefined {
  let value: unknown;
  try {
    value = JSON.parse(query);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { path, kind, target } = value as Record<string, unknown>;
  if (typeof path !== 'string' || typeof kind !== 'string' || !Object.hasOwn(WHY, kind)) return undefined;
  return { path, kind: kind as NotOpenedKind, ...(typeof target === 'string' ? { target } : {}) };
}
