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

export function itemById(snapshot: Snapshot, id: string): Item | undefined {
  return snapshot.items.find((i) => i.id === id);
}

export function childrenOf(snapshot: Snapshot, id: string): Item[] {
  return snapshot.items.filter((i) => i.parent === id);
}
