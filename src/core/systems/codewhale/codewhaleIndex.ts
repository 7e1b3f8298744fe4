import * as path from 'node:path';
import type { CodewhaleBundle } from './codewhaleBundle';
import { announcedRoot, runBundleJob, type BundleJob, type BundleLoader } from './bundleJob';
import { faultedRootScan } from './faults';
import { unreadableBundle } from './unreadableBundle';
import { linkWay, reachesWayEntry, wayEntries } from '../../fs/linkWay';
import { linkedCodewhaleDirectory, scanRoot, userPluginRoot, workspacePluginRoot, type RootScan } from './discovery';
import type { CodewhaleScan } from './items';
import { CodewhaleItemCache, type CodewhaleOutput } from './itemCache';
import { aliasesAtChange, realSpellings, rootAliases, spellingsInRoot, type RootAlias } from './rootAliases';
import type { Listing } from '../../listing';
import { wellFormed } from '../../fs/rawNames';
import { lstatEntry } from '../../fs/safeFs';
import { isAncestor } from '../../fs/portablePath';
import type { HostFacts } from '../../host';
import type { Diagnostic } from '../../model';
import type { DecisionContext, SharedIndexOptions, SystemIndex } from '../agentSystem';

export interface CodewhaleOptions {
  /** Codewhale's home for user bundles; null to skip them (`--no-user`). */
  readonly codewhaleHome: string | null;
  /** The reader of one bundle (tests inject faults here). */
  readonly readers?: { readonly codewhaleBundle?: BundleLoader };
}

/** A root's bundle directories as read: each bundle loaded, and each directory this user may not look into. */
interface BundleSlots {
  bundles: Map<string, CodewhaleBundle>;
  /** By directory: what unreadableBundle said of a directory whose job found no manifest because the lookup was refused. */
  unreadable: Map<string, Diagnostic>;
}

interface RootState extends BundleSlots {
  scan: RootScan;
  workspace: string | null;
  /** Where a workspace's linked `.codewhale` leads (linkedCodewhaleDirectory): watched from there. */
  linkedDirectory: string | undefined;
  /** The root's real path and its parent's, where links lead them (rootAliases.ts): a change spelled there is the root's. */
  aliases: RootAlias[];
  /**
   * The entries the way to the directory above the root hangs on, when it is a link (or Codewhale's
   * home): the links on it and the directories a `..` leaves, and, when it leads nowhere yet, the first
   * missing entry (linkWay.ts `wayEntries`). Watched, and a change there lists the root again.
   */
  way: string[];
}

type Replaced = [CodewhaleBundle, CodewhaleBundle][];

/**
 * Codewhale's discovery roots (each workspace's `.codewhale/plugins`, the user's) and the
 * bundles in them. A bundle's result depends only on its own files; shadowing is
 * recomputed from the kept bundles on every compose, which costs no I/O, and a bundle
 * re-read in place is patched into the last items (itemCache.ts).
 */
export class CodewhaleIndex implements SystemIndex {
  /**
   * Each discovery root, by `rootKey`: a workspace opened at the home directory has its
   * workspace root at the very path of the user root, and both are scanned, as Codewhale
   * does (the later one is the duplicate discovery of codewhale.md §2.6).
   */
  private readonly roots = new Map<string, RootState>();
  private readonly cache = new CodewhaleItemCache();
  /** The bundles re-read since the last compose, if that is all that changed; undefined: place everything again. */
  private replaced: Replaced | undefined = undefined;

  constructor(
    private readonly options: SharedIndexOptions & CodewhaleOptions,
    private readonly host: HostFacts,
  ) {}

  scan(): (() => void)[] {
    this.roots.clear();
    this.replaced = undefined;
    const loads: (() => void)[] = [];
    const list = (root: string, workspace: string | null) => {
      const { scan, jobs } = this.rootJobs(root, workspace);
      const slots: BundleSlots = { bundles: new Map(), unreadable: new Map() };
      this.keepRoot(root, workspace, scan, slots);
      // Where the walks will go: a bundle directory listed as a directory resolves beside its root's real path.
      this.options.readAhead?.announce(jobs.map(announcedRoot));
      for (const job of jobs) loads.push(() => void this.readInto(slots, job));
    };
    for (const ws of this.options.workspaces) list(workspacePluginRoot(ws), ws);
    if (this.options.codewhaleHome !== null) list(userPluginRoot(this.options.codewhaleHome), null);
    return loads;
  }

