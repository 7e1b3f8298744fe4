import { codewhaleItems, placedAlone, shadowsByName, type CodewhaleLayout, type CodewhaleScan } from './items';
import type { GateContext } from '../../decisions/gates';
import type { CodewhaleBundle } from './codewhaleBundle';
import type { Diagnostic, Item } from '../../model';
import type { Listing } from '../../listing';

/** The Codewhale items as decided now, in parts (core/listing.ts). */
export interface CodewhaleOutput {
  readonly items: Listing<Item>;
  readonly diagnostics: Listing<Diagnostic>;
}

/**
 * The last Codewhale items, kept so that re-reading one bundle does not place every
 * bundle again. Placing walks all bundles (precedence, shadowing, duplicate roots),
 * and in a workspace of thousands of bundles that walk alone costs more than the
 * re-read. A re-read bundle is patched in instead when nothing else can change: it
 * keeps its scope, name and canonical root, no other bundle shares that name or root,
 * and what else decides items — the trust store's text, workspace trust — is as before.
 * Anything else computes everything again.
 *
 * The output is kept as one part per bundle and handed over as those parts: a patch
 * replaces one part, and the snapshot's list is the only list of every item built
 * (a patch that spliced a flat list copied every item twice more).
 */
export class CodewhaleItemCache {
  private last: Kept | undefined;

  /** Places every bundle and remembers where each one's output went. */
  compute(scans: readonly CodewhaleScan[], ctx: GateContext): CodewhaleOutput {
    const result = codewhaleItems(scans, ctx);
    const context = contextKey(ctx);
    if (context === undefined) {
      this.last = undefined;
      return { items: result.items, diagnostics: result.diagnostics };
    }
    const layout = result.layout;
    const kept: Kept = {
      context,
      layout,
      items: partsOf(result.items, layout.itemCounts),
      diagnostics: partsOf(result.diagnostics, layout.diagnosticCounts),
    };
    this.last = kept;
    return outputOf(kept);
  }

  /**
   * The items after `replaced` bundles were re-read (each pair: the bundle before and
   * after, from the same directory), or undefined when they must be computed in full.
   */
  patch(
    replaced: readonly (readonly [CodewhaleBundle, CodewhaleBundle])[],
    ctx: GateContext,
  ): CodewhaleOutput | undefined {
    const last = this.last;
    if (!last || contextKey(ctx) !== last.context) return undefined;
    const layout = last.layout;
    const positions = layout.positions;
    // Every pair is checked before any is applied: the layout is changed in place.
    const names = new Set<string>();
    for (const [before, after] of replaced) {
      if (!positions.has(before) || !samePlace(before, after) || contested(layout, before) || names.has(before.name))
        return undefined;
      names.add(before.name);
    }
    for (const [before, after] of replaced) {
      const i = positions.get(before) as number;
      const fresh = placedAlone(after, layout.workspaces[i] ?? null, ctx);
      last.items[i] = fresh.items;
      last.diagnostics[i] = fresh.diagnostics;
      positions.delete(before);
      positions.set(after, i);
      // Roots count every bundle, and the re-read one keeps its root (`samePlace`): only names can change.
      const change = (shadowsByName(after) ? 1 : 0) - (shadowsByName(before) ? 1 : 0);
      if (change !== 0) bump(layout.names, after.name, change);
    }
    return outputOf(last);
  }
}

/** The last output: its layout, and each bundle's items and diagnostics by position. */
interface Kept {
  readonly context: string;
  readonly layout: CodewhaleLayout;
  readonly items: (readonly Item[])[];
  readonly diagnostics: (readonly Diagnostic[])[];
}

function outputOf(kept: Kept): CodewhaleOutput {
  // A patch replaces parts in place: an output handed out before keeps the parts it had
  // (one entry per bundle, a short list: copying it is cheap, unlike a list of every item).
  return { items: { parts: kept.items.slice() }, diagnostics: { parts: kept.diagnostics.slice() } };
}

/** A flat list cut into consecutive parts of the given sizes. */
function partsOf<T>(list: readonly T[], counts: readonly number[]): (readonly T[])[] {
  const parts: (readonly T[])[] = [];
  let at = 0;
  for (const n of counts) {
    parts.push(list.slice(at, at + n));
    at += n;
  }
  return parts;
}

function samePlace(a: CodewhaleBundle, b: CodewhaleBundle): boolean {
  return a.scope === b.scope && a.name === b.name && a.canonicalRoot === b.canonicalRoot && a.dir === b.dir;
}

/**
 * Whether another bundle that shadows by name has this bundle's name, or another bundle
 * its canonical root (the key is unchanged, so this holds before and after the re-read).
 */
function contested(layout: CodewhaleLayout, b: CodewhaleBundle): boolean {
  return (
    (layout.names.get(b.name) ?? 0) - (shadowsByName(b) ? 1 : 0) > 0 ||
    (b.canonicalRoot !== undefined && (layout.roots.get(b.canonicalRoot) ?? 0) - 1 > 0)
  );
}

/** What decides items besides the bundles; undefined when it cannot be told equal. */
function contextKey(ctx: GateContext): string | undefined {
  if (!ctx.trust.available) return `unavailable\0${ctx.trust.problem}\0${ctx.workspaceTrusted}`;
  return ctx.trust.revision === undefined ? undefined : `available\0${ctx.trust.revision}\0${ctx.workspaceTrusted}`;
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}
