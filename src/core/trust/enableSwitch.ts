import { systemOf } from '../systems/registry';
import type { Item } from '../model';

/**
 * Only a system whose agent honours an enable switch has one in Skillgate (trust.md
 * "Status", decisions.md): such an agent loads a trusted bundle only when it is enabled.
 * For an agent without one, an enable bit would claim a control that does not exist;
 * its units are trusted or not, and the store's `enabled` field is ignored for them.
 */
export function hasEnableSwitch(item: Pick<Item, 'system'>): boolean {
  return systemOf(item.system).noEnableSwitch === null;
}

/** Why `enable`/`disable` is refused for a unit whose agent has no switch, and how that agent is switched off instead. */
export function noEnableSwitchRefusal(
  item: Pick<Item, 'system' | 'kind' | 'name' | 'path' | 'workspace'>,
  operation: 'enable' | 'disable',
): string {
  return systemOf(item.system).noEnableSwitch?.refusal(item, operation) ?? '';
}

/** The review panel's sentence for a unit without a switch (it offers Trust only); null when its agent has one. */
export function noEnableSwitchNotice(item: Pick<Item, 'system' | 'kind' | 'decision'>): string | null {
  return systemOf(item.system).noEnableSwitch?.notice(item) ?? null;
}

/** A precondition of `enable` that a trusted unit's own state fails (codewhale.md §8.4). */
export type EnableBlock = 'staged_skill_invalid' | 'not_applicable' | 'unsupported';

/**
 * The first precondition of `enable` the unit fails, in the order the agent checks them:
 * a snapshot whose skill cannot be loaded is no verified snapshot (§8.6), then the host,
 * then the components. One rule for `enable` itself (switches.ts, `applicable` as it reads
 * the bundle now) and for the tree and the panel, which do not offer what it would refuse.
 */
export function enableBlock(
  item: Pick<Item, 'reasons' | 'compatibility'>,
  applicable = !item.reasons.includes('not_applicable'),
): EnableBlock | null {
  if (item.reasons.includes('staged_skill_invalid')) return 'staged_skill_invalid';
  if (!applicable) return 'not_applicable';
  if (item.compatibility === 'unsupported') return 'unsupported';
  return null;
}

const ENABLE_BLOCK_TEXT: Record<EnableBlock, string> = {
  staged_skill_invalid: 'A skill in it cannot be loaded: see Diagnostics',
  not_applicable: 'Its [when] conditions do not match this host',
  unsupported: 'It has no supported declarative components to activate',
};

/** Why Enable is not offered for a trusted unit (`enableBlock`, in a panel's words), or null. */
export function enableBlockedBy(item: Pick<Item, 'reasons' | 'compatibility'>): string | null {
  const block = enableBlock(item);
  return block === null ? null : ENABLE_BLOCK_TEXT[block];
}

/**
 * What follows a trust for a unit whose agent has a switch: it waits for Enable (`enableHint`:
 * how to give it), or, where enable would refuse it (`enableBlock`), it never will until that
 * changes, and why. Said by the CLI, the trust confirmation and the editor's notice.
 */
export function afterTrustWithSwitch(item: Pick<Item, 'reasons' | 'compatibility'>, enableHint: string): string {
  const why = enableBlockedBy(item);
  return why === null
    ? `it stays disabled until ${enableHint}`
    : `it stays disabled and cannot be enabled (${why.charAt(0).toLowerCase()}${why.slice(1)})`;
}

/**
 * What trust changes for a unit whose agent has no switch, said after a trust (the CLI and
 * the editor): nothing it loads. Whether the agent loads it now is the unit's decision,
 * not a given: an Eva adapter with `enabled: false`, or a rejected plugin, it does not.
 */
export function afterTrustWithoutSwitch(item: Pick<Item, 'system' | 'decision'>): string {
  const label = systemOf(item.system).label;
  return item.decision === 'registered'
    ? `${label} loads it as before (it has no enable switch); Skillgate now shows it as reviewed`
    : `${label} does not load it now, and trust does not change that (it has no enable switch); Skillgate now shows it as reviewed`;
}
