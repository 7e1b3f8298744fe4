import type { Snapshot } from '../core/index/snapshot';
import type { Diagnostic, Item } from '../core/model';

/**
 * The lookups the tree makes for every row — an item by id, an item's parts, an item's
 * diagnostics — built once per snapshot. The workbench asks for every row of an expanded
 * node at once (2,000 bundles under one agent), and a scan of the whole snapshot per row
 * held the extension host for about a second (docs/editor-performance.md). A snapshot is
 * never changed once published, so its index is kept beside it until it is dropped.
 */
export interface SnapshotIndex {
  /** The first item of each id, as `itemById` finds it. */
  readonly byId: ReadonlyMap<string, Item>;
  /** Each parent's items, in snapshot order, as `childrenOf` lists them. */
  readonly children: ReadonlyMap<string, readonly Item[]>;
  /** Each item's diagnostics, in snapshot order. */
  readonly diagnostics: ReadonlyMap<string, readonly Diagnostic[]>;
}

const indexes = new WeakMap<Snapshot, SnapshotIndex>();

export function snapshotIndex(snapshot: Snapshot): SnapshotIndex {
  let index = indexes.get(snapshot);
  if (!index) {
    index = build(snapshot);
    indexes.set(snapshot, index);
  }
  return index;
}

function build(snapshot: Snapshot): SnapshotIndex {
  const byId = new Map<string, Item>();
  const children = new Map<string, Item[]>();
  for (const item of snapshot.items) {
    if (!byId.has(item.id)) byId.set(item.id, item);
    if (item.parent !== null) listIn(children, item.parent).push(item);
  }
  const diagnostics = new Map<string, Diagnostic[]>();
  for (const d of snapshot.diagnostics) if (d.itemId !== null) listIn(diagnostics, d.itemId).push(d);
  return { byId, children, diagnostics };
}

function listIn<T>(map: Map<string, T[]>, key: string): T[] {
  let list = map.get(key);
  if (!list) {
    list = [];
    map.set(key, list);
  }
  return list;
}
