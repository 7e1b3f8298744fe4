import type { Diagnostic, Item } from '../model';

/**
 * One immutable picture of everything discovered: items with their decisions, and
 * every diagnostic. The tree, the Problems panel, the CLI and the review panel all
 * render a snapshot; none recomputes a decision.
 */
export interface Snapshot {
  readonly generation: number;
  readonly workspaces: readonly string[];
  readonly items: readonly Item[];
  readonly diagnostics: readonly Diagnostic[];
  /** The trust store problem when it is unavailable (everything fails closed). */
  readonly trustProblem: string | null;
}

/** The first item of that id. */
export function itemById(snapshot: Snapshot, id: string): Item | undefined {
  return lookupsOf(snapshot).byId.get(id);
}

/** An item's parts, in snapshot order. */
export function childrenOf(snapshot: Snapshot, id: string): readonly Item[] {
  return lookupsOf(snapshot).children.get(id) ?? [];
}

/** An item's diagnostics, in snapshot order. */
export function diagnosticsOf(snapshot: Snapshot, id: string): readonly Diagnostic[] {
  return lookupsOf(snapshot).diagnostics.get(id) ?? [];
}

/**
 * The three lookups above, built once per snapshot. A tree asks them for every row of an
 * expanded node at once (2,000 bundles under one agent) and the CLI's list for every item:
 * a scan of the whole snapshot per row held the extension host for about a second
 * (docs/editor-performance.md). A snapshot never changes, so its lookups live as long as it.
 */
interface Lookups {
  readonly byId: ReadonlyMap<string, Item>;
  readonly children: ReadonlyMap<string, readonly Item[]>;
  readonly diagnostics: ReadonlyMap<string, readonly Diagnostic[]>;
}

const lookups = new WeakMap<Snapshot, Lookups>();

function lookupsOf(snapshot: Snapshot): Lookups {
  let found = lookups.get(snapshot);
  if (!found) {
    const byId = new Map<string, Item>();
    const children = new Map<string, Item[]>();
    for (const item of snapshot.items) {
      if (!byId.has(item.id)) byId.set(item.id, item);
      if (item.parent !== null) listIn(children, item.parent).push(item);
    }
    const diagnostics = new Map<string, Diagnostic[]>();
    for (const d of snapshot.diagnostics) if (d.itemId !== null) listIn(diagnostics, d.itemId).push(d);
    found = { byId, children, diagnostics };
    lookups.set(snapshot, found);
  }
  return found;
}

function listIn<T>(map: Map<string, T[]>, key: string): T[] {
  let list = map.get(key);
  if (!list) {
    list = [];
    map.set(key, list);
  }
  return list;
}
