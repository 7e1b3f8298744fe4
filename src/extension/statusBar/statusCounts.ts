import type { Snapshot } from '../../core/index/snapshot';
import { isLoadedUnreviewed } from '../../core/decisions/loadedUnreviewed';
import { needsReview } from '../tree/needsReview';

/** Counts for the status bar: active, loaded although not reviewed, needs review, rejected (top-level items). */
export function statusCounts(snapshot: Snapshot): {
  active: number;
  loadedUnreviewed: number;
  needsReview: number;
  rejected: number;
} {
  const top = snapshot.items.filter((i) => i.parent === null);
  const loadedUnreviewed = top.filter(isLoadedUnreviewed).length;
  return {
    active: top.filter((i) => i.decision === 'registered').length - loadedUnreviewed,
    loadedUnreviewed,
    needsReview: needsReview(snapshot).length,
    rejected: top.filter((i) => i.decision === 'rejected').length,
  };
}
