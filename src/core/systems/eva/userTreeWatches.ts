import * as path from 'node:path';
import { canonicalPath, isInside } from '../../fs/safeFs';

/**
 * The real trees of the user skill folders (`~/.codex/skills`, `~/.agents/skills`, eva.md §1.3)
 * that get a watcher of their own, `{ base: tree, pattern: '**' }` (evaIndex.ts `watchedTrees`).
 *
 * Why: Eva reads the folders through links (`~/.codex -> /data/codex`, a dotfiles setup), but the
 * editor's watcher of `{.codex,.agents}/skills/**` under the home follows no link below its base:
 * VS Code watches the base's real path (parcelWatcher.ts `normalizePath`) and inotify reaches
 * nothing through a link inside it. An edit behind the link reached no watcher, and the tree
 * showed the old name and description until a re-check.
 *
 * A pattern holding `**` watches its base recursively (VS Code's extHostFileSystemEventService
 * `ensureWatching`), so a real tree is left out when it is:
 * - a filesystem root (`~/.codex/skills -> /`): the whole disk;
 * - the home or an ancestor of it (`~/.codex/skills -> ~`): the whole home, which the home's
 *   watcher names only `{.codex,.agents}/skills/**` of;
 * - a workspace folder or an ancestor of one: the workbench watches the folder already, and a
 *   tree around it holds far more (a checkout's `node_modules`). A tree inside a workspace
 *   folder is kept: it is small, and the workbench serves it from the folder's own watcher;
 * - one the home's watcher sees already: `~/.codex/skills` or `~/.agents/skills` at the home's
 *   real path, when the home is spelled by a link and nothing below it is one (that watcher
 *   watches the home's real path and reports under the home's spelling).
 * Each both spellings, as given and real. A tree left out is still read at every re-check, and
 * a change reported under it still re-reads the user folders (evaIndex.ts `refresh`).
 */
export function realUserTreesToWatch(
  realTrees: readonly string[],
  home: string,
  workspaces: readonly string[],
): string[] {
  const realHome = canonicalPath(home);
  const homes = realHome === undefined ? [home] : [home, realHome];
  const folders = workspaces.flatMap((ws) => {
    const real = canonicalPath(ws);
    return real === undefined || real === ws ? [ws] : [ws, real];
  });
  const seenByHomeWatcher =
    realHome === undefined ? [] : ['.codex', '.agents'].map((d) => path.join(realHome, d, 'skills'));
  const out: string[] = [];
  for (const tree of realTrees) {
    if (out.includes(tree) || seenByHomeWatcher.includes(tree)) continue;
    if (path.parse(tree).root === tree) continue;
    if (homes.some((h) => isInside(tree, h)) || folders.some((ws) => isInside(tree, ws))) continue;
    out.push(tree);
  }
  return out;
}
