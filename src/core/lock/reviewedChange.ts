import { review } from '../trust/reviewBundle';
import type { LifecycleContext } from '../trust/lifecycle';
import { capabilityChanges } from '../trust/capabilityChanges';
import type { Item } from '../model';

/**
 * What changed in a bundle's capabilities since the copy the lock pins, when this
 * machine reviewed that copy: a receipt (current or in the history) for this bundle
 * with exactly the locked token holds its capability inventory. Null when no such
 * receipt exists (a CI runner has none): the token pair alone then says only which half
 * changed (cli.md `check --lock`). Reading the store here grants nothing.
 */
export function capabilityChangesSinceLocked(item: Item, lockedToken: string, ctx: LifecycleContext): string[] | null {
  const key = item.detail.bundleKey;
  const state = ctx.store.read();
  if (!key || !state.ok) return null;
  const entry = state.state.bundles[key];
  const receipts = entry ? [...(entry.trust ? [entry.trust] : []), ...entry.reviewHistory] : [];
  const locked = receipts.find((r) => `${r.contentHash}.${r.capabilityHash}` === lockedToken);
  if (!locked) return null;
  const now = review(item, ctx);
  if (!now.ok || now.value.capabilities === null) return null;
  return capabilityChanges(locked.capabilities, now.value.capabilities).map((c) => c.summary);
}
