import type { Item } from '../model';

/**
 * Loaded although no review covers it: an agent that enforces no trust (Rivumi, Eva-CLI)
 * loads or registers it while it is not trusted at its current hashes. Its decision is
 * `registered` with `loaded_unreviewed` as the primary reason (decisions.md "Reason codes");
 * every face asks this one rule, so what the tree and status bar mark as a risk, what the
 * CLI counts, what the review panel flags and what the API refuses to call active agree.
 */
export function isLoadedUnreviewed(item: Pick<Item, 'decision' | 'reasons'>): boolean {
  return item.decision === 'registered' && item.reasons[0] === 'loaded_unreviewed';
}
