import type { Snapshot } from '../../core/index/snapshot';
import type { Diagnostic, Item } from '../../core/model';

/**
 * Moves snapshots from the index worker to the extension host without stalling the
 * host. Two costs are avoided:
 *
 * - Size: a snapshot of 2,000 bundles is about 12 MB once serialized, and decoding it
 *   in one message holds the host for hundreds of milliseconds. The core keeps an
 *   item's object when nothing it depends on changed, so an entry the host already has
 *   is sent as its index in the previous snapshot: a one-bundle refresh sends a handful
 *   of items, not all of them.
 * - Stalls: what must be sent goes in parts of at most `PART_OBJECTS` new objects; the
 *   worker sends a part only after the host took the previous one (one message in flight),
 *   so the host decodes one part per event-loop turn.
 */
export const PART_OBJECTS = 200;

/** An item or diagnostic the host does not have yet, or the index of the one it has in the previous snapshot. */
export type Entry<T> = T | number;

/** What else the host needs besides the snapshot: the paths and trees its watchers cover. */
export interface Watched {
  readonly paths: readonly string[];
  readonly trees: readonly { readonly base: string; readonly pattern: string }[];
}

export interface Indexed {
  readonly snapshot: Snapshot;
  readonly watched: Watched;
}

export interface SnapshotHead {
  readonly generation: number;
  readonly workspaces: readonly string[];
  readonly trustProblem: string | null;
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
  private items = new Map<Item, number>();
  private diagnostics = new Map<Diagnostic, number>();

  parts(indexed: Indexed, partObjects = PART_OBJECTS): SnapshotPart[] {
    const { snapshot, watched } = indexed;
    const items = entries(snapshot.items, this.items);
    const diagnostics = entries(snapshot.diagnostics, this.diagnostics);
    this.items = indexOf(snapshot.items);
    this.diagnostics = indexOf(snapshot.diagnostics);
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
      if (typeof e !== 'number') {
        room();
        markPrototypeFree(e, [part.items.length], part.prototypeFree);
      }
      part.items.push(e);
    }
    for (const e of diagnostics) {
      if (typeof e !== 'number') {
        room();
        markPrototypeFree(e, [part.items.length + part.diagnostics.length], part.prototypeFree);
      }
      part.diagnostics.push(e);
    }
    parts.push(part);
    const head: SnapshotHead = {
      generation: snapshot.generation,
      workspaces: snapshot.workspaces,
      trustProblem: snapshot.trustProblem,
      watched,
    };
    parts[0] = { ...(parts[0] as Part), head };
    return parts;
  }
}

/** The host's side: rebuilds each snapshot from its parts and the previous one. */
export class SnapshotReceiver {
  private previous: { items: readonly Item[]; diagnostics: readonly Diagnostic[] } = { items: [], diagnostics: [] };
  private head: SnapshotHead | undefined;
  private items: Item[] = [];
  private diagnostics: Diagnostic[] = [];

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
      this.items = [];
      this.diagnostics = [];
    }
    for (const e of part.items) this.items.push(resolved(e, this.previous.items));
    for (const e of part.diagnostics) this.diagnostics.push(resolved(e, this.previous.diagnostics));
  }

  /** The snapshot whose parts were all taken; it becomes the one later entries refer to. */
  finish(): Indexed {
    const head = this.head;
    if (!head) throw new Error('index worker: a snapshot ended before it began');
    this.head = undefined;
    this.previous = { items: this.items, diagnostics: this.diagnostics };
    return {
      snapshot: {
        generation: head.generation,
        workspaces: head.workspaces,
        items: this.items,
        diagnostics: this.diagnostics,
        trustProblem: head.trustProblem,
      },
      watched: head.watched,
    };
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

function entries<T extends object>(now: readonly T[], held: ReadonlyMap<T, number>): Entry<T>[] {
  return now.map((x) => held.get(x) ?? x);
}

function indexOf<T>(list: readonly T[]): Map<T, number> {
  const m = new Map<T, number>();
  list.forEach((x, i) => m.set(x, i));
  return m;
}

function resolved<T>(e: Entry<T>, previous: readonly T[]): T {
  if (typeof e !== 'number') return e;
  const x = previous[e];
  if (x === undefined) throw new Error(`index worker: entry ${e} refers to nothing the host holds`);
  return x;
}
