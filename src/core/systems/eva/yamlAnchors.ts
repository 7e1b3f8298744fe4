import type { Alias, Node as YamlNode } from 'yaml';

/**
 * Which node an alias names (eva.md §2.1), as serde_yaml 0.9's loader (loader.rs) numbers anchors
 * while it reads the events: each anchor gets `id = anchors.len()`, the count of names seen so far,
 * its name now maps to that id, and `aliases[id]` is set to its node; an alias keeps the id its name
 * maps to then, and is looked up in `aliases` once the whole document is read. So an alias names the
 * last node numbered like the anchor of its name defined last before it: after a name is given again,
 * the number it took is the next anchor's too (`&x 1, &x 2, &y 3, *x` is 3), where the latest
 * anchor of the name would be 2. Of nodes that start at the same offset (a block mapping and its
 * anchored first key), the inner one's event comes later.
 *
 * One index per document, for its value and for the ranges of its fields, built once: a binary
 * search over a name's anchors by offset. Scanning them all for each alias (the converter did), or
 * visiting the whole document for each (the yaml library's `Alias.resolve`, which the ranges used),
 * is quadratic in a document that names one anchor 20,000 times with as many aliases, or that keys
 * a mapping by 6,000 aliases (20 s of CPU for one command).
 */
export class YamlAnchors {
  /** Anchored nodes in the order they were added. */
  private readonly added: { readonly name: string; readonly node: YamlNode }[] = [];
  /** Per name, its anchors' offsets and ids in event order, and each id's last node; made on the first alias. */
  private numbered:
    { readonly byName: Map<string, { offsets: number[]; ids: number[] }>; readonly nodes: YamlNode[] } | undefined;

  /** Records an anchored node; a node must be added before the nodes inside it. */
  add(name: string, node: YamlNode): void {
    this.added.push({ name, node });
    this.numbered = undefined;
  }

  resolve(alias: Alias): YamlNode | undefined {
    const { byName, nodes } = this.number();
    const named = byName.get(alias.source);
    if (!named) return undefined;
    const id = named.ids[firstAtLeast(named.offsets, offsetOf(alias)) - 1];
    return id === undefined ? undefined : nodes[id];
  }

  /** The loader's numbering, over the anchors in event order (offset; at one offset, the order added). */
  private number(): NonNullable<YamlAnchors['numbered']> {
    if (this.numbered) return this.numbered;
    // Array.prototype.sort is stable: nodes that start together keep the order they were added in.
    const events = this.added.slice().sort((a, b) => offsetOf(a.node) - offsetOf(b.node));
    const ids = new Map<string, number>();
    const byName = new Map<string, { offsets: number[]; ids: number[] }>();
    const nodes: YamlNode[] = [];
    for (const { name, node } of events) {
      const id = ids.size;
      ids.set(name, id);
      nodes[id] = node;
      let named = byName.get(name);
      if (!named) byName.set(name, (named = { offsets: [], ids: [] }));
      named.offsets.push(offsetOf(node));
      named.ids.push(id);
    }
    return (this.numbered = { byName, nodes });
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