  /** Re-reads the bundle that holds a changed path, or a root whose listing changed. */
  refresh(changed: readonly string[]): void {
    const rootsToRescan = new Set<string>();
    // Per root key, the bundle directories to read again.
    const bundlesToReload = new Map<string, Set<string>>();
    const reload = (key: string, dirs: Iterable<string>) => {
      const set = bundlesToReload.get(key) ?? new Set<string>();
      for (const dir of dirs) set.add(dir);
      bundlesToReload.set(key, set);
    };
    // Every root's other spellings: a change reported under one root's (an item's path, `~/.codewhale` linked
    // into the workspace) or under a real path (a linked `.codewhale`'s target, as its own watcher reports it)
    // is tried in each root that reaches the same directory.
    // A root that did not resolve when listed (its link's target made since) is aliased where it leads now.
    const rootAliasesNow = new Map<string, RootAlias[]>();
    for (const [key, state] of this.roots)
      rootAliasesNow.set(key, aliasesAtChange(state.scan.root, state.scan.canonicalRoot, state.aliases));
    const aliases = [...rootAliasesNow.values()].flat();
    for (const reported of changed) {
      const reals = realSpellings(reported, aliases);
      for (const [key, state] of this.roots) {
        const root = state.scan.root;
        const own = rootAliasesNow.get(key) ?? state.aliases;
        // An entry the way above the root hangs on, changed (a link on it led elsewhere, the entry it awaited
        // made): it may lead elsewhere now, so the root is listed again, and its way read again.
        if (state.way.some((entry) => [...reals].some((p) => reachesWayEntry(entry, p)))) {
          rootsToRescan.add(key);
          reload(key, state.bundles.keys());
        }
        for (const p of spellingsInRoot(reals, root, own)) {
          // The root or a directory above it, created, removed, renamed or swapped: every bundle directory
          // in it may be another one now, under the same name (`rm -rf .codewhale` and a clone again).
          // Above a real path of it too: that spelling of the root itself was respelled to `root` above.
          if (p === root || isAncestor(p, root) || own.some((alias) => isAncestor(p, alias.real))) {
            rootsToRescan.add(key);
            reload(key, state.bundles.keys());
          }
          // Inside the root: a bundle directory may be named `..x`, so no test of the relative path's spelling.
          else if (isAncestor(root, p)) {
            const rel = path.relative(root, p);
            const dirs = bundleDirsNamed(state.bundles, path.join(root, rel.split(path.sep)[0] as string));
            reload(key, dirs);
            // A bundle directory itself (or a name that is none yet) is listed again; one reported alone
            // may have been replaced by another directory of that name (a rename over it), so it is read too.
            if (dirs.length === 0 || !rel.includes(path.sep)) rootsToRescan.add(key);
          }
        }
      }
    }
    for (const [key, state] of this.roots)
      if (rootsToRescan.has(key))
        this.loadRoot(state.scan.root, state.workspace, state.bundles, bundlesToReload.get(key) ?? new Set());
    // Bundles re-read in place can be patched into the last items; anything else places all again.
    let replaced: Replaced | undefined = rootsToRescan.size > 0 ? undefined : this.replaced;
    for (const [key, dirs] of bundlesToReload) {
      const state = this.roots.get(key);
      if (!state || rootsToRescan.has(key) || !state.scan.canonicalRoot) continue;
      for (const dir of dirs) {
        const before = state.bundles.get(dir);
        const bundle = this.readInto(state, {
          dir,
          scope: state.scan.scope,
          canonicalDiscoveryRoot: state.scan.canonicalRoot,
          ...this.cacheOf(state.scan.root),
        });
        if (before && bundle) replaced?.push([before, bundle]);
        else replaced = undefined;
      }
    }
    this.replaced = replaced;
  }

  compose(ctx: DecisionContext): CodewhaleOutput {
    const replaced = this.replaced;
    const cw = (replaced && this.cache.patch(replaced, ctx)) ?? this.cache.compute(this.scans(), ctx);
    this.replaced = [];
    const roots: Listing<Diagnostic>[] = [];
    for (const state of this.roots.values()) {
      roots.push(state.scan.diagnostics);
      if (state.unreadable.size > 0) roots.push([...state.unreadable.values()]);
    }
    return { items: cw.items, diagnostics: { parts: [...roots, cw.diagnostics] } };
  }

