import { promises as fsp } from 'node:fs';
import type { Fix } from '../../core/model';
import { within } from '../../core/fs/folderHolding';
import { owningWorkspace } from '../../core/report/contract';
import { notOpenedKind } from '../documents/notOpenedFile';
import { fixedFileName } from './fixedFileName';

/**
 * Why a quick fix may not edit a file it names, looked at when it is applied: the first
 * file whose edit would be written somewhere else than the file the index read. The editor
 * writes through links, and a fix is applied long after the index looked (quickFixes.ts):
 *
 * - the file itself is now a symbolic link (its target would be edited), a directory, a
 *   FIFO, ...: its last component, never through a link (lstat);
 * - the file lies in a workspace folder, and its real path is outside that folder's real
 *   path: a directory on its way became a link out of the folder (a checkout that swaps
 *   `.codewhale/plugins/x` for `x -> /home/me/dotfiles/x`), or the agent follows one there
 *   (Rivumi follows a linked `.rivumi`, rivumi.md §2). A link that stays inside the folder,
 *   and a folder opened by a path through a link, are fine. A user bundle (in no folder) is
 *   the user's own directory, where links are the user's choice: only its last component.
 *
 * Undefined when every file may be edited, or is gone (a gone file is refused as changed).
 */
export async function notEdited(fix: Fix, workspaces: readonly string[]): Promise<string | undefined> {
  for (const file of new Set(fix.edits.map((e) => e.file))) {
    const shown = fixedFileName(file, workspaces);
    const kind = await notOpenedKind(file);
    if (kind === 'symbolic link')
      return `${shown} is a symbolic link now: Skillgate never edits a file through a link, which would change its target.`;
    if (kind) return `${shown} is a ${kind} now, not a regular file.`;
    const folder = owningWorkspace(file, workspaces);
    if (folder === undefined) continue;
    const real = await fsp.realpath(file).catch(() => undefined);
    if (real === undefined) continue;
    // A folder that cannot be resolved now holds nothing for sure: refused, as outside.
    const realFolder = await fsp.realpath(folder).catch(() => undefined);
    if (realFolder === undefined || !within(real, realFolder))
      return `${shown} is reached through a symbolic link out of its workspace folder (it is ${real}): Skillgate never edits a file outside the folder it was found in.`;
  }
  return undefined;
}
