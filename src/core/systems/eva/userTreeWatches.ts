import * as path from 'node:path';
import { canonicalPath, isInside, lstatEntry, statEntry } from '../../fs/safeFs';
import { awaitedEntry } from '../../fs/awaitedEntry';
import { isAncestor } from '../../fs/portablePath';
import type { EvaItem } from './item';

/**
 * The real folders of the user skills whose own folder is a link leading out of the user trees
 * (`~/.codex/skills/x -> /data/x`): eva.md §1.3 "A child directory that is a symlink is followed",
 * and files.ts `scanUserSkills` reads `SKILL.md` through it. `userTrees`: the user skill folders as
 * spelled under the home and their real paths; a folder inside one is reached through them already.
 *
 * Only the skills Eva reads: one past the 500 per root (`max_files_per_dir`, reason
 * `scan_limit_exceeded`) never has its `SKILL.md` opened, so an edit behind it changes nothing;
 * its `SKILL.md` made or removed does add or drop that listed-but-unloaded item, which waits for
 * the re-check (the safe side: Eva loads none of it). That bounds the folders by the cap: at most 500 per root, 1000 in all. Only their `SKILL.md` is
 * read, so each is watched for that one file (evaIndex.ts `watchedTrees`), not recursively: cheap
 * wherever the link leads, the home, a workspace folder or `/` included, so no guard is needed.
 */
export function linkedUserSkillFolders(items: readonly EvaItem[], userTrees: readonly string[]): string[] {
  const out: string[] = [];
  for (const item of items) {
    if (item.scope !== 'user' || item.reasons.includes('scan_limit_exceeded')) continue;
    // A folder that is no link is its tree's real path joined with its name, so inside a user tree.
    const real = canonicalPath(item.path);
    if (real === undefined || userTrees.some((t) => isInside(t, real)) || out.includes(real)) continue;
    out.push(real);
  }
  return out;
}

/**
 * The real trees of the user skill folders (`~/.codex/skills`, `~/.agents/skills`, eva.md §1.3)
 * that get a watcher of their own, `{ base: tree, pattern: '**' }` (evaIndex.ts `watchedTrees`).
 *
 * Why: Eva reads the folders through links (`~/.codex -> /data/codex`, a dotfiles setup; a
 * skill folder in them that is a link is `linkedUserSkillFolders`'), but the editor's watcher of
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
 * The real folders of the user skill folders that are links and hold no `SKILL.md` yet
 * (`~/.codex/skills/x -> /data/x`, `/data/x` empty): `linked`, as spelled under the home, from
 * files.ts `scanUserSkills`, which keeps only those where Eva would still read a `SKILL.md` (fewer
 * than its 500 skill folders before them in byte order) and no more than 500 per root. No item names
 * them, so `linkedUserSkillFolders` has none of them; a `SKILL.md` written there made the skill appear
 * only at the next re-check, as no watcher of the user trees sees behind the link. Each is watched
 * for that one file, as a linked skill folder is (evaIndex.ts `watchedTrees`), not recursively: so,
 * as `linkedUserSkillFolders`, wherever it leads, a filesystem root, the home, a workspace folder or
 * a folder above one included (`~/.agents/skills/x -> ~/project`, then `SKILL.md` written there: Eva
 * reads it at once). `realUserTreesToWatch`'s guard is for trees watched recursively, not one file.
 *
 * Left out: one reached through the user trees (their watchers see it).
 */
export function linkedFoldersAwaitingSkill(linked: readonly string[], userTrees: readonly string[]): string[] {
  // Up to 1000 folders (two roots): a set, not a list searched for each.
  const out = new Set<string>();
  for (const dir of linked) {
    const real = canonicalPath(dir);
    if (real === undefined || out.has(real) || userTrees.some((t) => isInside(t, real))) continue;
    // A link that leads to no directory yet is `awaitedUserEntries`'.
    if (statEntry(real).type !== 'directory') continue;
    out.add(real);
  }
  return [...out];
}

/**
 * Where each user skill folder that is a link leading to no directory yet would come into being
 * (`~/.codex/skills/x -> /data/x`, no `/data/x`): the first missing entry on its way (awaitedEntry.ts).
 * `linked`: as `linkedFoldersAwaitingSkill`'s, from files.ts `scanUserSkills`, bounded as Eva reads
 * (fewer than 500 skill folders before it, at most 500 per root). Eva reads the folder once its target
 * is made (eva.md §1.3: a child directory that is a symlink is followed), but the link does not change
 * then, and no watcher of the user trees sees the target made. Each entry is watched by its own name in
 * its folder (evaIndex.ts `watchedPaths`), cheap wherever it is. One inside the user trees is left
 * out: their watchers see it.
 */
export function awaitedUserEntries(linked: readonly string[], userTrees: readonly string[]): string[] {
  const out = new Set<string>();
  for (const dir of linked) {
    if (statEntry(dir).type === 'directory') continue;
    const entry = awaitedEntry(dir);
    if (entry === undefined || userTrees.some((t) => isInside(t, entry))) continue;
    out.add(entry);
  }
  return [...out];
}

/**
 * Where the user skill folders themselves (`~/.codex/skills`, `~/.agents/skills`) would come into
 * being when they do not resolve: `~/.codex` a link that leads nowhere yet (`~/.codex -> /data/codex`,
 * no `/data/codex`), or to a folder with no `skills` in it yet. Eva reads them through the link
 * (eva.md §1.3), but the link does not change when its target or `skills` is made there, and no
 * watcher sees it: the home's watchers (`{.codex,.agents}/skills/**`, `{.codex,.agents}`) follow no
 * link, and a real tree is watched only once it resolves (`realUserTreesToWatch`). An entry those
 * watchers of the home see already (`~/.codex` itself missing, or its `skills`) is left out.
 */
export function awaitedUserTrees(trees: readonly string[], home: string): string[] {
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
  for (const tree of trees) {
    const entry = awaitedEntry(tree);
    if (entry !== undefined && !seenByHomeWatchers(entry)) out.add(entry);
  }
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
