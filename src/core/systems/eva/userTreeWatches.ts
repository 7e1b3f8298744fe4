import * as path from 'node:path';
import { canonicalPath, isInside, lstatEntry, statEntry } from '../../fs/safeFs';
import { linkWay, wayEntries } from '../../fs/linkWay';
import { isAncestor } from '../../fs/portablePath';
import type { EvaItem } from './item';

/** What is watched for user skill folders that are links leading out of the user trees. */
export interface LinkedFolderWatches {
  /** Their real folders, each watched for its `SKILL.md` alone (evaIndex.ts `watchedTrees`). */
  readonly folders: string[];
  /**
   * The entries their ways hang on outside the user trees (linkWay.ts `wayEntries`): a link on the way
   * (`~/.codex/skills/x -> /data/x`, `/data/x -> /data/y`), a directory a `..` in a link's text leaves,
   * and the first missing entry of a way that leads nowhere yet. Each watched by its name (evaIndex.ts
   * `watchedPaths`): changed, the folder leads elsewhere, while nothing a watcher of the trees or of
   * the folder names changes.
   */
  readonly way: string[];
}

/**
 * The user skills Eva reads (eva.md §1.3, the first 500 skill folders of a root): their folders as
 * spelled under the home. Eva reads a `SKILL.md` through a folder that is a link ("A child directory
 * that is a symlink is followed", files.ts `scanUserSkills`), so one that leads out of the user trees
 * is watched for that file (`linkedFolderWatches`). One past the cap is listed but never opened:
 * files.ts `scanUserSkills` hands it among the folders Eva does not read, for its `SKILL.md` made or
 * removed only.
 */
export function readUserSkillFolders(items: readonly EvaItem[]): string[] {
  return items.filter((i) => i.scope === 'user' && !i.reasons.includes('scan_limit_exceeded')).map((i) => i.path);
}

/**
 * What is watched for each of `folders` (user skill folders as spelled under the home) that leads out of
 * the user trees, one way walked each: its real folder, for its `SKILL.md` alone, when it leads to one,
 * and the entries its way hangs on. `userTrees`: the user skill folders as spelled under the home and
 * their real paths; what lies inside one is seen by their watchers already.
 *
 * Bounded as Eva reads: `readUserSkillFolders` (at most 500 per root) and files.ts `scanUserSkills`'s
 * linked folders Eva does not read (at most 500 per root). Only a `SKILL.md` is read there, so each
 * folder is watched for that one file, not recursively: cheap wherever the link leads, the home, a
 * workspace folder, a folder above one or `/` included, so no guard is needed (`realUserTreesToWatch`'s
 * is for trees watched recursively). A folder with no `SKILL.md` yet is watched too: Eva lists the
 * skill once one is written there (`~/.agents/skills/x -> ~/project`, then `SKILL.md` written there).
 */
export function linkedFolderWatches(folders: readonly string[], userTrees: readonly string[]): LinkedFolderWatches {
  // Up to 1000 folders (two roots): sets, not lists searched for each.
  const real = new Set<string>();
  const way = new Set<string>();
  const outside = (p: string) => !userTrees.some((t) => isInside(t, p));
  for (const dir of folders) {
    const walked = linkWay(path.dirname(dir), path.basename(dir));
    if (walked.resolved !== undefined && outside(walked.resolved)) real.add(walked.resolved);
    for (const entry of wayEntries(walked)) if (outside(entry)) way.add(entry);
  }
  return { folders: [...real], way: [...way] };
}

