import { placedPath } from '../../core/report/folderPlace';

/**
 * A file a quick fix edits, as its refusal names it: as the Problems panel and VS Code name
 * a file in a workspace folder (the path in the folder, after the folder's name when more
 * than one is open: `app • .codewhale/plugins/x/plugin.toml`), else absolute (a user
 * bundle). A notification shows one line of its message: an absolute path in a temporary or
 * home directory filled it before the reason was reached.
 */
export function fixedFileName(file: string, workspaces: readonly string[]): string {
  return placedPath({ scope: 'workspace' }, file, workspaces);
}
