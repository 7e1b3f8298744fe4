/**
 * What the decisions need from the trust store: the receipt and enable bit of a
 * bundle, by bundle key. The store (trustStore.ts) implements it; tests pass a map.
 */
export interface ReceiptView {
  readonly contentHash: string;
  readonly capabilityHash: string;
}

export interface BundleStateView {
  readonly enabled: boolean;
  readonly trust: ReceiptView | null;
}

export type TrustView =
  | {
      readonly available: true;
      lookup(bundleKey: string): BundleStateView | undefined;
      /** Equal revisions give equal answers (the store's text); absent: never assume so. */
      readonly revision?: string;
    }
  | { readonly available: false; readonly problem: string };

/** No store yet: every bundle is not reviewed and not enabled. */
export const EMPTY_TRUST: TrustView = { available: true, lookup: () => undefined, revision: '' };
