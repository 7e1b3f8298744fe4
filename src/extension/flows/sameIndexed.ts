import { serialize } from 'node:v8';
import type { Indexed } from './snapshotTransfer';

/** Entries serialized at once: bounds what a comparison holds (a whole 10,000-bundle snapshot is about 60 MB serialized). */
const CHUNK = 512;

/**
 * Whether two index results say the same: the same items and diagnostics, field by field
 * and in order, the same trust-store problem, workspaces and watched paths. A generation
 * number is not content. Compared through V8's serializer, the structured clone the worker
 * sends snapshots with, so what is compared is what the host would get. The same fields
 * in another order read as a difference: a needless publish, never a change missed.
 */
export function sameIndexed(a: Indexed, b: Indexed): boolean {
  const head = (x: Indexed) => serialize([x.snapshot.workspaces, x.snapshot.trustProblem, x.watched]);
  return (
    head(a).equals(head(b)) &&
    sameEntries(a.snapshot.items, b.snapshot.items) &&
    sameEntries(a.snapshot.diagnostics, b.snapshot.diagnostics)
  );
}

function sameEntries(a: readonly object[], b: readonly object[]): boolean {
  if (a.length !== b.length) return false;
  for (let from = 0; from < a.length; from += CHUNK) {
    const to = Math.min(from + CHUNK, a.length);
    let shared = true;
    for (let i = from; i < to && shared; i++) shared = a[i] === b[i];
    // The same objects need no serializing (an index that kept what did not change).
    if (shared) continue;
    if (!serialize(a.slice(from, to)).equals(serialize(b.slice(from, to)))) return false;
  }
  return true;
}
