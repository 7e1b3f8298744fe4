import {
  codewhaleItems,
  placedAlone,
  takesPart,
  type CodewhaleItems,
  type CodewhaleLayout,
  type CodewhaleScan,
} from './items';
import type { GateContext } from '../../decisions/gates';
import type { CodewhaleBundle } from './bundle';
import type { Diagnostic, Item } from '../../model';

/**
 * The last Codewhale items, kept so that re-reading one bundle does not place every
 * bundle again. Placing walks all bundles (precedence, shadowing, duplicate roots),
 * and in a workspace of thousands of bundles that walk alone costs more than the
 * re-read. A re-read bundle is patched in instead when nothing else can change: it
 * keeps its scope, name and canonical root, no other bundle shares that name or root,
 * and what else decides items — the trust store's text, workspace trust — is as before.
 * Anything else computes everything again.
 */
export class CodewhaleItemCache {
  private last: { readonly context: string; readonly result: CodewhaleItems } | undefined;

  /** Places every bundle and remembers where each one's output went. */
  compute(scans: readonly CodewhaleScan[], ctx: GateContext): CodewhaleItems {
    const result = codewhaleItems(scans, ctx);
    const context = contextKey(ctx);
    this.last = context === undefined ? undefined : { context, result };
    return result;
  }

  /**
   * The items after `replaced` bundles were re-read (each pair: the bundle before and
   * after, from the same directory), or undefined when they must be computed in full.
   */
  patch(
    replaced: readonly (readonly [CodewhaleBundle, CodewhaleBundle])[],
    ctx: GateContext,
  ): CodewhaleItems | undefined {
    const last = this.last;
    if (!last || contextKey(ctx) !== last.context) return undefined;
    if (replaced.length === 0) return last.result;
    const layout = last.result.layout;
    const positions = layout.positions;
    // Every pair is checked before any is applied: the layout is changed in place.
    const names = new Set<string>();
    for (const [before, after] of replaced) {
      if (!positions.has(before) || !samePlace(before, after) || contested(layout, before) || names.has(before.name))
        return undefined;
      names.add(before.name);
    }
    let items: readonly Item[] = last.result.items;
    let diagnostics: readonly Diagnostic[] = last.result.diagnostics;
    for (const [before, after] of replaced) {
      const i = positions.get(before) as number;
      const fresh = placedAlone(after, layout.workspaces[i] ?? null, ctx);
      items = splice(items, offset(layout.itemCounts, i), layout.itemCounts[i] as number, fresh.items);
      diagnostics = splice(
        diagnostics,
        offset(layout.diagnosticCounts, i),
        layout.diagnosticCounts[i] as number,
        fresh.diagnostics,
      );
      layout.itemCounts[i] = fresh.items.length;
      layout.diagnosticCounts[i] = fresh.diagnostics.length;
      positions.delete(before);
      positions.set(after, i);
      const change = (takesPart(after) ? 1 : 0) - (takesPart(before) ? 1 : 0);
      if (change !== 0) {
        bump(layout.names, after.name, change);
        bump(layout.roots, after.canonicalRoot as string, change);
      }
    }
    const result: CodewhaleItems = { items, diagnostics, layout };
    this.last = { context: last.context, result };
    return result;
  }
}

function samePlace(a: CodewhaleBundle, b: CodewhaleBundle): boolean {
  return a.scope === b.scope && a.name === b.name && a.canonicalRoot === b.canonicalRoot && a.dir === b.dir;
}

/**
 * Whether another bundle that takes part in shadowing has this bundle's name or
 * canonical root (the key is unchanged, so this holds before and after the re-read).
 */
function contested(layout: CodewhaleLayout, b: CodewhaleBundle): boolean {
  const own = takesPart(b) ? 1 : 0;
  return (
    (layout.names.get(b.name) ?? 0) - own > 0 ||
    (b.canonicalRoot !== undefined && (layout.roots.get(b.canonicalRoot) ?? 0) - own > 0)
  );
}

/** What decides items besides the bundles; undefined when it cannot be told equal. */
function contextKey(ctx: GateContext): string | undefined {
  if (!ctx.trust.available) return `unavailable\0${ctx.trust.problem}\0${ctx.workspaceTrusted}`;
  return ctx.trust.revision === undefined ? undefined : `available\0${ctx.trust.revision}\0${ctx.workspaceTrusted}`;
}

function offset(counts: readonly number[], i: number): number {
  let n = 0;
  for (let k = 0; k < i; k++) n += counts[k] as number;
  return n;
}

/** A new list with `count` entries at `start` replaced: copies, so earlier snapshots keep theirs. */
function splice<T>(list: readonly T[], start: number, count: number, replacement: readonly T[]): T[] {
  return list.slice(0, start).concat(replacement, list.slice(start + count));
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}
