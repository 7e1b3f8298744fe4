import { listingsOf, type Snapshot, type SnapshotHead as SnapshotFields } from '../../core/index/snapshot';
import { leavesOf, type Listing } from '../../core/listing';
import type { Diagnostic, Item } from '../../core/model';

/**
 * Moves snapshots from the index worker to the extension host without stalling the
 * host. Two costs are avoided:
 *
 * - Size: a snapshot of 2,000 bundles is about 12 MB once serialized, and decoding it
 *   in one message holds the host for hundreds of milliseconds. The core keeps an
 *   item's object when nothing it depends on changed, so entries the host already has
 *   are sent as a run of indices into the previous snapshot: a one-bundle refresh sends
 *   a handful of items and a few runs, not all of them.
 * - Work in the worker: the Codewhale index hands over one list per bundle, the same
 *   list object while the bundle is unchanged, so a list seen last time is one run
 *   without a look at its entries. Only the entries of lists that are new are looked up
 *   among the items of the lists that went away. At 10,000 bundles a one-bundle refresh
 *   looked up and indexed every one of 57,573 items: about 50 ms, ten times the refresh.
 * - Stalls: what must be sent goes in parts of at most `PART_OBJECTS` new objects; the
 *   worker keeps at most two parts ahead of the host's asks (indexWorkerService.ts), so a
 *   host turn decodes one part, two at most.
 */
export const PART_OBJECTS = 200;

/** An item or diagnostic the host does not have yet, or a run of those it has. */
export type Entry<T> = T | Run;

/** `count` entries the host holds, from index `from` of the previous snapshot on. */
export type Run = readonly [from: number, count: number];

/** What else the host needs besides the snapshot: the paths and trees its watchers cover. */
export interface Watched {
  readonly paths: readonly string[];
  readonly trees: readonly { readonly base: string; readonly pattern: string }[];
}

export interface Indexed {
  readonly snapshot: Snapshot;
  readonly watched: Watched;
}

/** What the first part carries besides entries: the snapshot's own fields, its counts, and what the watchers cover. */
export interface SnapshotHead extends SnapshotFields {
  /** How many items and diagnostics the snapshot has: the host sizes its lists once. */
  readonly counts: { readonly items: number; readonly diagnostics: number };
  readonly watched: Watched;
}

/** One message: the head comes with the first part. */
export interface SnapshotPart {
  readonly head?: SnapshotHead;
  readonly items: readonly Entry<Item>[];
  readonly diagnostics: readonly Entry<Diagnostic>[];
  /**
   * Where the part's objects without a prototype are: the structured clone gives every
   * object one, and the core keeps maps keyed by names from the bundles (servers, hooks,
   * environment variables) prototype-free, so a name like `constructor` never finds
   * what Object.prototype holds. Each path starts at an index into `items`, then
   * `diagnostics`, in the order of the part.
   */
  readonly prototypeFree: readonly (readonly (string | number)[])[];
}

/** The worker's side: remembers what the host holds, and splits the next snapshot into parts. */
export class SnapshotSender {
  private readonly items = new SentLists<Item>();
  private readonly diagnostics = new SentLists<Diagnostic>();

  parts(indexed: Indexed, partObjects = PART_OBJECTS): SnapshotPart[] {
    const { snapshot, watched } = indexed;
    const listings = listingsOf(snapshot);
    const { entries: items, count: itemCount } = this.items.entries(listings.items);
    const { entries: diagnostics, count: diagnosticCount } = this.diagnostics.entries(listings.diagnostics);
    const parts: SnapshotPart[] = [];
    type Part = { items: Entry<Item>[]; diagnostics: Entry<Diagnostic>[]; prototypeFree: (string | number)[][] };
    const newPart = (): Part => ({ items: [], diagnostics: [], prototypeFree: [] });
    let part = newPart();
    let objects = 0;
    // Called before each new object: a full part is closed first.
    const room = () => {
      if (objects === partObjects) {
        parts.push(part);
        part = newPart();
        objects = 0;
      }
      objects++;
    };
    for (const e of items) {
      if (!isRun(e)) {
        room();
        markPrototypeFree(e, [part.items.length], part.prototypeFree);
      }
      part.items.push(e);
    }
    for (const e of diagnostics) {
      if (!isRun(e)) {
        room();
        markPrototypeFree(e, [part.items.length + part.diagnostics.length], part.prototypeFree);
      }
      part.diagnostics.push(e);
    }
    parts.push(part);
    const head: SnapshotHead = {
      counts: { items: itemCount, diagnostics: diagnosticCount },
      generation: snapshot.generation,
      workspaces: snapshot.workspaces,
      trustProblem: snapshot.trustProblem,
      watched,
    };
    parts[0] = { ...(parts[0] as Part), head };
    return parts;
  }

