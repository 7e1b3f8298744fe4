import type { Snapshot } from '../../core/index/snapshot';
import type { Item } from '../../core/model';
import { enableBlockedBy } from '../../core/trust/enableSwitch';

/** Bundles that were trusted in the previous snapshot and no longer are: their content or capabilities changed. */
export function newlyDrifted(previous: Snapshot | undefined, next: Snapshot): Item[] {
  if (!previous) return [];
  const before = new Map(previous.items.filter((i) => i.trust !== null).map((i) => [i.id, i.trust]));
  return next.items.filter(
    (i) => (i.trust === 'content-changed' || i.trust === 'capabilities-changed') && before.get(i.id) === 'trusted',
  );
}

/** Bundles that need the user's review: not trusted at their current hashes, and reviewable. */
export function needsReview(snapshot: Snapshot): Item[] {
  return snapshot.items.filter(
    (i) =>
      i.trust !== null &&
      i.trust !== 'trusted' &&
      i.decision !== 'rejected' &&
      i.decision !== 'shadowed' &&
      i.contentHash !== null,
  );
}

/** Counts for the status bar: active, loaded although not reviewed, needs review, rejected (top-level items). */
export function statusCounts(snapshot: Snapshot): {
  active: number;
  loadedUnreviewed: number;
  needsReview: number;
  rejected: number;
} {
  const top = snapshot.items.filter((i) => i.parent === null);
  const loadedUnreviewed = top.filter(
    (i) => i.decision === 'registered' && i.reasons[0] === 'loaded_unreviewed',
  ).length;
  return {
    active: top.filter((i) => i.decision === 'registered').length - loadedUnreviewed,
    loadedUnreviewed,
    needsReview: needsReview(snapshot).length,
    rejected: top.filter((i) => i.decision === 'rejected').length,
  };
}

/** `contextValue` of a tree item, composed from its state so menus fit it (matched by regex in package.json). */
export function contextValueOf(item: Item): string {
  const parts = ['item', `kind-${item.kind}`, `decision-${item.decision}`];
  if (item.trust !== null) {
    parts.push('bundle', `trust-${item.trust}`);
    if (item.reviewToken) parts.push('token');
    if (item.trust !== 'trusted' && item.reviewToken && item.decision !== 'rejected') parts.push('canTrust');
    // Only a system with an enable switch offers Enable (core/decisions/enableSwitch.ts); Rivumi's `enabled` is null.
    if (item.trust === 'trusted' && item.enabled === false && enableBlockedBy(item) === null) parts.push('canEnable');
    if (item.enabled) parts.push('enabled');
    if (item.trust !== 'not-reviewed') parts.push('hasReceipt');
  }
  return parts.join(' ');
}
