import { agentSystems, systemOf } from '../systems/registry';
import type { Diagnostic, Item } from '../model';
import type { Snapshot } from '../index/snapshot';

export interface CheckFailure {
  readonly item: Item;
  readonly problem: string;
}

/** Why a bundle the agents load fails `check` while the store cannot be read: its receipt, if any, is unknown. */
export const STORE_UNAVAILABLE_PROBLEM = 'the trust store is unavailable, so it counts as not trusted';

/**
 * The gate for CI or a pre-launch hook: every bundle an agent would load is trusted at
 * its current hashes, and nothing enabled has drifted. Rivumi loads its plugins (and,
 * when opted in, its hooks) without asking, so those must be trusted; Codewhale loads
 * only enabled bundles, so an enabled bundle must still match its receipt.
 *
 * With the trust store unavailable the same bundles are chosen, by the same `loads`: the
 * index has already decided them fail-closed (gates.ts: no receipt, nothing enabled), so a
 * rejected, display-only or shadowed bundle is never named as one the agents load. The gate
 * still fails then, listed or not: `checkPasses`.
 */
export function check(snapshot: Snapshot): CheckFailure[] {
  const failures: CheckFailure[] = [];
  // [Skillgate] What Skillgate failed to read (a `skillgate.internal` fault) cannot be vouched for, enabled or not.
  const faulted = new Set(
    snapshot.diagnostics.filter((d) => d.code === 'skillgate.internal' && d.itemId !== null).map((d) => d.itemId),
  );
  for (const item of snapshot.items) {
    if (faulted.has(item.id)) {
      failures.push({
        item,
        problem: 'Skillgate could not read it (internal error), so it cannot say what the agent would load',
      });
      continue;
    }
    // Before the trust unit test: a unit left unread has no hashes, so no trust, yet the agent may load it.
    const unread = unreadUnitProblem(item);
    if (unread !== null) {
      failures.push({ item, problem: unread });
      continue;
    }
    if (item.trust === null) continue;
    if (!systemOf(item.system).loads(item)) continue;
    const notCovered = item.detail.notCovered ?? [];
    if (notCovered.length > 0) failures.push({ item, problem: `it cannot be trusted: ${notCovered.join('; ')}` });
    else if (item.decision === 'rejected')
      failures.push({ item, problem: `it is invalid (${item.reasons.join(', ')})` });
    else if (snapshot.trustProblem)
      // Its trust reads `not-reviewed` only because no receipt can be read: not "it is not reviewed".
      failures.push({ item, problem: STORE_UNAVAILABLE_PROBLEM });
    else if (item.trust !== 'trusted')
      failures.push({
        item,
        problem:
          item.trust === 'not-reviewed' ? 'it is not reviewed' : `it changed since it was trusted (${item.trust})`,
      });
  }
  return failures;
}

/**
 * Why no one can vouch for this unit the agent may load, Skillgate's own limits having left it
 * unread (AgentSystem `unreadByOwnLimits`), else null: `check` fails it, a lock cannot pin it.
 */
export function unreadUnitProblem(item: Item): string | null {
  return systemOf(item.system).unreadByOwnLimits?.unit(item) ?? null;
}

/**
 * Whether `check` passes with these failures (`check(snapshot)`). A trust store that cannot
 * be read fails it whenever there is a bundle at all (trust.md "Fail closed"): no receipt can
 * be read, so no bundle can be vouched for, even when none of them is one the agents load.
 */
export function checkPasses(snapshot: Snapshot, failures: readonly CheckFailure[]): boolean {
  return (
    failures.length === 0 &&
    !(snapshot.trustProblem && snapshot.items.some((i) => i.trust !== null)) &&
    unreadPlaces(snapshot).length === 0
  );
}

/**
 * Where Skillgate left files unread by limits of its own that the agent does not have, with
 * no item to name (files past a per-directory cap; AgentSystem `unreadByOwnLimits`). The agent
 * may load what is there and no one has seen it, so `check` and `check --lock` fail while any
 * is listed, whatever the bundles they name: like an unreadable store, no bundle's problem.
 */
export function unreadPlaces(snapshot: Pick<Snapshot, 'diagnostics'>): Diagnostic[] {
  return agentSystems().flatMap((s) => s.unreadByOwnLimits?.places(snapshot.diagnostics) ?? []);
}

/** Why an unread place fails the gate: one wording for the count `check` says and each place SARIF names. */
const LEFT_UNREAD = "left unread by Skillgate's own limits, which the agents do not have";
const NOT_VOUCHED = 'nothing there can be vouched for';

/** What `check` says of the unread places, once (null when there are none). */
export function unreadPlacesProblem(places: readonly Diagnostic[]): string | null {
  return places.length === 0
    ? null
    : `${places.length} place(s) the agents read were ${LEFT_UNREAD} (\`skillgate validate\` names them), so ${NOT_VOUCHED}`;
}

/** What `check --lock`'s SARIF says at one unread place: the diagnostic's own words, then why the gate fails there. */
export function unreadPlaceProblem(place: Diagnostic): string {
  return `${place.message.replace(/\.$/, '')}. The agents read this place; it was ${LEFT_UNREAD}, so ${NOT_VOUCHED}.`;
}
