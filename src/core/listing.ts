/**
 * A list an agent's index hands the indexer: a plain list, or its parts in order (the
 * Codewhale index keeps one part per bundle). The snapshot's list is the only copy made:
 * after one bundle changes in a workspace of 10,000, no other list of every item is
 * built. Above about 16,000 entries V8 places each new list in a space of its own, whose
 * fresh pages cost more than the copy (issue 15: each such list took 1–3 ms of a
 * re-index on this project's machine).
 */
export type Listing<T> = readonly T[] | { readonly parts: readonly Listing<T>[] };

/** One new list of every entry of the listings, in order. */
export function joined<T>(listings: readonly Listing<T>[]): T[] {
  let total = 0;
  for (const l of listings) total += sizeOf(l);
  // Sized once: a list grown by push is copied into a larger one each time it fills.
  const out = new Array<T>(total);
  let at = 0;
  for (const l of listings) at = copyInto(l, out, at);
  return out;
}

function sizeOf<T>(l: Listing<T>): number {
  if (isList(l)) return l.length;
  let n = 0;
  for (const p of l.parts) n += sizeOf(p);
  return n;
}

function copyInto<T>(l: Listing<T>, out: T[], at: number): number {
  if (isList(l)) {
    for (let i = 0; i < l.length; i++) out[at++] = l[i] as T;
    return at;
  }
  for (const p of l.parts) at = copyInto(p, out, at);
  return at;
}

function isList<T>(l: Listing<T>): l is readonly T[] {
  return Array.isArray(l);
}

/**
 * The plain lists a listing is made of, in order. A list handed on unchanged is the same
 * object from one snapshot to the next (the Codewhale index keeps each bundle's), which
 * lets a reader tell what changed without looking at every entry.
 */
export function leavesOf<T>(l: Listing<T>, out: (readonly T[])[] = []): (readonly T[])[] {
  if (isList(l)) out.push(l);
  else for (const p of l.parts) leavesOf(p, out);
  return out;
}
