import * as path from 'node:path';
import { owningWorkspace, scopedPath } from './contract';
import type { Item } from '../model';

/**
 * Where a bundle lives, as the editor names it to a person deciding whether to trust it.
 * In a multi-root workspace (more than one folder) two folders can each hold
 * `.codewhale/plugins/tools`: the relative path alone does not tell which one is being
 * trusted, so it follows its folder's name, as VS Code names a file there
 * (`folder • path`). With one folder, the relative path alone, as before. Names are
 * returned raw: each surface escapes them its own way.
 */

/** VS Code's separator between a workspace folder's name and a path in it (its label service). */
const FOLDER_SEPARATOR = ' • ';

/**
 * A workspace folder's name: its last segment, or its whole path when another of the
 * folders has the same last segment (`/a/app` and `/b/app` would read alike).
 */
export function folderName(workspace: string, workspaces: readonly string[]): string {
  const name = path.basename(workspace) || workspace;
  return workspaces.some((w) => w !== workspace && path.basename(w) === name) ? workspace : name;
}

/** The named folder `file` of `item` is shown relative to, in a multi-root workspace; none otherwise, or for a user bundle. */
export function itemFolderName(
  item: Pick<Item, 'scope'>,
  file: string,
  workspaces: readonly string[],
): string | undefined {
  if (item.scope === 'user' || workspaces.length < 2) return undefined;
  const folder = owningWorkspace(file, workspaces);
  return folder === undefined ? undefined : folderName(folder, workspaces);
}

/** `scopedPath`, after its folder's name in a multi-root workspace (`folder • relative/path`). */
export function placedPath(item: Pick<Item, 'scope'>, file: string, workspaces: readonly string[]): string {
  const shown = scopedPath(item, file, workspaces);
  const folder = itemFolderName(item, file, workspaces);
  return folder === undefined ? shown : `${folder}${FOLDER_SEPARATOR}${shown}`;
}
