import * as path from 'node:path';
import { canonicalPath, lstatEntry } from '../../fs/safeFs';
import { isAncestor } from '../../fs/portablePath';
import { linkWay, wayEntries } from '../../fs/linkWay';

/**
 * Where a workspace's `.rivumi` leads when it is a symbolic link, which Rivumi follows
 * (rivumi.md §2 "Links": `.rivumi` itself is not checked; load.ts notes
 * `rivumi.root-symlink`), and which of the directories Rivumi lists there are real ones.
 *
 * The editor's watchers follow no link inside a folder (VS Code since 1.61), so an edit
 * behind the link reaches no `<folder>/.rivumi/**` watcher: what Rivumi reads there is
 * watched from the target itself, narrowly, never the target's whole tree (a repository's
 * link may lead to `/` or the home).
 */
export interface LinkedRivumi {
  /** The link's real target. */
  readonly target: string;
  /** `skills` and `plugins` when each is a real directory there (Rivumi lists no other: rivumi.md §3, §5.4). */
  readonly directories: readonly string[];
}

/** What Rivumi reads at the top of `.rivumi` (rivumi.md §3-§5): one level, nothing else. */
const READ_NAMES = ['skills', 'plugins', 'hooks.json'];

/** The link's target and what is there; undefined when `.rivumi` is no link, or leads to no directory. */
export function linkedRivumi(workspace: string): LinkedRivumi | undefined {
  const link = path.join(workspace, '.rivumi');
  if (lstatEntry(link).type !== 'symlink') return undefined;
  const target = canonicalPath(link);
  if (target === undefined || lstatEntry(target).type !== 'directory') return undefined;
  return {
    target,
    directories: ['skills', 'plugins'].filter((d) => lstatEntry(path.join(target, d)).type === 'directory'),
  };
}

/**
 * The watches that see what Rivumi reads behind the link: the three names at the target
 * (one level, so the watch is not recursive: VS Code watches a pattern recursively only
 * when it holds `/` or `**`, extHostFileSystemEventService `ensureWatching`); the entries
 * of `skills/` (one level: Rivumi globs `*.md`); and the tree of `plugins/`, where a
 * manifest's skill files may lie in subdirectories (rivumi.md §5.3, `sub/x.md`).
 */
export function linkedRivumiWatches(linked: LinkedRivumi): { base: string; pattern: string }[] {
  return [
    { base: linked.target, pattern: `{${READ_NAMES.join(',')}}` },
    ...linked.directories.map((d) => ({ base: path.join(linked.target, d), pattern: d === 'skills' ? '*' : '**' })),
  ];
}

/**
 * Whether a change reported at `p` (spelled under the target, as the watchers above report
 * it) can change what Rivumi loads: the target or a directory above it (removed, renamed),
 * or one of the names Rivumi reads there, or anything below `skills/` or `plugins/`.
 */
export function changesLinkedRivumi(linked: LinkedRivumi, p: string): boolean {
  if (p === linked.target || isAncestor(p, linked.target)) return true;
  return READ_NAMES.some((n) => {
    const read = path.join(linked.target, n);
    return p === read || isAncestor(read, p);
  });
}

/**
 * The entries the way of a workspace's `.rivumi` hangs on when it is a link (linkWay.ts `wayEntries`):
 * the links on it (`.rivumi -> ../links/a`, `links/a -> b`), the directories a `..` in a link's text
 * leaves, and, when it leads nowhere yet (`.rivumi -> ../data/rv`, no `data`), the first missing entry.
 * Rivumi follows the link (rivumi.md §2 "Links"), so a link on the way led elsewhere, or skills made
 * where it led nowhere, load at once; but `.rivumi` itself does not change then, and no watch above
 * (`linkedRivumiWatches`, based where the way led) names those entries. A `.rivumi` that is no link
 * has none: the folder's own watcher (`.rivumi/**`, which matches `.rivumi` itself) reports it made.
 */
export function rivumiWay(workspace: string): string[] {
  const link = path.join(workspace, '.rivumi');
  return lstatEntry(link).type === 'symlink' ? wayEntries(linkWay(workspace, '.rivumi')) : [];
}
