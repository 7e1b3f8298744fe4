import { enableBlockedBy, noEnableSwitchNotice } from '../trust/enableSwitch';
import type { Item } from '../model';
import type { ReviewReport } from '../trust/reviewBundle';
import type { ReviewViewModel } from './reviewModel';
import { ownWords, type ShowText } from './shown';

/** Shown under the buttons in Restricted Mode: what stays available and why (README "Restricted Mode"). */
export const RESTRICTED_NOTICE =
  'Restricted Mode: Trust and Enable are unavailable until you trust this workspace. Disable and Revoke stay available: they only reduce what runs.';
/** The same, when there is nothing to disable or revoke. */
export const RESTRICTED_NOTICE_NOTHING_TO_REDUCE =
  'Restricted Mode: Trust and Enable are unavailable until you trust this workspace.';
/** The same for a unit whose agent has no enable switch (Rivumi, Eva-CLI): the panel offers Trust and Revoke only. */
export const RESTRICTED_NOTICE_TRUST_ONLY =
  'Restricted Mode: Trust is unavailable until you trust this workspace. Revoke stays available: it only reduces what runs.';
/** The same, when there is nothing to revoke. */
export const RESTRICTED_NOTICE_TRUST_ONLY_NOTHING_TO_REDUCE =
  'Restricted Mode: Trust is unavailable until you trust this workspace.';

/**
 * Which of the panel's buttons work, and why not. Trust and enable add what runs: refused
 * in Restricted Mode and for a unit that cannot be trusted (an invalid manifest), with a
 * visible sentence. Disable and revoke only reduce what runs: available whenever there
 * is something to disable or revoke, in Restricted Mode too.
 */
export function reviewActions(
  r: ReviewReport,
  current: Pick<Item, 'decision' | 'reasons'>,
  workspaceTrusted: boolean,
  enableSwitch: boolean,
  S: ShowText,
): ReviewViewModel['actions'] {
  const restricted = workspaceTrusted ? null : ownWords('Restricted Mode: trust this workspace first');
  // The refusal names the bundle and quotes its first error: repository text, shown as a notice and
  // as the tooltips, one string counted once.
  const refused = r.trustable ? null : S(r.trustRefusal ?? 'This bundle cannot be trusted.');
  const blocked = restricted ?? refused;
  const said = (text: string | null) => (text === null ? null : ownWords(text));
  const trustWhy =
    blocked ??
    said(
      r.status === 'trusted'
        ? 'Already trusted at these hashes'
        : r.reviewToken === null
          ? 'No review token: the bundle cannot be hashed'
          : current.decision === 'rejected'
            ? `Rejected (${current.reasons.join(', ')}): see Diagnostics`
            : null,
    );
  // A trusted bundle that enable would refuse: said in a notice too, since a disabled button's tooltip is not read by keyboard or touch.
  const stateBlock =
    blocked === null && enableSwitch && !r.enabled && r.status === 'trusted'
      ? enableBlockedBy({ reasons: current.reasons, compatibility: r.item.compatibility })
      : null;
  const enableWhy =
    blocked ??
    said(r.enabled ? 'Already enabled' : r.status !== 'trusted' ? 'Trust exactly this review first' : stateBlock);
  return {
    trust: { enabled: trustWhy === null, why: trustWhy },
    // Rivumi has no enable switch (decisions/enableSwitch.ts): Trust only, and a sentence on how it is switched off.
    enable: enableSwitch ? { enabled: enableWhy === null, why: enableWhy } : null,
    disable: enableSwitch ? { enabled: r.enabled, why: r.enabled ? null : ownWords('Not enabled') } : null,
    revoke: {
      enabled: r.receipt !== null,
      why: r.receipt !== null ? null : ownWords('Not reviewed: there is no trust to revoke'),
    },
    notices: [
      ...(refused ? [refused] : []),
      ...[
        restricted ? restrictedNotice(enableSwitch, r.enabled || r.receipt !== null) : null,
        stateBlock === null ? null : `Trusted, but it cannot be enabled. ${stateBlock}.`,
        // Said of the unit as the index sees it now: whether the agent loads it is its current decision.
        enableSwitch ? null : noEnableSwitchNotice({ ...r.item, decision: current.decision }),
      ]
        .filter((n): n is string => n !== null)
        .map(ownWords),
    ],
  };
}

/** The Restricted Mode notice: it names the buttons the panel has, and offers to reduce what runs only when there is something to. */
function restrictedNotice(enableSwitch: boolean, canReduce: boolean): string {
  if (enableSwitch) return canReduce ? RESTRICTED_NOTICE : RESTRICTED_NOTICE_NOTHING_TO_REDUCE;
  return canReduce ? RESTRICTED_NOTICE_TRUST_ONLY : RESTRICTED_NOTICE_TRUST_ONLY_NOTHING_TO_REDUCE;
}
