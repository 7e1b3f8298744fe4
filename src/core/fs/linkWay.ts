import * as fs from 'node:fs';
import * as path from 'node:path';
import { canonicalPath, lstatEntry, statEntry } from './safeFs';
import { decodeRawName, osPath } from './rawNames';
import { isAncestor } from './portablePath';

/**
 * How many links on the way are followed: as many as Linux follows in one path (MAXSYMLINKS,
 * path_resolution(7)). A longer chain, or a loop, leads nowhere.
 */
const MAX_LINKS = 40;

/** The way to a directory, walked as the kernel walks it (`linkWay`). */
export interface LinkWay {
  /** The real directory it leads to; undefined when it leads to none. */
  readonly resolved: string | undefined;
  /**
   * The first entry on it that is missing, no directory, or cannot be looked up, spelled under the
   * real directory that holds it; undefined when it resolves, loops, or holds more links than the
   * kernel follows.
   */
  readonly awaited: string | undefined;
  /**
   * The entries it turns at, spelled under the real directory that holds each: every link it follows,
   * and every directory it steps back out of by `..`. Another link there, or that directory gone,
   * sends the way elsewhere, while nothing at its end changes.
   */
  readonly turns: readonly string[];
}

/**
 * The way `rest` (a relative path: `.codewhale`, `.codex/skills`) from `folder` as the kernel walks it
 * (path_resolution(7)): from `folder`'s real path (the links above it are the folder's, as opened), or
 * from the deepest folder above it that resolves, one component at a time, each link's text followed
 * where the link is met and a `..` taken in the directory reached. `realpath` gives the same
 * end but not the entries on the way; joining a link's text onto its folder (`path.resolve`) folds a
 * `..` before the link named earlier in the text is read: `.codewhale -> ../links/a/../b` with
 * `links/a -> ../d/a0` leads to `d/b`, not `links/b`.
 *
 * The agents read through such ways (codewhale.md §2.2: Codewhale lstats only a root's last component;
 * rivumi.md §2 "Links"; eva.md §1.3), while the editor's watchers follow no link (VS Code resolves a
 * watcher's base once, when it makes it): a link on the way led elsewhere, or a directory that a `..`
 * leaves removed, changes what the agent reads and nothing a watcher based where the way led sees.
 * So the indexes watch each of `turns` by its name, as they watch `awaited`.
 */
export function linkWay(folder: string, rest: string): LinkWay {
  const none: LinkWay = { resolved: undefined, awaited: undefined, turns: [] };
  const names = split(rest);
  let above = folder;
  let start = directoryAt(above);
  while (start === undefined) {
    if (path.dirname(above) === above) return none;
    names.unshift(path.basename(above));
    above = path.dirname(above);
    start = directoryAt(above);
  }
  let at = start;
  const turns = new Set<string>();
  const result = (resolved: string | undefined, awaited: string | undefined): LinkWay => ({
    resolved,
    awaited,
    turns: [...turns],
  });
  for (let followed = 0; names.length > 0;) {
    const name = names.shift() as string;
    if (name === '' || name === '.') continue;
    if (name === '..') {
      // A directory the way went down into and leaves again; one above a turn (the folder of a link whose
      // text starts with `..`) goes with that turn already.
      const left = at;
      if (![...turns].some((t) => isAncestor(left, t)) && path.dirname(left) !== left) turns.add(left);
      at = path.dirname(at);
      continue;
    }
    const entry = path.join(at, name);
    const type = lstatEntry(entry).type;
    if (type === 'directory') {
      at = entry;
      continue;
    }
    if (type !== 'symlink') return result(undefined, entry);
    turns.add(entry);
    // A loop, or a longer chain than the kernel follows, leads nowhere; a link on it led elsewhere may lead somewhere.
    if (++followed > MAX_LINKS) return result(undefined, undefined);
    const text = linkText(entry);
    if (text === undefined) return result(undefined, undefined);
    if (path.isAbsolute(text)) at = path.parse(text).root;
    names.unshift(...split(text));
  }
  return result(at, undefined);
}

/**
 * The entries a way hangs on: its turns, and the entry it awaits. Each is watched by its own name in
 * its folder, not that folder's tree (workspaceWatcher.ts `watch`), so cheap under `/` or the home too.
 */
export function wayEntries(way: LinkWay): string[] {
  return way.awaited === undefined ? [...way.turns] : [...way.turns, way.awaited];
}

/**
 * Whether a change reported at `p` makes, removes or changes `entry`, one of `wayEntries` (or one
 * above or below it): the way may lead elsewhere now. One rule for every index that watches a way.
 */
export function reachesWayEntry(entry: string, p: string): boolean {
  return p === entry || isAncestor(p, entry) || isAncestor(entry, p);
}

/** A path's components, `..` and `.` kept. */
function split(p: string): string[] {
  return p.split(path.sep === '/' ? '/' : /[\\/]/);
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
