import * as fs from 'node:fs';
import * as path from 'node:path';
import { lstatEntry } from '../../core/fs/safeFs';
import { isAncestor } from '../../core/fs/portablePath';
import { holdsMoreEntriesThan } from '../../core/fs/treeSize';
import { displayText } from '../../core/text/displayText';
import type { LogPort } from './ports';

/** Directories created while the window is open that get a watcher of their own. */
const MAX_SUBTREE_WATCHERS = 256;
/**
 * The largest tree created while the window is open that gets a watcher of its own. Node's
 * recursive watch reads the whole tree on the extension host's thread when it starts and adds
 * an inotify watch per directory: an `npm install` in a bundle (50,000 files) blocked the host
 * 3.7 s and took 55,001 of the user's watches. No agent reads a tree that large (Codewhale
 * reviews at most 4,096 files a bundle): the workbench's watcher and the re-checks cover it.
 */
const MAX_SUBTREE_WATCH_ENTRIES = 4096;

/**
 * Node's own recursive watchers of directories created while the window is open, beside the
 * workbench's (workspaceWatcher.ts): each reports the paths changed below its directory to
 * `report`, to be batched with the workbench's.
 */
export class SubtreeWatchers {
  private readonly subtreeWatchers = new Map<string, { dispose(): void }>();

  constructor(
    private readonly log: LogPort,
    private readonly report: (changed: string) => void,
  ) {}

  /**
   * VS Code's recursive watcher on Linux (@parcel/watcher over inotify) misses the
   * subdirectories of a directory created in one burst (`mkdir -p`, a checkout, an
   * unpacked bundle): it watches the new directory, not `skills/x/` inside it, so a later
   * edit there never arrives and trust would never drop. Seen: an edit to
   * `plugins/b/skills/s/SKILL.md` after `mkdir -p` reported nothing, in the workbench too
   * (a second VS Code watcher on `plugins/b` is folded into the first). Node's own
   * recursive watch scans a directory when it starts, so each directory reported as
   * created gets one (one per subtree, at most MAX_SUBTREE_WATCHERS).
   *
   * A watched directory reported as itself was removed, renamed away or replaced (`rm -rf`
   * and a clone again): its watcher watches what was there (inotify watches the directory,
   * not its path), reports nothing from a directory made at that path since, and never ends
   * on its own. It goes, and whatever directory is there now gets a watcher of its own.
   */
  watchNewDirectories(paths: readonly string[]): void {
    for (const p of paths) {
      this.subtreeWatchers.get(p)?.dispose();
      this.subtreeWatchers.delete(p);
      if (this.subtreeWatchers.size >= MAX_SUBTREE_WATCHERS) return;
      if ([...this.subtreeWatchers.keys()].some((d) => p === d || isAncestor(d, p))) continue;
      if (lstatEntry(p).type !== 'directory') continue;
      const tooLarge = () =>
        this.log.info(
          `not watching below ${displayText(p)}: it holds more than ${MAX_SUBTREE_WATCH_ENTRIES} entries (the workbench's watcher and the re-checks cover it)`,
        );
      if (holdsMoreEntriesThan(p, MAX_SUBTREE_WATCH_ENTRIES)) {
        tooLarge();
        continue;
      }
      try {
        // A tree that grows past the bound after the watch began (a directory created empty, then
        // filled by `npm install`) ends its watcher too: Node reads each new directory as it comes.
        // Counted by the names reported, so that edits, however many, to a few files never end it.
        const named = new Set<string>();
        let ended = false;
        const w = fs.watch(p, { recursive: true }, (_event, name) => {
          if (ended) return;
          const changed = name ? path.join(p, name.toString()) : p;
          named.add(changed);
          if (named.size > MAX_SUBTREE_WATCH_ENTRIES) {
            ended = true;
            end();
            tooLarge();
            return;
          }
          this.report(changed);
        });
        const watcher = { dispose: () => w.close() };
        // A watcher that fails, or watches too much, ends (and leaves the map, unless a newer one watches that path by now).
        const end = () => {
          w.close();
          if (this.subtreeWatchers.get(p) === watcher) this.subtreeWatchers.delete(p);
        };
        w.on('error', end);
        this.subtreeWatchers.set(p, watcher);
      } catch {
        // gone already, or out of watches: the workbench's watcher is all there is
      }
    }
  }

  dispose(): void {
    for (const w of this.subtreeWatchers.values()) w.dispose();
  }
}
