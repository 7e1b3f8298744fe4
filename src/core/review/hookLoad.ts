import { childrenOf, type Snapshot } from '../index/snapshot';

/**
 * Whether the agent's hook load fails for a unit: a hook of it is rejected. Rivumi's hook
 * load is fail-fast (decisions.md "Precedence and shadowing"): with the opt-in set it then
 * runs none of the unit's hooks, so a review must not say they run now.
 */
export function hookLoadFails(snapshot: Snapshot, unitId: string): boolean {
  return childrenOf(snapshot, unitId).some((c) => c.kind === 'hook' && c.decision === 'rejected');
}
