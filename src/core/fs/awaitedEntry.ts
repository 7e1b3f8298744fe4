import * as fs from 'node:fs';
import * as path from 'node:path';
import { canonicalPath, lstatEntry, statEntry } from './safeFs';
import { decodeRawName, osPath } from './rawNames';
import { isAncestor } from './portablePath';

/**
 * How many links on the way are followed: as many as Linux follows in one path (MAXSYMLINKS,
 * path_resolution(7)). A longer chain, or a loop, awaits nothing.
 */
const MAX_LINKS = 40;

/**
 * Where a directory that does not resolve yet would come into being: the first entry on its way
 * that is missing, spelled under the real directory above it, the links on the way followed as
 * the kernel follows them. `ws/.codewhale -> ../data/cw` with no `data` yet awaits `data`, and
 * once `data` is made, `data/cw`. Each agent follows such a link when it reads (Codewhale lists
 * its root through it, discovery.rs `scan_root` lstats only `plugins`; Rivumi reads a linked
 * `.rivumi`, rivumi.md §2; Eva reads `~/.codex/skills` through a linked `~/.codex`, and a user skill
 * folder that is a link, eva.md §1.3), so what is made behind it loads at once; but the link itself
 * does not change when its target is made, and no watcher sees the target: VS Code's watchers
 * follow no link, a link that leads nowhere names no target to watch, and a watcher based at a
 * path that does not resolve starts, at best, once it does (VS Code's baseWatcher.ts
 * `suspendWatchRequest`), after the burst that made it. The entry is watched in its folder by its name
 * alone, not that folder's tree (workspaceWatcher.ts `watch`), so its being made is reported
 * wherever it is: cheap under `/` or the home too.
 *
 * An entry that is there but no directory (a file where the way needs a directory), or one that
 * cannot be searched, is awaited as it is: its replacement is the change. The text of a link is
 * joined onto the real directory that holds the link, so a `..` in it is folded before a link
 * named earlier in the same text is read, which the kernel does not do: such a way may be awaited
 * at the wrong entry, and a bundle made there is then listed at the next re-check, as before.
 * Undefined when `dir` resolves, or when its way loops or holds more links than the kernel follows.
 */
export function awaitedEntry(dir: string): string | undefined {
  let way = dir;
  for (let links = 0; links <= MAX_LINKS; links++) {
    if (directoryAt(way) !== undefined) return undefined;
    // The deepest directory above `way` that resolves, and the entry on the way in it.
    let missing = way;
    let above = directoryAt(path.dirname(missing));
    while (above === undefined) {
      const parent = path.dirname(missing);
      if (parent === missing) return undefined;
      missing = parent;
      above = directoryAt(path.dirname(missing));
    }
    const name = path.basename(missing);
    // A `..` or `.` that does not resolve under a directory that does: a directory this user may not search.
    if (name === '' || name === '.' || name === '..') return undefined;
    const entry = path.join(above, name);
    if (lstatEntry(entry).type !== 'symlink') return entry;
    // A link on the way that leads nowhere yet: the way goes on where it leads, then the rest.
    const text = linkText(entry);
    if (text === undefined) return undefined;
    way = path.resolve(above, text, path.relative(missing, way));
  }
  return undefined;
}

/** The real path of `p` when it resolves to a directory. */
function directoryAt(p: string): string | undefined {
  const real = canonicalPath(p);
  return real !== undefined && statEntry(real).type === 'directory' ? real : undefined;
}

/** A link's text, read as bytes (rawNames.ts). */
function linkText(link: string): string | undefined {
  try {
    return decodeRawName(fs.readlinkSync(osPath(link), { encoding: 'buffer' }));
  } catch {
    return undefined;
  }
}

/**
 * Whether a change reported at `p` makes, removes or changes the entry `awaited` (or one above or
 * below it): the link that awaited it may lead somewhere now. One rule for every index that awaits.
 */
export function reachesAwaited(awaited: string, p: string): boolean {
  return p === awaited || isAncestor(p, awaited) || isAncestor(awaited, p);
}
