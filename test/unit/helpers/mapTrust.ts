import type { BundleStateView, TrustView } from '../../../src/core/decisions/trustView';

/**
 * A trust view over a map the test edits between indexes (bundle key → state), for the
 * property tests that grant and revoke trust along random edits: its revision changes
 * with the map's content, as the store's does with its file.
 */
export function mapTrustView(store: ReadonlyMap<string, BundleStateView>): () => TrustView {
  return () => ({
    available: true,
    lookup: (k) => store.get(k),
    revision: JSON.stringify([...store]),
  });
}