  /**
   * Takes `snapshot` as what the host holds, without sending it: it reads the same as the
   * snapshot sent last (a re-check found nothing changed), entry for entry. Later parts
   * then refer to the host's entries through this snapshot's lists.
   */
  adopt(snapshot: Snapshot): void {
    const listings = listingsOf(snapshot);
    this.items.adopt(listings.items);
    this.diagnostics.adopt(listings.diagnostics);
  }
}

/**
 * The lists (a listing's leaves) the host was sent last, in order, and the index each one's
 * first entry took. The next listing is matched against them by position first: a re-read
 * bundle replaces its own list in place and every other list is where it was, so no list
 * is hashed (a Map of 10,000 lists, built and read on every refresh, cost more than the
 * refresh itself). A listing that does not line up (a bundle added or removed) is matched
 * through a map of the lists instead.
 */
class SentLists<T extends object> {
  private sent: readonly (readonly T[])[] = [];
  private starts: readonly number[] = [];

  /** The listing's entries for the host, and how many entries they stand for. */
  entries(listing: Listing<T>): { entries: Entry<T>[]; count: number } {
    const leaves = leavesOf(listing);
    // For each list, which list sent last it is (-1: none).
    const was = this.inPlace(leaves) ?? this.byIdentity(leaves);
    const held = this.heldOutside(was);
    const out = new Entries<T>();
    const starts = new Array<number>(leaves.length);
    let at = 0;
    for (let k = 0; k < leaves.length; k++) {
      const leaf = leaves[k] as readonly T[];
      starts[k] = at;
      at += leaf.length;
      const w = was[k] as number;
      if (w >= 0) {
        out.run(this.starts[w] as number, leaf.length);
        continue;
      }
      for (const x of leaf) {
        const i = held.get(x);
        if (i === undefined) out.object(x);
        else out.run(i, 1);
      }
    }
    this.sent = leaves;
    this.starts = starts;
    return { entries: out.list, count: at };
  }

  /**
   * The listing's lists stand for the ones sent last, entry for entry. Lists of other
   * lengths are not taken: the host's entries stay known through the lists sent, and
   * the new ones will be sent whole when they are next used.
   */
  adopt(listing: Listing<T>): void {
    const leaves = leavesOf(listing);
    if (leaves.length !== this.sent.length || leaves.some((leaf, k) => leaf.length !== this.sent[k]?.length)) return;
    this.sent = leaves;
  }

  /** `was` when the lists line up with those sent last, each where it was or replaced in place; else undefined. */
  private inPlace(leaves: readonly (readonly T[])[]): Int32Array | undefined {
    if (leaves.length !== this.sent.length) return undefined;
    const was = new Int32Array(leaves.length);
    for (let k = 0; k < leaves.length; k++) {
      if (leaves[k] === this.sent[k]) was[k] = k;
      // Replaced in place: the next list is where it was (or this is the last).
      else if (k + 1 === leaves.length || leaves[k + 1] === this.sent[k + 1]) was[k] = -1;
      else return undefined;
    }
    return was;
  }

  private byIdentity(leaves: readonly (readonly T[])[]): Int32Array {
    const sent = new Map<readonly T[], number>();
    this.sent.forEach((leaf, k) => {
      if (!sent.has(leaf)) sent.set(leaf, k);
    });
    return Int32Array.from(leaves, (leaf) => sent.get(leaf) ?? -1);
  }

  /** Where the host holds each entry of the lists sent last that are not sent again whole (a re-read bundle's unchanged skills). */
  private heldOutside(was: Int32Array): Map<T, number> {
    const again = new Uint8Array(this.sent.length);
    for (const w of was) if (w >= 0) again[w] = 1;
    const held = new Map<T, number>();
    for (let k = 0; k < this.sent.length; k++) {
      if (again[k] === 1) continue;
      const leaf = this.sent[k] as readonly T[];
      const start = this.starts[k] as number;
      for (let i = 0; i < leaf.length; i++) if (!held.has(leaf[i] as T)) held.set(leaf[i] as T, start + i);
    }
    return held;
  }
}

