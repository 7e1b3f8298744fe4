import { isDeepStrictEqual } from 'node:util';
import type { Indexed } from './snapshotTransfer';

/**
 * Whether two index results say the same: the same items and diagnostics in order, each
 * with the same fields and values, the same trust-store problem, workspaces and watched
 * paths. A generation number is not content.
 *
 * Compared by value (`util.isDeepStrictEqual`: the same own keys in any order, the same
 * primitives, the same prototypes), not through V8's serializer, whose bytes also record
 * how V8 happens to hold a value: an array packed or holey, a number as a small integer or
 * a double, a string in one or two bytes a character. Those vary with V8's allocation-site
 * feedback from one read to the next: of two warm reads of the same 2,000 bundles, 748 of
 * 11,573 items serialized differently, and the demo's log showed "the disk differs from
 * what is shown" twice with nothing changed. A prototype that differs still reads as a
 * difference: a needless publish, never a change missed.
 */
export function sameIndexed(a: Indexed, b: Indexed): boolean {
  return (
    isDeepStrictEqual(a.snapshot.workspaces, b.snapshot.workspaces) &&
    isDeepStrictEqual(a.snapshot.trustProblem, b.snapshot.trustProblem) &&
    isDeepStrictEqual(a.watched, b.watched) &&
    sameEntries(a.snapshot.items, b.snapshot.items) &&
    sameEntries(a.snapshot.diagnostics, b.snapshot.diagnostics)
  );
}

function sameEntries(a: readonly object[], b: readonly object[]): boolean {
  if (a.length !== b.length) return false;
  // The same object needs no walk (an index that kept what did not change).
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !isDeepStrictEqual(a[i], b[i])) return false;
  return true;
}