/**
 * The real trees of the user skill folders (`~/.codex/skills`, `~/.agents/skills`, eva.md §1.3)
 * that get a watcher of their own, `{ base: tree, pattern: '**' }` (evaIndex.ts `watchedTrees`).
 *
 * Why: Eva reads the folders through links (`~/.codex -> /data/codex`, a dotfiles setup; a
 * skill folder in them that is a link is `linkedFolderWatches`'), but the editor's watcher of
 * `{.codex,.agents}/skills/**` under the home follows no link below its base: VS Code watches the
 * base's real path (parcelWatcher.ts `normalizePath`) and inotify reaches nothing through a link
 * inside it. An edit behind the link reached no watcher, and the tree showed the old name and
 * description until a re-check.
 *
 * A pattern holding `**` watches its base recursively (VS Code's extHostFileSystemEventService
 * `ensureWatching`), so a real tree is left out when it is:
 * - a filesystem root (`~/.codex/skills -> /`): the whole disk;
 * - the home or an ancestor of it (`~/.codex/skills -> ~`): the whole
 *   home, which the home's watcher names only `{.codex,.agents}/skills/**` of;
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
  const aroundHomeOrFolder = aroundHomeOrFolderOf(home, workspaces);
  const seenByHomeWatcher =
    realHome === undefined ? [] : ['.codex', '.agents'].map((d) => path.join(realHome, d, 'skills'));
  const out: string[] = [];
  for (const tree of realTrees) {
    if (out.includes(tree) || seenByHomeWatcher.includes(tree)) continue;
    if (aroundHomeOrFolder(tree)) continue;
    out.push(tree);
  }
  return out;
}

/**
 * The entries the ways to the user skill folders themselves (`~/.codex/skills`, `~/.agents/skills`)
 * hang on (linkWay.ts `wayEntries`): the links on them (`~/.codex -> /data/a`, `/data/a -> /data/b`),
 * the directories a `..` in a link's text leaves, and, when one does not resolve, where it would come
 * into being: `~/.codex` a link that leads nowhere yet (`~/.codex -> /data/codex`, no `/data/codex`),
 * or to a folder with no `skills` in it yet. Eva reads them through the links (eva.md §1.3), but
 * `~/.codex` does not change when a link further on is led elsewhere, or its target or `skills` is
 * made, and no watcher sees it: the home's watchers (`{.codex,.agents}/skills/**`, `{.codex,.agents}`)
 * follow no link, and a real tree is watched from where it led when it was read
 * (`realUserTreesToWatch`). An entry those watchers of the home see already (`~/.codex` itself, or its
 * `skills`) is left out.
 */
export function userTreeWays(trees: readonly string[], home: string): string[] {
  const realHome = canonicalPath(home);
  const homes = realHome === undefined || realHome === home ? [home] : [home, realHome];
  const seenByHomeWatchers = (entry: string) =>
    homes.some((h) =>
      ['.codex', '.agents'].some((d) => {
        const dot = path.join(h, d);
        return entry === dot || entry === path.join(dot, 'skills') || isAncestor(path.join(dot, 'skills'), entry);
      }),
    );
  const out = new Set<string>();
  for (const tree of trees)
    for (const entry of wayEntries(linkWay(home, path.relative(home, tree))))
      if (!seenByHomeWatchers(entry)) out.add(entry);
  return [...out];
}

/**
 * Where the links on the way to the user skill folders lead, themselves: `~/.codex -> /data/codex`
 * gives `/data/codex`, `~/.agents/skills -> /data/skills` gives `/data/skills`. Each is watched by its
 * own name in its folder (evaIndex.ts `watchedPaths`): a target that holds no skill folder yet, removed
 * and made again with skills (`rm -rf ~/dotfiles/codex`, a clone again), changes nothing a watcher based
 * in it names (VS Code reports a removed base only as itself, which no pattern matches), and the link
 * does not change. A target that is a filesystem root has no folder to be watched in.
 */
export function userTreeLinkTargets(home: string): string[] {
  const out = new Set<string>();
  for (const dot of ['.codex', '.agents'])
    for (const p of [path.join(home, dot), path.join(home, dot, 'skills')]) {
      if (lstatEntry(p).type !== 'symlink') continue;
      const real = canonicalPath(p);
      if (real !== undefined && path.dirname(real) !== real && statEntry(real).type === 'directory') out.add(real);
    }
  return [...out];
}

/**
 * Whether a folder is a filesystem root, or the home or a workspace folder or a folder above one,
 * each both spellings, as given and real: never watched recursively for what a user tree leads to.
 */
function aroundHomeOrFolderOf(home: string, workspaces: readonly string[]): (dir: string) => boolean {
  const realHome = canonicalPath(home);
  const homes = realHome === undefined ? [home] : [home, realHome];
  const folders = workspaces.flatMap((ws) => {
    const real = canonicalPath(ws);
    return real === undefined || real === ws ? [ws] : [ws, real];
  });
  return (dir) =>
    path.parse(dir).root === dir || homes.some((h) => isInside(dir, h)) || folders.some((ws) => isInside(dir, ws));
}
