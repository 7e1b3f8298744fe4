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

/** Names listed in the drift notification before "and N more": a notification is one or two lines. */
const NAMED_IN_NOTICE = 3;

/**
 * The one notification for the bundles that drifted in one snapshot (`newlyDrifted`): a
 * checkout can change many at once, and one notification each queued them behind each
 * other (VS Code's notification guidelines: "If you need to show multiple notifications try
 * to combine them into one"). One bundle reads as it always did. Names are repository text:
 * the caller escapes the whole message (text/uiText.ts `notificationText`).
 */
export function driftMessage(items: readonly Item[]): string {
  const first = items[0];
  if (items.length === 1 && first)
    return `Skillgate: ${first.name} is no longer trusted: ${first.trust === 'capabilities-changed' ? 'what it can do changed' : 'its files changed'} since your review.`;
  const names = items.slice(0, NAMED_IN_NOTICE).map((i) => i.name);
  const more = items.length - names.length;
  const listed =
    more > 0
      ? `${names.join(', ')} and ${more} more`
      : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;
  const capabilities = items.filter((i) => i.trust === 'capabilities-changed').length;
  const what =
    capabilities === 0
      ? ''
      : capabilities === items.length
        ? ', all of them in what they can do'
        : `, ${capabilities} of them in what ${capabilities === 1 ? 'it' : 'they'} can do`;
  return `Skillgate: ${items.length} bundles are no longer trusted: ${listed} changed since your review${what}.`;
}

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

/** `registered` with `loaded_unreviewed` first: the agent loads it, unreviewed (a risk, shown in the warning colour). */
export function isLoadedUnreviewed(item: Item): boolean {
  return item.decision === 'registered' && item.reasons[0] === 'loaded_unreviewed';
}

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
