import * as path from 'node:path';
import type { CodewhaleBundle } from '../systems/codewhale/bundle';
import { runBundleJob, type BundleJob, type BundleLoader } from '../systems/codewhale/bundleJob';
import { faultedRivumiItems, faultedRivumiProject, faultedRootScan, rivumiFault } from './faults';
import { scanRoot, userPluginRoot, workspacePluginRoot, type RootScan } from '../systems/codewhale/discovery';
import { currentHost, type HostFacts } from '../systems/codewhale/host';
import { loadRivumiProject } from '../systems/rivumi/load';
import { canonicalPath, lstatEntry } from '../fs/safeFs';
import { hasEscapedByte, wellFormed } from '../fs/rawNames';
import { EMPTY_TRUST, type TrustView } from '../decisions/trustView';
import type { CodewhaleScan } from '../systems/codewhale/items';
import { CodewhaleItemCache } from '../systems/codewhale/itemCache';
import { rivumiItems, type RivumiContext } from '../systems/rivumi/items';
import { rivumiHooksOptIn } from '../systems/rivumi/hooksOptIn';
import { FILE_START, type Diagnostic, type Item } from '../model';
import type { RivumiProject } from '../systems/rivumi/model';
import type { Snapshot } from './snapshot';

export interface IndexOptions {
  /** Absolute workspace folders. */
  readonly workspaces: readonly string[];
  /** Codewhale's home for user bundles; null to skip them (`--no-user`). */
  readonly codewhaleHome: string | null;
  /** The value of `RIVUMI_ENABLE_PROJECT_HOOKS`, as Rivumi reads it. */
  readonly rivumiHooksEnv?: string | undefined;
  readonly host?: HostFacts;
  readonly trust?: () => TrustView;
  /** False in VS Code Restricted Mode. */
  readonly workspaceTrusted?: boolean;
  /** The readers of one Codewhale bundle and of one workspace's `.rivumi/` (tests inject faults here). */
  readonly readers?: {
    readonly codewhaleBundle?: BundleLoader;
    readonly rivumiProject?: (workspace: string) => RivumiProject;
  };
}

/** Bundles loaded between two yields of `indexAllAsync`: about 20 ms of work. */
const BUNDLES_PER_SLICE = 16;

interface RootJobs {
  readonly root: string;
  readonly workspace: string | null;
  readonly scan: RootScan;
  readonly jobs: readonly BundleJob[];
}

interface RootState {
  scan: RootScan;
  workspace: string | null;
  bundles: Map<string, CodewhaleBundle>;
}

/**
 * Builds snapshots and keeps per-bundle results, so a change re-reads only the
 * bundles it touches (the editor's file watcher calls `refresh(paths)`). A bundle's
 * result depends only on its own files; shadowing, Rivumi caps and fail-fast are
 * recomputed from the cached results on every snapshot, which costs no I/O.
 */
export class Indexer {
  private readonly roots = new Map<string, RootState>();
  private readonly rivumi = new Map<string, RivumiProject>();
  private generation = 0;
  private readonly codewhale = new CodewhaleItemCache();
  private readonly host: HostFacts;
  /** The workspace folders, one per canonical path; `aliases`: each other spelling → the one kept. */
  private readonly workspaces: readonly string[];
  private readonly aliases: ReadonlyMap<string, string>;

  constructor(private readonly options: IndexOptions) {
    this.host = options.host ?? currentHost();
    const distinct = distinctWorkspaces(options.workspaces);
    this.workspaces = distinct.kept;
    this.aliases = distinct.aliases;
  }

  /** Reads everything from disk, on this thread. */
  indexAll(): Snapshot {
    const scans = this.scanAll();
    this.commit(scans, scans.map((s) => s.jobs.map((job) => this.loadBundle(job))));
    return this.compose(undefined);
  }

