import type { Diagnostic, Item } from '../model';
import { joined, type Listing } from '../listing';

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

/** What a snapshot says besides its items and diagnostics. */
export type SnapshotHead = Pick<Snapshot, 'generation' | 'workspaces' | 'trustProblem'>;

/** The agents' listings a composed snapshot's lists are flattened from. */
const listings = new WeakMap<Snapshot, { items: Listing<Item>; diagnostics: Listing<Diagnostic> }>();

/**
 * A snapshot of the agents' listings, whose flat lists are built on first read. At
 * 10,000 bundles the list of every item is a fresh array of 57,573 entries, and a fresh
 * array that large costs 2–3 ms on its own here (V8 gives it new pages of its own):
 * most of a one-bundle re-index. The editor's index worker never reads the flat lists
 * (it sends from the listings, `listingsOf`), the CLI reads them once. Both lists are
 * own enumerable properties, so the snapshot compares, spreads and serializes as a
 * plain one.
 */
export function composedSnapshot(head: SnapshotHead, items: Listing<Item>, diagnostics: Listing<Diagnostic>): Snapshot {
  let flatItems: readonly Item[] | undefined;
  let flatDiagnostics: readonly Diagnostic[] | undefined;
  const snapshot: Snapshot = {
    generation: head.generation,
    workspaces: head.workspaces,
    get items() {
      return (flatItems ??= flat(items));
    },
    get diagnostics() {
      return (flatDiagnostics ??= flat(diagnostics));
    },
    trustProblem: head.trustProblem,
  };
  listings.set(snapshot, { items, diagnostics });
  return snapshot;
}

/** A snapshot's lists as listings: the agents' own for a composed snapshot, else its flat lists. */
export function listingsOf(snapshot: Snapshot): { items: Listing<Item>; diagnostics: Listing<Diagnostic> } {
  return listings.get(snapshot) ?? { items: snapshot.items, diagnostics: snapshot.diagnostics };
}

function flat<T>(l: Listing<T>): readonly T[] {
  // A plain list is already flat, and never changes: no copy.
  return Array.isArray(l) ? (l as readonly T[]) : joined([l]);
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