/** Entries in order, runs that continue one another joined into one. */
class Entries<T> {
  readonly list: Entry<T>[] = [];
  private last: [number, number] | undefined;

  object(x: T): void {
    this.list.push(x);
    this.last = undefined;
  }

  run(from: number, count: number): void {
    if (count === 0) return;
    if (this.last && this.last[0] + this.last[1] === from) {
      this.last[1] += count;
      return;
    }
    this.last = [from, count];
    this.list.push(this.last);
  }
}

function isRun<T>(e: Entry<T>): e is Run {
  return Array.isArray(e);
}

/** The host's side: rebuilds each snapshot from its parts and the previous one. */
export class SnapshotReceiver {
  private previous: { items: readonly Item[]; diagnostics: readonly Diagnostic[] } = { items: [], diagnostics: [] };
  private head: SnapshotHead | undefined;
  private items = new Filling<Item>(0);
  private diagnostics = new Filling<Diagnostic>(0);

  /** Takes one part; a first part starts a new snapshot. */
  add(part: SnapshotPart): void {
    const entries: readonly unknown[] = [...part.items, ...part.diagnostics];
    for (const [at, ...keys] of part.prototypeFree) {
      let x = entries[at as number];
      for (const k of keys) x = (x as Record<string | number, unknown>)[k];
      Object.setPrototypeOf(x, null);
    }
    if (part.head) {
      this.head = part.head;
      this.items = new Filling(part.head.counts.items);
      this.diagnostics = new Filling(part.head.counts.diagnostics);
    }
    for (const e of part.items) this.items.take(e, this.previous.items);
    for (const e of part.diagnostics) this.diagnostics.take(e, this.previous.diagnostics);
  }

  /** The snapshot whose parts were all taken; it becomes the one later entries refer to. */
  finish(): Indexed {
    const head = this.head;
    if (!head) throw new Error('index worker: a snapshot ended before it began');
    this.head = undefined;
    const items = this.items.done();
    const diagnostics = this.diagnostics.done();
    this.previous = { items, diagnostics };
    return {
      snapshot: {
        generation: head.generation,
        workspaces: head.workspaces,
        items,
        diagnostics,
        trustProblem: head.trustProblem,
      },
      watched: head.watched,
    };
  }
}

/**
 * A list of a size known beforehand, filled from entries: allocated once at that size
 * (at 10,000 bundles, pushed entry by entry, the host's copy of every item grew through
 * a dozen larger lists on each refresh).
 */
class Filling<T> {
  private readonly list: T[];
  private at = 0;

  constructor(private readonly size: number) {
    if (!Number.isInteger(size) || size < 0) throw new Error(`index worker: a snapshot of ${size} entries`);
    this.list = new Array<T>(size);
  }

  /** Appends what an entry stands for: the object itself, or the run of the previous snapshot's. */
  take(e: Entry<T>, previous: readonly T[]): void {
    if (!isRun(e)) {
      this.room(1);
      this.list[this.at++] = e;
      return;
    }
    const [from, count] = e;
    if (!Number.isInteger(from) || !Number.isInteger(count) || from < 0 || count < 1 || from + count > previous.length)
      throw new Error(`index worker: run ${from}+${count} refers to what the host does not hold`);
    this.room(count);
    for (let i = from; i < from + count; i++) this.list[this.at++] = previous[i] as T;
  }

  done(): readonly T[] {
    if (this.at !== this.size) throw new Error(`index worker: a snapshot of ${this.size} entries ended at ${this.at}`);
    return this.list;
  }

  private room(count: number): void {
    if (this.at + count > this.size) throw new Error(`index worker: a snapshot of ${this.size} entries got more`);
  }
}

/** Records the path of every prototype-free object under `x` (`at`: the path to `x`). */
function markPrototypeFree(x: unknown, at: (string | number)[], out: (string | number)[][]): void {
  if (typeof x !== 'object' || x === null) return;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const v: unknown = x[i];
      if (typeof v === 'object' && v !== null) {
        at.push(i);
        markPrototypeFree(v, at, out);
        at.pop();
      }
    }
    return;
  }
  if (Object.getPrototypeOf(x) === null) out.push([...at]);
  for (const k in x) {
    const v: unknown = (x as Record<string, unknown>)[k];
    if (typeof v === 'object' && v !== null) {
      at.push(k);
      markPrototypeFree(v, at, out);
      at.pop();
    }
  }
}