  /**
   * The same snapshot as `indexAll`, loading bundles in slices and yielding to the
   * event loop between them: in the editor's extension host, a large workspace never
   * holds other extensions' events for the whole load.
   */
  async indexAllAsync(onProgress?: (done: number, total: number) => void): Promise<Snapshot> {
    const scans = this.scanAll();
    const loaded: (CodewhaleBundle | null)[][] = [];
    const total = scans.reduce((n, s) => n + s.jobs.length, 0);
    let done = 0;
    let sinceYield = 0;
    onProgress?.(0, total);
    for (const s of scans) {
      const bundles: (CodewhaleBundle | null)[] = [];
      for (const job of s.jobs) {
        bundles.push(this.loadBundle(job));
        done++;
        if (++sinceYield === BUNDLES_PER_SLICE) {
          sinceYield = 0;
          // Reported at each yield, so a caller's progress costs nothing between them.
          onProgress?.(done, total);
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      loaded.push(bundles);
    }
    this.commit(scans, loaded);
    return this.compose(undefined);
  }

  /** Discovery of every root and the Rivumi loads: everything but the bundles themselves. */
  private scanAll(): RootJobs[] {
    this.roots.clear();
    this.rivumi.clear();
    const scans: RootJobs[] = [];
    for (const ws of this.workspaces) {
      scans.push(this.rootJobs(workspacePluginRoot(ws), ws));
      this.rivumi.set(ws, this.loadRivumi(ws));
    }
    if (this.options.codewhaleHome !== null) scans.push(this.rootJobs(userPluginRoot(this.options.codewhaleHome), null));
    return scans;
  }

  private commit(scans: readonly RootJobs[], loaded: readonly (readonly (CodewhaleBundle | null)[])[]): void {
    scans.forEach((s, i) => {
      const bundles = new Map<string, CodewhaleBundle>();
      (loaded[i] ?? []).forEach((b, j) => {
        if (b) bundles.set((s.jobs[j] as BundleJob).dir, b);
      });
      this.roots.set(s.root, { scan: s.scan, workspace: s.workspace, bundles });
    });
  }

  /**
   * Re-reads what the changed paths can affect: the bundle that holds a path, a
   * discovery root whose listing changed, or a workspace's `.rivumi/` load.
   */
  refresh(changed: readonly string[]): Snapshot {
    if (this.roots.size === 0 && this.rivumi.size === 0) return this.indexAll();
    const rootsToRescan = new Set<string>();
    const bundlesToReload = new Map<string, string>();
    const rivumiToReload = new Set<string>();
    for (const raw of changed) {
      const p = unaliased(path.resolve(raw), this.aliases);
      for (const [root, state] of this.roots) {
        const rel = path.relative(root, p);
        if (rel === '' || isAncestor(p, root)) rootsToRescan.add(root);
        else if (!rel.startsWith('..') && !path.isAbsolute(rel)) {
          const dirs = bundleDirsNamed(state.bundles, path.join(root, rel.split(path.sep)[0] as string));
          if (dirs.length > 0 && rel.includes(path.sep)) for (const dir of dirs) bundlesToReload.set(dir, root);
          else rootsToRescan.add(root);
        }
      }
      for (const ws of this.workspaces) {
        const project = this.rivumi.get(ws);
        const rivumiDir = path.join(ws, '.rivumi');
        if (p === rivumiDir || p.startsWith(rivumiDir + path.sep) || isAncestor(p, rivumiDir) || (project && hookScripts(project).has(p))) rivumiToReload.add(ws);
      }
    }
    for (const root of rootsToRescan) {
      const state = this.roots.get(root);
      if (state) this.loadRoot(root, state.workspace, state.bundles);
    }
    // Bundles re-read in place can be patched into the last items; anything else places all again.
    let replaced: [CodewhaleBundle, CodewhaleBundle][] | undefined = rootsToRescan.size > 0 ? undefined : [];
    for (const [dir, root] of bundlesToReload) {
      const state = this.roots.get(root);
      if (!state || rootsToRescan.has(root) || !state.scan.canonicalRoot) continue;
      const before = state.bundles.get(dir);
      const bundle = this.loadBundle({ dir, scope: state.scan.scope, canonicalDiscoveryRoot: state.scan.canonicalRoot });
      if (bundle) state.bundles.set(dir, bundle);
      else state.bundles.delete(dir);
      if (before && bundle) replaced?.push([before, bundle]);
      else replaced = undefined;
    }
    for (const ws of rivumiToReload) this.rivumi.set(ws, this.loadRivumi(ws));
    return this.compose(replaced);
  }

  private loadBundle(job: BundleJob): CodewhaleBundle | null {
    return runBundleJob(job, this.host, this.options.readers?.codewhaleBundle);
  }

  /** The fault boundary of one workspace's `.rivumi/` (faults.ts). */
  private loadRivumi(workspace: string): RivumiProject {
    try {
      return (this.options.readers?.rivumiProject ?? loadRivumiProject)(workspace);
    } catch (e) {
      return faultedRivumiProject(workspace, e);
    }
  }

  /** Re-derives decisions without reading bundles (after a trust store change). */
  snapshot(): Snapshot {
    return this.compose([]);
  }

  /** A snapshot of what is loaded; `replaced`: the bundles re-read since the last one, if that is all that changed. */
  private compose(replaced: readonly [CodewhaleBundle, CodewhaleBundle][] | undefined): Snapshot {
    const trust = this.options.trust?.() ?? EMPTY_TRUST;
    const ctx = { trust, workspaceTrusted: this.options.workspaceTrusted ?? true, hooksOptIn: rivumiHooksOptIn(this.options.rivumiHooksEnv) };
    const cw = (replaced && this.codewhale.patch(replaced, ctx)) ?? this.codewhale.compute(this.scans(), ctx);
    const scanDiagnostics: Diagnostic[] = [];
    for (const state of this.roots.values()) for (const d of state.scan.diagnostics) scanDiagnostics.push(d);
    // Copies, not spread arguments: a large workspace has more items than a call takes arguments.
    const items: Item[] = cw.items.slice();
    const diagnostics: Diagnostic[] = scanDiagnostics.concat(cw.diagnostics);
    for (const ws of this.workspaces) {
      const project = this.rivumi.get(ws);
      if (!project) continue;
      const r = rivumiItemsWithin(project, ctx);
      for (const i of r.items) items.push(i);
      for (const d of r.diagnostics) diagnostics.push(d);
    }
    return { generation: ++this.generation, workspaces: this.workspaces, items, diagnostics, trustProblem: trust.available ? null : trust.problem };
  }

  private scans(): CodewhaleScan[] {
    const scans: CodewhaleScan[] = [];
    for (const state of this.roots.values()) for (const bundle of state.bundles.values()) scans.push({ bundle, workspace: state.workspace });
    return scans;
  }

  /** Every file or directory whose change matters, for watchers outside `.rivumi`/`.codewhale`. */
  watchedPaths(): string[] {
    const out = new Set<string>();
    for (const root of this.roots.keys()) out.add(root);
    for (const project of this.rivumi.values()) for (const s of hookScripts(project)) out.add(s);
    return [...out];
  }

  private loadRoot(root: string, workspace: string | null, previous: Map<string, CodewhaleBundle>): void {
    const { scan, jobs } = this.rootJobs(root, workspace);
    const bundles = new Map<string, CodewhaleBundle>();
    for (const job of jobs) {
      const bundle = previous.get(job.dir) ?? this.loadBundle(job);
      if (bundle) bundles.set(job.dir, bundle);
    }
    this.roots.set(root, { scan, workspace, bundles });
  }

  /** Lists a discovery root: its diagnostics, and a job for each bundle with a manifest. */
  private rootJobs(root: string, workspace: string | null): RootJobs {
    const scope = workspace === null ? 'user' : 'workspace';
    let scan: RootScan;
    try {
      scan = scanRoot(root, scope);
    } catch (e) {
      scan = faultedRootScan(root, scope, e);
    }
    // [Skillgate] A symlinked `.codewhale` would carry discovery out of the workspace.
    if (workspace !== null && lstatEntry(path.dirname(root)).type === 'symlink') {
      const d: Diagnostic = { file: path.dirname(root), range: FILE_START, severity: 'error', code: 'codewhale.root-symlink', message: `Plugin discovery root may not be a symbolic link or reparse point: ${path.dirname(root)}`, itemId: null };
      scan = { ...scan, candidates: [], diagnostics: [...scan.diagnostics, d] };
    }
    const discoveryRoot = scan.canonicalRoot;
    const jobs: BundleJob[] = discoveryRoot ? scan.candidates.map((dir) => ({ dir, scope, canonicalDiscoveryRoot: discoveryRoot })) : [];
    return { root, workspace, scan, jobs };
  }
}

/** One workspace's Rivumi items; a fault while reading or deciding stays with that workspace. */
function rivumiItemsWithin(project: RivumiProject, ctx: RivumiContext): { items: Item[]; diagnostics: Diagnostic[] } {
  if (project.fault) return faultedRivumiItems(project.workspace, project.fault);
  try {
    return rivumiItems(project, ctx);
  } catch (e) {
    return faultedRivumiItems(project.workspace, rivumiFault(project.workspace, e));
  }
}

/**
 * One workspace folder per canonical path: a folder passed twice (directly and through
 * a symbolic link, or spelled two ways) is indexed once, under the first spelling
 * given, so no item is listed twice under one id. A folder that cannot be resolved
 * keeps its own spelling.
 */
function distinctWorkspaces(workspaces: readonly string[]): { kept: string[]; aliases: Map<string, string> } {
  const byCanonical = new Map<string, string>();
  const aliases = new Map<string, string>();
  for (const ws of workspaces) {
    const resolved = path.resolve(ws);
    const canonical = canonicalPath(resolved) ?? resolved;
    const kept = byCanonical.get(canonical);
    if (kept === undefined) byCanonical.set(canonical, ws);
    else if (path.resolve(kept) !== resolved) aliases.set(resolved, path.resolve(kept));
  }
  return { kept: [...byCanonical.values()], aliases };
}

/** A changed path under a dropped spelling of a workspace folder, under the kept one. */
function unaliased(p: string, aliases: ReadonlyMap<string, string>): string {
  for (const [alias, kept] of aliases) {
    if (p === alias) return kept;
    if (p.startsWith(alias + path.sep)) return kept + p.slice(alias.length);
  }
  return p;
}

/**
 * The loaded bundle directories a changed path names. A watcher reports a name that
 * is not UTF-8 with U+FFFD (the loaded directory spells its bytes exactly, rawNames.ts):
 * every directory that reads the same way is re-read, never kept stale.
 */
function bundleDirsNamed(bundles: ReadonlyMap<string, CodewhaleBundle>, dir: string): string[] {
  if (bundles.has(dir)) return [dir];
  if (!dir.includes('\ufffd')) return [];
  return [...bundles.keys()].filter((d) => hasEscapedByte(d) && wellFormed(d) === dir);
}

function isAncestor(ancestor: string, p: string): boolean {
  const rel = path.relative(ancestor, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/**
 * Paths outside `.rivumi` whose change can change a Rivumi trust unit: the files the
 * argv of project and plugin hooks name, and the paths they would name once created.
 */
function hookScripts(project: RivumiProject): Set<string> {
  const out = new Set<string>();
  for (const hashes of [project.hooksFile?.hashes, ...project.plugins.map((p) => p.hashes)]) {
    for (const p of hashes?.watch ?? []) out.add(p);
  }
  return out;
}
