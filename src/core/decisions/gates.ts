import type { ReasonCode, TrustStatus } from '../model';
import type { ReceiptView, TrustView } from './trustView';

/** The trust gate of one bundle, derived at every index (trust.md "Status"). */
export interface Gate {
  readonly trust: TrustStatus;
  readonly enabled: boolean;
  /** Gate reasons that hold, in the order they are listed on an item. */
  readonly reasons: ReasonCode[];
}

export interface GateInput {
  /** Null for a unit with no identity (a `.rivumi` Skillgate failed to read): no receipt can be its. */
  readonly bundleKey: string | null;
  readonly contentHash: string | null;
  readonly capabilityHash: string | null;
  /** False for a system without an enable switch (enableSwitch.ts): no `not_enabled` reason. Default true. */
  readonly enableSwitch?: boolean;
}

export interface GateContext {
  readonly trust: TrustView;
  /** False in VS Code Restricted Mode: nothing may be trusted or enabled. */
  readonly workspaceTrusted: boolean;
}

/**
 * A receipt's status at the current hashes (trust.md "Status"): the one derivation, used by
 * the index gate and by every lifecycle operation. `capabilities-changed` is checked before
 * `content-changed` (codewhale.md §8.2).
 */
export function statusOf(
  receipt: ReceiptView | null,
  contentHash: string | null,
  capabilityHash: string | null,
): TrustStatus {
  if (!receipt) return 'not-reviewed';
  if (receipt.capabilityHash !== capabilityHash) return 'capabilities-changed';
  if (receipt.contentHash !== contentHash) return 'content-changed';
  return 'trusted';
}

export function trustGate(input: GateInput, ctx: GateContext): Gate {
  const reasons: ReasonCode[] = [];
  // Restricted Mode holds whatever the store says, an unreadable one too (decisions.md: list every reason that holds).
  if (!ctx.workspaceTrusted) reasons.push('workspace_untrusted');
  if (!ctx.trust.available)
    return { trust: 'not-reviewed', enabled: false, reasons: [...reasons, 'trust_store_unavailable'] };
  const state = input.bundleKey === null ? undefined : ctx.trust.lookup(input.bundleKey);
  const trust = statusOf(state?.trust ?? null, input.contentHash, input.capabilityHash);
  const enabled = state?.enabled ?? false;
  if (trust === 'not-reviewed') reasons.push('not_reviewed');
  else if (trust === 'capabilities-changed') reasons.push('capabilities_changed');
  else if (trust === 'content-changed') reasons.push('content_changed');
  if (!enabled && input.enableSwitch !== false) reasons.push('not_enabled');
  return { trust, enabled, reasons };
}
