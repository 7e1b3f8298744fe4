import * as path from 'node:path';
import { loadRivumiProject } from './load';
import { faultedRivumiItems, faultedRivumiProject, rivumiFault } from './faults';
import { rivumiItems, type RivumiContext } from './items';
import { rivumiHooksOptIn } from './hooksOptIn';
import { changesLinkedRivumi, linkedRivumi, linkedRivumiWatches, rivumiWay, type LinkedRivumi } from './linkedRoot';
import { reachesWayEntry } from '../../fs/linkWay';
import type { RivumiProject } from './model';
import { isAncestor } from '../../fs/portablePath';
import { bothSpellings } from '../../fs/folderSpellings';
import { canonicalPath } from '../../fs/safeFs';
import type { Diagnostic, Item } from '../../model';
import type { DecisionContext, SharedIndexOptions, SystemIndex } from '../agentSystem';

export interface RivumiOptions {
  /** The value of `RIVUMI_ENABLE_PROJECT_HOOKS`, as Rivumi reads it. */
  readonly rivumiHooksEnv?: string | undefined;
  /** The reader of one workspace's `.rivumi/` (tests inject faults here). */
  readonly readers?: { readonly rivumiProject?: (workspace: string) => RivumiProject };
}

/**
 * Each workspace's `.rivumi/` as Rivumi loads it: one load per workspace, re-read
 * whole when anything under `.rivumi/` or a file a hook runs changes.
 */
export class RivumiIndex implements SystemIndex {
  private readonly projects = new Map<string, RivumiProject>();
  /** Where each workspace's linked `.rivumi` leads, as at its last read (linkedRoot.ts). */
  private readonly linked = new Map<string, LinkedRivumi>();
  /** Each workspace folder's real path where it differs from the folder as given (opened through a link), as at its last read. */
  private readonly real = new Map<string, string>();
  /** The entries the way of each workspace's linked `.rivumi` hangs on, as at its last read (linkedRoot.ts `rivumiWay`). */
  private readonly ways = new Map<string, string[]>();

  constructor(private readonly options: SharedIndexOptions & RivumiOptions) {}

  scan(): (() => void)[] {
    this.projects.clear();
    this.linked.clear();
    this.real.clear();
    this.ways.clear();
    for (const ws of this.options.workspaces) this.projects.set(ws, this.load(ws));
    return [];
  }

  refresh(changed: readonly string[]): void {
    const reload = new Set<string>();
    const reaches = new Map<string, ReadonlySet<string>>();
    const reachOf = (ws: string, project: RivumiProject): ReadonlySet<string> => {
      let reach = reaches.get(ws);
      if (!reach) reaches.set(ws, (reach = hookScriptReach(project)));
      return reach;
    };
    for (const reported of changed) {
      for (const ws of this.options.workspaces) {
        const project = this.projects.get(ws);
        const rivumiDir = path.join(ws, '.rivumi');
        // What Rivumi reads is spelled under the folder as given; a change may come under its real path too.
        const real = this.real.get(ws);
        const spellings = real === undefined ? [reported] : bothSpellings(reported, path.resolve(ws), real);
        for (const p of spellings)
          if (
            p === rivumiDir ||
            p.startsWith(rivumiDir + path.sep) ||
            isAncestor(p, rivumiDir) ||
            (project && reachOf(ws, project).has(p)) ||
            // Behind a linked `.rivumi`, its target's watchers report by the target's spelling.
            this.behindLink(ws, p) ||
            // An entry the way of a linked `.rivumi` hangs on, changed: it may lead elsewhere now.
            this.reachesWay(ws, p)
          )
            reload.add(ws);
      }
    }
    for (const ws of reload) this.projects.set(ws, this.load(ws));
  }

  compose(ctx: DecisionContext): { items: readonly Item[]; diagnostics: readonly Diagnostic[] } {
    const rivumiCtx: RivumiContext = { ...ctx, hooksOptIn: rivumiHooksOptIn(this.options.rivumiHooksEnv) };
    const items: Item[] = [];
    const diagnostics: Diagnostic[] = [];
    for (const ws of this.options.workspaces) {
      const project = this.projects.get(ws);
      if (!project) continue;
      const r = itemsWithin(project, rivumiCtx);
      for (const i of r.items) items.push(i);
      for (const d of r.diagnostics) diagnostics.push(d);
    }
    return { items, diagnostics };
  }

  /**
   * The scripts hooks run; where each linked `.rivumi` leads, itself (a target with none of what Rivumi
   * reads yet, removed and made again, changes nothing its watchers name: VS Code reports a removed base
   * only as itself, which no pattern matches); and the entries the way of each linked `.rivumi` hangs on.
   * Each watched by its own name in its folder (workspaceWatcher.ts `watch`), so cheap wherever the link leads.
   */
  watchedPaths(): string[] {
    const out = new Set<string>();
    for (const project of this.projects.values()) for (const s of hookScripts(project)) out.add(s);
    for (const { target } of this.linked.values()) if (path.dirname(target) !== target) out.add(target);
    for (const way of this.ways.values()) for (const entry of way) out.add(entry);
    return [...out];
  }

  /**
   * Only behind a linked `.rivumi`: each folder's `.rivumi/**` watcher covers a real one, and
   * sees nothing behind a link (linkedRoot.ts).
   */
  watchedTrees(): { base: string; pattern: string }[] {
    const trees = new Map<string, { base: string; pattern: string }>();
    for (const linked of this.linked.values())
      for (const t of linkedRivumiWatches(linked)) trees.set(`${t.base}\0${t.pattern}`, t);
    return [...trees.values()];
  }

  private reachesWay(workspace: string, p: string): boolean {
    return (this.ways.get(workspace) ?? []).some((entry) => reachesWayEntry(entry, p));
  }

  private behindLink(workspace: string, p: string): boolean {
    const linked = this.linked.get(workspace);
    return linked !== undefined && changesLinkedRivumi(linked, p);
  }

  /** The fault boundary of one workspace's `.rivumi/` (faults.ts). */
  private load(workspace: string): RivumiProject {
    const real = canonicalPath(workspace);
    if (real !== undefined && real !== path.resolve(workspace)) this.real.set(workspace, real);
    else this.real.delete(workspace);
    try {
      const linked = linkedRivumi(workspace);
      if (linked) this.linked.set(workspace, linked);
      else this.linked.delete(workspace);
      const way = rivumiWay(workspace);
      if (way.length > 0) this.ways.set(workspace, way);
      else this.ways.delete(workspace);
      return (this.options.readers?.rivumiProject ?? loadRivumiProject)(workspace);
    } catch (e) {
      return faultedRivumiProject(workspace, e);
    }
  }
}

/** One workspace's Rivumi items; a fault while reading or deciding stays with that workspace. */
function itemsWithin(project: RivumiProject, ctx: RivumiContext): { items: Item[]; diagnostics: Diagnostic[] } {
  if (project.fault) return faultedRivumiItems(project.workspace, project.fault, ctx);
  try {
    return rivumiItems(project, ctx);
  } catch (e) {
    return faultedRivumiItems(project.workspace, rivumiFault(project.workspace, e), ctx);
  }
}

/**
 * The hook scripts and every directory above one, up to the workspace folder: a directory
 * removed, renamed or swapped for a link is reported as itself, and every script under it
 * reads differently since (gone, or reached through a link trust cannot cover).
 */
function hookScriptReach(project: RivumiProject): Set<string> {
  const out = new Set<string>();
  for (const s of hookScripts(project))
    for (let p = s; isAncestor(project.workspace, p) && !out.has(p); p = path.dirname(p)) out.add(p);
  return out;
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
