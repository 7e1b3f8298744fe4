import * as path from 'node:path';
import { canonicalPath } from '../fs/safeFs';
import { respelled } from '../fs/folderSpellings';
import { isAncestor } from '../fs/portablePath';
import { currentHost, type HostFacts } from '../host';
import { EMPTY_TRUST } from '../decisions/trustView';
import { agentSystems, type IndexOptions } from '../systems/registry';
import type { SystemIndex } from '../systems/agentSystem';
import type { Diagnostic, Item } from '../model';
import { composedSnapshot, type Snapshot } from './snapshot';
import type { Listing } from '../listing';

export type { IndexOptions } from '../systems/registry';

/** Units loaded between two yields of `indexAllAsync`: about 20 ms of work. */
const LOADS_PER_SLICE = 16;

/**
 * Builds snapshots from every registered agent's index (systems/registry.ts). Each
 * agent keeps what it read, so a change re-reads only what it touches (the editor's
 * file watcher calls `refresh(paths)`); decisions are recomputed from what is kept on
 * every snapshot, which costs no I/O.
 */
export class Indexer {
  private readonly systems: readonly SystemIndex[];
  private indexed = false;
  private generation = 0;
  /** The workspace folders, one per canonical path; `aliases`: each other spelling → the one kept. */
  private readonly workspaces: readonly string[];
  private readonly aliases: ReadonlyMap<string, string>;
  private readonly host: HostFacts;

  constructor(private readonly options: IndexOptions) {
    const distinct = distinctWorkspaces(options.workspaces);
    this.workspaces = distinct.kept;
    this.aliases = distinct.aliases;
    const host = (this.host = options.host ?? currentHost());
    this.systems = agentSystems().map((s) => s.createIndex({ ...options, workspaces: this.workspaces }, host));
  }

  /** Reads everything from disk, on this thread. */
  indexAll(): Snapshot {
    for (const load of this.scanAll()) load();
    this.options.readAhead?.finish();
    this.saveParseCache();
    return this.compose();
  }

  /**
   * The same snapshot as `indexAll`, loading units in slices and yielding to the event
   * loop between them: in the editor's extension host, a large workspace never holds
   * other extensions' events for the whole load. `saveCacheLater` leaves the parse
   * cache's save to the caller (`saveParseCache`), once it has used the snapshot: the
   * editor's index worker sends the first tree before it writes the cache.
   */
  async indexAllAsync(
    onProgress?: (done: number, total: number) => void,
    { saveCacheLater = false }: { readonly saveCacheLater?: boolean } = {},
  ): Promise<Snapshot> {
    const loads = this.scanAll();
    const total = loads.length;
    let done = 0;
    onProgress?.(0, total);
    for (const load of loads) {
      load();
      if (++done % LOADS_PER_SLICE === 0) {
        // Reported at each yield, so a caller's progress costs nothing between them.
        onProgress?.(done, total);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    // Every unit loaded (what is left is the cache's save and the compose): said once, whatever the count.
    if (total > 0 && done % LOADS_PER_SLICE !== 0) onProgress?.(done, total);
    this.options.readAhead?.finish();
    if (!saveCacheLater) this.saveParseCache();
    return this.compose();
  }

  /** Writes what this index parsed to the parse cache (docs/parse-cache.md); never throws. */
  saveParseCache(): void {
    this.options.parseCache?.save();
  }

  /** Discovery of every agent's roots: everything but the loads of its units. */
  private scanAll(): (() => void)[] {
    this.indexed = true;
    this.host.newReading?.();
    this.options.parseCache?.beginRun();
    const loads: (() => void)[] = [];
    for (const s of this.systems) for (const load of s.scan()) loads.push(load);
    return loads;
  }

  /** Re-reads what the changed paths can affect, in each agent's index. */
  refresh(changed: readonly string[]): Snapshot {
    if (!this.indexed) return this.indexAll();
    const paths = changed.map((raw) => unaliased(path.resolve(raw), this.aliases));
    this.host.newReading?.();
    for (const s of this.systems) s.refresh(paths);
    return this.compose();
  }

  /** Re-derives decisions without reading anything (after a trust store change). */
  snapshot(): Snapshot {
    return this.compose();
  }

  private compose(): Snapshot {
    const trust = this.options.trust?.() ?? EMPTY_TRUST;
    const ctx = { trust, workspaceTrusted: this.options.workspaceTrusted ?? true };
    const items: Listing<Item>[] = [];
    const diagnostics: Listing<Diagnostic>[] = [];
    for (const s of this.systems) {
      const out = s.compose(ctx);
      items.push(out.items);
      diagnostics.push(out.diagnostics);
    }
    return composedSnapshot(
      {
        generation: ++this.generation,
        workspaces: this.workspaces,
        trustProblem: trust.available ? null : trust.problem,
      },
      { parts: items },
      { parts: diagnostics },
    );
  }

  /** Trees outside the workspace folders that watchers cover recursively. */
  watchedTrees(): { base: string; pattern: string }[] {
    return this.systems.flatMap((s) => s.watchedTrees());
  }

  /** Every file or directory whose change matters, for watchers outside the agents' workspace roots. */
  watchedPaths(): string[] {
    const out = new Set<string>();
    for (const s of this.systems) for (const p of s.watchedPaths()) out.add(p);
    return [...out];
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

/**
 * A changed path under a dropped spelling of a workspace folder, under the kept one: the first
 * dropped spelling that is or holds it, respelled (folderSpellings.ts `respelled`), never by
 * appending to `alias + path.sep`: a folder at the filesystem root (`/`, a drive's `C:\`)
 * already ends in a separator. A path already spelled under the kept folder stays as it is when
 * that folder lies inside the dropped one (`a/self -> .` opened before `a`, a link to `/` before
 * `/`): the kept folder's own watcher reports it so, and respelling it again named
 * `a/self/self/…`, a path no agent reads under. Exported for its tests (folderSpellings.test.ts).
 */
export function unaliased(p: string, aliases: ReadonlyMap<string, string>): string {
  for (const [alias, kept] of aliases) {
    if (isAncestor(alias, kept) && (p === kept || isAncestor(kept, p))) continue;
    const under = respelled(p, alias, kept);
    if (under !== undefined) return under;
  }
  return p;
}
