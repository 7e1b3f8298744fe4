import type { Alias, Node as YamlNode } from 'yaml';

/**
 * Which node an alias names (eva.md §2.1): the anchored node of that name defined last
 * before it, as serde_yaml keeps the latest anchor of each name while it reads the
 * events. Of nodes that start at the same offset (a block mapping and its anchored first
 * key), the inner one: its event comes later.
 *
 * One index per document, for its value and for the ranges of its fields: a binary search
 * over a name's nodes by offset. Scanning them all for each alias (the converter did), or
 * visiting the whole document for each (the yaml library's `Alias.resolve`, which the
 * ranges used), is quadratic in a document that names one anchor 20,000 times with as
 * many aliases, or that keys a mapping by 6,000 aliases (20 s of CPU for one command).
 */
export class YamlAnchors {
  /** Anchored nodes by name, in the order they were added. */
  private readonly added = new Map<string, YamlNode[]>();
  /** The same, sorted by offset, made for a name when an alias first names it. */
  private readonly byOffset = new Map<string, { readonly nodes: YamlNode[]; readonly offsets: number[] }>();

  /** Records an anchored node; a node must be added before the nodes inside it. */
  add(name: string, node: YamlNode): void {
    // Appended in place: a copy per node is quadratic in a document that repeats one anchor.
    const named = this.added.get(name);
    if (named) named.push(node);
    else this.added.set(name, [node]);
    this.byOffset.delete(name);
  }

  resolve(alias: Alias): YamlNode | undefined {
    const named = this.sorted(alias.source);
    return named.nodes[firstAtLeast(named.offsets, offsetOf(alias)) - 1];
  }

  private sorted(name: string): { readonly nodes: YamlNode[]; readonly offsets: number[] } {
    let named = this.byOffset.get(name);
    if (!named) {
      // Array.prototype.sort is stable: nodes that start together keep the order they were
      // added in, a node before the nodes inside it.
      const nodes = (this.added.get(name) ?? []).slice().sort((a, b) => offsetOf(a) - offsetOf(b));
      named = { nodes, offsets: nodes.map(offsetOf) };
      this.byOffset.set(name, named);
    }
    return named;
  }
}

/** Where a node starts in the text (0 for none). */
export function offsetOf(node: unknown): number {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? range[0] : 0;
}

/** The first index of a sorted list whose value is at least `x` (the list's length when none is). */
function firstAtLeast(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