  /**
   * The discovery roots: a watcher must see a root appear, even outside the workspace's globs (the user
   * root). Codewhale's home itself: `~/.codewhale -> a` led to `b` (`ln -sfn`) changes only that entry,
   * in its folder, where no watcher of the user tree looks (their bases were resolved to `a`). Where a
   * linked `.codewhale` or home leads, itself: a target with no `plugins` yet, removed and made again with
   * bundles (`rm -rf ~/dotfiles/cw`, a clone again), changes nothing a watcher based in it names (VS Code
   * reports a removed base only as itself, which no pattern matches). And the entries the way of a root's
   * link hangs on (linkWay.ts): a link on it led elsewhere changes only that entry, where no watcher of the
   * root looks, as does the entry it awaits made. Each is watched by its own name in its folder, not
   * that folder's tree (workspaceWatcher.ts `watch`): no `/` and no `**` (VS Code's
   * extHostFileSystemEventService `ensureWatching`), so it costs one directory's entries wherever it is.
   */
  watchedPaths(): string[] {
    const paths = new Set<string>();
    const byName = (p: string | undefined) => {
      if (p !== undefined && path.dirname(p) !== p) paths.add(p);
    };
    for (const state of this.roots.values()) paths.add(state.scan.root);
    byName(this.options.codewhaleHome ?? undefined);
    for (const state of this.roots.values()) byName(state.linkedDirectory);
    byName(this.realUserHome());
    for (const state of this.roots.values()) for (const entry of state.way) paths.add(entry);
    return [...paths];
  }

  /**
   * The user's plugin root, watched from Codewhale's home (which exists before `plugins/` may), from
   * where the home led when it was listed: VS Code resolves a watcher's base when it makes the watcher
   * (parcelWatcher.ts `normalizePath`), so one based at `~/.codewhale -> a` keeps watching `a` once the
   * link leads to `b`. Named by the real path, the watcher changes with the target, and the editor
   * makes it again (workspaceWatcher.ts `watchWhatItNames`); a change it reports is the root's by its
   * aliases (rootAliases.ts). A home that leads nowhere is watched as given.
   * A workspace root behind a linked `.codewhale` reaches no folder's watcher (they follow no
   * link): its `plugins` is watched from the link's target, and its tree from the root's real
   * path. Never the target's whole tree: a watcher whose pattern holds `/` or `**` watches its
   * base recursively (VS Code's extHostFileSystemEventService `ensureWatching`), and a
   * repository's link may lead to `/` or the home.
   */
  watchedTrees(): { base: string; pattern: string }[] {
    const trees = new Map<string, { base: string; pattern: string }>();
    const add = (base: string, pattern: string) => trees.set(`${base}\0${pattern}`, { base, pattern });
    for (const { linkedDirectory, scan } of this.roots.values()) {
      if (linkedDirectory === undefined) continue;
      add(linkedDirectory, 'plugins');
      if (scan.canonicalRoot !== undefined) add(scan.canonicalRoot, '**');
    }
    const home = this.options.codewhaleHome;
    if (home !== null) add(this.realUserHome() ?? home, 'plugins/**');
    return [...trees.values()];
  }

  /** Where Codewhale's home led when the user root was listed, when that is another path (rootAliases.ts). */
  private realUserHome(): string | undefined {
    for (const state of this.roots.values()) {
      if (state.workspace !== null) continue;
      const home = path.dirname(state.scan.root);
      return state.aliases.find((alias) => alias.own === home)?.real;
    }
    return undefined;
  }

  private scans(): CodewhaleScan[] {
    const scans: CodewhaleScan[] = [];
    for (const state of this.roots.values())
      for (const bundle of state.bundles.values()) scans.push({ bundle, workspace: state.workspace });
    return scans;
  }

  private loadBundle(job: BundleJob): CodewhaleBundle | null {
    return runBundleJob(job, this.host, this.options.readers?.codewhaleBundle);
  }

  /**
   * Reads one bundle into its root's slots. A directory in which no manifest was found is
   * asked once more whether the lookup was refused (unreadableBundle.ts): Codewhale run as
   * another user may load a bundle there, so it is said, never simply absent.
   */
  private readInto(slots: BundleSlots, job: BundleJob): CodewhaleBundle | null {
    const bundle = this.loadBundle(job);
    slots.unreadable.delete(job.dir);
    if (bundle) slots.bundles.set(job.dir, bundle);
    else {
      slots.bundles.delete(job.dir);
      const denied = unreadableBundle(job.dir);
      if (denied) slots.unreadable.set(job.dir, denied);
    }
    return bundle;
  }

