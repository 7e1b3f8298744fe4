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
/** Lookups being built a slice at a time (`lookupsInSteps`); a lookup asked for meanwhile finishes them. */
const building = new WeakMap<Snapshot, LookupsBuilder>();

function lookupsOf(snapshot: Snapshot): Lookups {
  const found = lookups.get(snapshot);
  if (found) return found;
  const builder = building.get(snapshot) ?? new LookupsBuilder(snapshot);
  builder.step(Infinity);
  return builder.done as Lookups;
}

/**
 * Builds a snapshot's lookups `count` entries (items, then diagnostics) per `step`, so
 * an editor can build them over several event-loop turns before its tree asks for rows:
 * built in one turn at 2,000 bundles they were the extension host's longest piece of
 * work after an index (docs/editor-performance.md). `step` says whether they are done;
 * a lookup asked for before that finishes them at once, so nothing waits on the steps.
 */
export function lookupsInSteps(snapshot: Snapshot): { step(count: number): boolean } {
  if (lookups.has(snapshot)) return { step: () => true };
  return building.get(snapshot) ?? new LookupsBuilder(snapshot);
}

class LookupsBuilder {
  private readonly byId = new Map<string, Item>();
  private readonly children = new Map<string, Item[]>();
  private readonly diagnostics = new Map<string, Diagnostic[]>();
  /** The next entry: an index into the items, then past them into the diagnostics. */
  private next = 0;
  done: Lookups | undefined;

  constructor(private readonly snapshot: Snapshot) {
    building.set(snapshot, this);
  }

  step(count: number): boolean {
    if (this.done) return true;
    const { items, diagnostics } = this.snapshot;
    const end = Math.min(this.next + count, items.length + diagnostics.length);
    for (; this.next < end && this.next < items.length; this.next++) {
      const item = items[this.next] as Item;
      if (!this.byId.has(item.id)) this.byId.set(item.id, item);
      if (item.parent !== null) listIn(this.children, item.parent).push(item);
    }
    for (; this.next < end; this.next++) {
      const d = diagnostics[this.next - items.length] as Diagnostic;
      if (d.itemId !== null) listIn(this.diagnostics, d.itemId).push(d);
    }
    if (this.next < items.length + diagnostics.length) return false;
    this.done = { byId: this.byId, children: this.children, diagnostics: this.diagnostics };
    lookups.set(this.snapshot, this.done);
    building.delete(this.snapshot);
    return true;
  }
}

function listIn<T>(map: Map<string, T[]>, key: string): T[] {
  let list = map.get(key);
  if (!list) {
    list = [];
    map.set(key, list);
  }
  return list;
}
