import type { Item } from '../../core/model';
import { enableBlockedBy } from '../../core/trust/enableSwitch';

/** `contextValue` of a tree item, composed from its state so menus fit it (matched by regex in package.json). */
export function contextValueOf(item: Item): string {
  const parts = ['item', `kind-${item.kind}`, `decision-${item.decision}`];
  if (item.trust !== null) {
    parts.push('bundle', `trust-${item.trust}`);
    if (item.reviewToken) parts.push('token');
    if (item.trust !== 'trusted' && item.reviewToken && item.decision !== 'rejected') parts.push('canTrust');
    // Only a system with an enable switch offers Enable (core/trust/enableSwitch.ts); Rivumi's `enabled` is null.
    if (item.trust === 'trusted' && item.enabled === false && enableBlockedBy(item) === null) parts.push('canEnable');
    if (item.enabled) parts.push('enabled');
    if (item.trust !== 'not-reviewed') parts.push('hasReceipt');
  }
  return parts.join(' ');
}
