import type { Snapshot } from '../../core/index/snapshot';
import type { Item } from '../../core/model';
import { isLoadedUnreviewed } from '../../core/decisions/loadedUnreviewed';

/**
 * Bundles that need the user's attention, the one list behind the view's badge, its "needs
 * review" filter and the status bar's colour and click: not trusted at their current hashes,
 * and either reviewable (hashed, neither rejected nor shadowed) or loaded by their agent all
 * the same. A loaded unit Skillgate cannot hash is the second kind (eva.md §6.1: `registered`,
 * `loaded_unreviewed`, its receipt if any never matching): no review covers what the agent runs.
 */
export function needsReview(snapshot: Snapshot): Item[] {
  return snapshot.items.filter(
    (i) =>
      i.trust !== null &&
      i.trust !== 'trusted' &&
      (isLoadedUnreviewed(i) || (i.decision !== 'rejected' && i.decision !== 'shadowed' && i.contentHash !== null)),
  );
}
