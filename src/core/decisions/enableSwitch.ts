import type { Item, System } from '../model';

/**
 * Only a system whose agent honours an enable switch has one in Skillgate (trust.md
 * "Status", decisions.md): Codewhale loads a trusted bundle only when it is enabled.
 * Rivumi loads every plugin it finds and runs hooks whenever the opt-in is set, so an
 * enable bit there would claim a control that does not exist; its bundles are trusted
 * or not, and the store's `enabled` field is ignored for them.
 */
export const HAS_ENABLE_SWITCH: Record<System, boolean> = {
  codewhale: true,
  rivumi: false,
};

export function hasEnableSwitch(item: Pick<Item, 'system'>): boolean {
  return HAS_ENABLE_SWITCH[item.system];
}

/** Why `enable`/`disable` is refused for a bundle whose agent has no switch, and how that agent is switched off instead. */
export function noEnableSwitchRefusal(item: Pick<Item, 'system' | 'kind' | 'name'>, operation: 'enable' | 'disable'): string {
  const off =
    item.kind === 'hooks'
      ? 'To stop Rivumi running these hooks, remove or rename .rivumi/hooks.json (or leave RIVUMI_ENABLE_PROJECT_HOOKS unset).'
      : `To switch ${item.name} off, remove its manifest from .rivumi/plugins/ or rename it so it no longer ends in .json.`;
  return `Rivumi has no enable switch, so Skillgate cannot ${operation} \`${item.name}\`: Rivumi loads every plugin in .rivumi/plugins/, and runs .rivumi/hooks.json and plugin hooks whenever RIVUMI_ENABLE_PROJECT_HOOKS=1, whatever Skillgate says. ${off} To vouch for it as it is, review and trust it.`;
}

/** The review panel's sentence for a bundle without a switch: it offers Trust only. */
export function noEnableSwitchNotice(item: Pick<Item, 'kind'>): string {
  return item.kind === 'hooks'
    ? 'Rivumi has no enable switch: with RIVUMI_ENABLE_PROJECT_HOOKS=1 it runs these hooks whether or not you trust them. Trust records that you reviewed exactly these bytes; to stop Rivumi running them, remove or rename .rivumi/hooks.json.'
    : 'Rivumi has no enable switch: it loads this plugin whether or not you trust it. Trust records that you reviewed exactly these bytes; to switch it off, remove or rename its manifest in .rivumi/plugins/.';
}