  /**
   * Lists a root again, keeping the bundles read before except those in `changed`: a
   * watcher batch can name a new bundle and an edit in a kept one together, and the
   * edit must be read (a trusted bundle would otherwise keep its old hashes).
   */
  private loadRoot(
    root: string,
    workspace: string | null,
    previous: Map<string, CodewhaleBundle>,
    changed: ReadonlySet<string>,
  ): void {
    const { scan, jobs } = this.rootJobs(root, workspace);
    const slots: BundleSlots = { bundles: new Map(), unreadable: new Map() };
    for (const job of jobs) {
      const kept = changed.has(job.dir) ? undefined : previous.get(job.dir);
      if (kept) slots.bundles.set(job.dir, kept);
      else this.readInto(slots, job);
    }
    this.keepRoot(root, workspace, scan, slots);
  }

  /** Records a listed root: its slots (filled already, or by the loads to come) and where its links lead now. */
  private keepRoot(root: string, workspace: string | null, scan: RootScan, slots: BundleSlots): void {
    this.roots.set(rootKey(root, workspace), {
      scan,
      workspace,
      ...slots,
      linkedDirectory: linkedDirectory(root, workspace),
      aliases: rootAliases(root, scan.canonicalRoot),
      way: wayAbove(root, workspace),
    });
  }

  /** Lists a discovery root: its diagnostics, and a job for each bundle with a manifest. */
  private rootJobs(root: string, workspace: string | null): { scan: RootScan; jobs: BundleJob[] } {
    const scope = workspace === null ? 'user' : 'workspace';
    let scan: RootScan;
    try {
      scan = scanRoot(root, scope);
    } catch (e) {
      scan = faultedRootScan(root, scope, e);
    }
    // A symlinked `.codewhale` is followed, as Codewhale follows it: its root is
    // `workspace.join(".codewhale").join("plugins")`, and scan_root's `symlink_metadata`
    // refuses a link only in that last component (upstream discovery.rs). Refusing more
    // would list none of the bundles Codewhale loads there, and leave them out of the lock.
    const discoveryRoot = scan.canonicalRoot;
    const shared = { ...this.cacheOf(root), ...(this.options.readAhead ? { readAhead: this.options.readAhead } : {}) };
    const jobs: BundleJob[] = discoveryRoot
      ? scan.candidates.map((dir) => ({ dir, scope, canonicalDiscoveryRoot: discoveryRoot, ...shared }))
      : [];
    return { scan, jobs };
  }

  /** The parse cache segment of one discovery root (one file per root), when the index has a cache. */
  private cacheOf(root: string): Pick<BundleJob, 'cache'> {
    const cache = this.options.parseCache;
    return cache ? { cache: cache.segment(`codewhale plugins\0${root}`) } : {};
  }
}

/**
 * Where a workspace root's linked `.codewhale` leads. The user root needs none: its watcher's
 * base is where Codewhale's home leads (`watchedTrees`).
 */
function linkedDirectory(root: string, workspace: string | null): string | undefined {
  return workspace === null ? undefined : linkedCodewhaleDirectory(root);
}

/**
 * The entries the way to the directory above a root hangs on (linkWay.ts `wayEntries`): for a workspace's
 * `.codewhale` that is a link, and for Codewhale's home (a link, or missing, its folder too). A workspace's
 * `.codewhale` that is no link has none: the folder's own watcher (`.codewhale/**`, which matches
 * `.codewhale` itself) reports it made or replaced.
 */
function wayAbove(root: string, workspace: string | null): string[] {
  const dir = path.dirname(root);
  if (workspace !== null && lstatEntry(dir).type !== 'symlink') return [];
  return wayEntries(linkWay(path.dirname(dir), path.basename(dir)));
}

/** A discovery root's key: its path and whose it is (null: the user's). */
function rootKey(root: string, workspace: string | null): string {
  return `${workspace === null ? 'user' : 'workspace'}\0${root}`;
}

/**
 * The loaded bundle directories a changed path names. A watcher reports a name that
 * is not UTF-8 with U+FFFD (the loaded directory spells its bytes exactly, rawNames.ts):
 * every directory that reads the same way is re-read, never kept stale.
 */
function bundleDirsNamed(bundles: ReadonlyMap<string, CodewhaleBundle>, dir: string): string[] {
  if (bundles.has(dir)) return [dir];
  // Only a name with U+FFFD can read as another directory's: no walk over every bundle otherwise.
  if (!dir.includes('\ufffd')) return [];
  // A directory spelled exactly is the one above; one that reads the same has bytes that are not UTF-8.
  return [...bundles.keys()].filter((d) => wellFormed(d) === dir);
}
