import type { Snapshot } from '../../core/index/snapshot';
import type { Item } from '../../core/model';

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
