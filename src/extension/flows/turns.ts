/**
 * Work spread over event-loop turns, so the extension host answers the workbench between
 * two pieces (docs/editor-performance.md): what is O(items) at 2,000 bundles is done a
 * slice per turn instead of in the turn that publishes a snapshot.
 */

/** Resolves in a later turn of the event loop, after the I/O and messages already waiting. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Calls `each` on every element of `list` in order, `perTurn` of them per event-loop turn,
 * the first slice in a later turn than the caller's. `stillWanted` is asked before each
 * slice: once it says no (a newer snapshot replaced the one these rows were for), the rest
 * is skipped and the result is false.
 */
export async function inTurns<T>(
  list: readonly T[],
  perTurn: number,
  each: (x: T) => void,
  stillWanted: () => boolean = () => true,
): Promise<boolean> {
  if (list.length === 0) return true;
  let at = 0;
  return stepsInTurns(() => {
    for (const x of list.slice(at, at + perTurn)) each(x);
    at += perTurn;
    return at >= list.length;
  }, stillWanted);
}

/**
 * Calls `step` once per event-loop turn, the first in a later turn than the caller's,
 * until it says it is done (true) or `stillWanted` says no (false).
 */
export async function stepsInTurns(step: () => boolean, stillWanted: () => boolean = () => true): Promise<boolean> {
  for (;;) {
    await nextTurn();
    if (!stillWanted()) return false;
    if (step()) return true;
  }
}
