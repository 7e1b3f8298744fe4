import { afterTrustWithSwitch, afterTrustWithoutSwitch, hasEnableSwitch } from '../../core/trust/enableSwitch';
import { systemOf } from '../../core/systems/registry';
import { trustEssentials } from '../../core/review/trustEssentials';
import { shortToken } from '../../core/report/shortToken';
import type { Item } from '../../core/model';
import type { GatePort, LifecyclePort, UiPort } from './ports';

export type TrustOutcome = 'trusted' | 'refused' | 'cancelled' | 'review-first';

/** Restricted Mode refuses what adds trust or activation; disable and revoke stay allowed (README "Restricted Mode"). */
export const RESTRICTED_TRUST = 'Restricted Mode: trust this workspace in VS Code before trusting its bundles.';
export const RESTRICTED_ENABLE = 'Restricted Mode: trust this workspace in VS Code before enabling its bundles.';

/** What trust changes: a bundle with an enable switch waits for Enable (or cannot be enabled); for an agent without one, nothing it loads. */
function afterTrust(item: Item): string {
  if (!hasEnableSwitch(item)) return afterTrustWithoutSwitch(item);
  const next = afterTrustWithSwitch(item, 'you enable it');
  return next.charAt(0).toUpperCase() + next.slice(1);
}

/** What trust does for this agent, said honestly in the confirmation (README "Rivumi: trust without an enable switch"). */
export function trustMeaning(item: Item): string {
  return hasEnableSwitch(item)
    ? `Trusting starts nothing: ${afterTrustWithSwitch(item, 'you enable it')}.`
    : item.decision === 'registered'
      ? `${systemOf(item.system).label} already loads this; trusting records your review and lets \`skillgate check\` pass. It does not switch anything on or off.`
      : `${systemOf(item.system).label} does not load this now; trusting records your review and does not switch anything on or off.`;
}

/**
 * What revoking changes, said in its confirmation: a bundle with an enable switch stops
 * running; for an agent without one, nothing it loads, named for that agent, and what it
 * does not load now is never said to be loaded still.
 */
export function revokeMeaning(item: Item): string {
  if (hasEnableSwitch(item)) return 'the bundle stays inactive until you review and trust it again.';
  const label = systemOf(item.system).label;
  return item.decision === 'registered'
    ? `${label} still loads it; Skillgate shows it as loaded and not reviewed until you review and trust it again.`
    : `${label} does not load it now, and revoking does not change that; Skillgate shows it as not reviewed until you review and trust it again.`;
}

const ENABLE_AGAIN = 'Enable again';

/**
 * Trust happens only after the review was shown, for exactly the token shown: the
 * lifecycle reads the bundle once and refuses, with a typed reason, when it moved on
 * since ("changed since you opened this review"). Restricted Mode refuses outright. A
 * modal, built from that one read, names the bundle and token before anything is written.
 */
export async function trustFlow(
  item: Item,
  token: string | undefined,
  ports: { ui: UiPort; gate: GatePort; lifecycle: LifecyclePort },
): Promise<TrustOutcome> {
  const { ui, gate, lifecycle } = ports;
  if (!gate.workspaceTrusted()) {
    ui.error(RESTRICTED_TRUST);
    return 'refused';
  }
  const shown = token ?? gate.shownToken(item.id);
  if (!shown) return 'review-first';
  const changed = `${item.name} changed since you opened this review; review it again before trusting it.`;
  // A stale panel's message: not the token the panel shows now.
  if (token !== undefined && token !== gate.shownToken(item.id)) {
    ui.error(changed);
    return 'refused';
  }
  const r = await lifecycle.trust(item, shown, (preview) =>
    ui.confirm(
      `Trust ${item.name}?`,
      [
        `You are trusting exactly the ${item.system} bundle you reviewed (review token ${shortToken(shown)}).`,
        '',
        ...trustEssentials(preview, gate.hooksOptIn(item)),
        '',
        `${trustMeaning(item)} Any later change to it drops this trust.`,
      ].join('\n'),
      'Trust',
      { safeDefault: true },
    ),
  );
  if (!r.ok) {
    if (r.reason === 'cancelled') return 'cancelled';
    // An invalid bundle is refused for what it is now, whatever token a stale panel sent.
    ui.error(r.reason === 'token-mismatch' ? changed : r.message);
    return 'refused';
  }
  // Trust resets the enable bit by design (trust.md "Enable"); a bundle that was on before the change is offered back in one step.
  if (r.value.preview.enabled && r.value.preview.reviewedBefore) {
    if (
      await ui.offer(
        `Trusted ${item.name}. It was enabled before this change; trusting turned it off, as every re-review does. Enable it again?`,
        ENABLE_AGAIN,
      )
    )
      await enableFlow(item, ports);
  } else ui.info(`Trusted ${item.name}. ${afterTrust(item)}.`);
  return 'trusted';
}

export async function enableFlow(
  item: Item,
  ports: { ui: UiPort; gate: GatePort; lifecycle: LifecyclePort },
): Promise<boolean> {
  if (!ports.gate.workspaceTrusted()) {
    ports.ui.error(RESTRICTED_ENABLE);
    return false;
  }
  const r = await ports.lifecycle.enable(item);
  if (!r.ok) {
    ports.ui.error(r.message);
    return false;
  }
  ports.ui.info(`Enabled ${item.name}.${r.value.note ? ` ${r.value.note}` : ''}`);
  return true;
}
