import { portableRelative } from '../../fs/portablePath';
import type { Item } from '../../model';
import type { AgentSystem } from '../agentSystem';
import { EvaIndex, type EvaIndexOptions } from './evaIndex';
import { explainEva } from './explainEva';
import { evaReviewContract } from './reviewContract';
import { evaBoundSkills } from './boundSkills';
import type { EvaItemDetail } from './item';
import { hashEvaTarget, readEvaInvalid, readEvaSource } from './trustUnit';
import { EVA_SYSTEM } from './vocabulary';
import { EVA_UNREAD_BY_OWN_LIMITS } from './ownLimits';

/** Where to switch an Eva skill off: its manifest, as the user reads it. */
function manifestOf(item: Pick<Item, 'path' | 'workspace'>): string {
  return item.workspace === null ? item.path : portableRelative(item.workspace, item.path);
}

/**
 * Eva-CLI: skill adapters and `lua_skill` manifests of each Eva project (`config/eva.yaml`)
 * and the user's skill folders (docs/eva.md). Eva decides by its own rules and honours
 * only its manifest's `enabled`, so Skillgate has no enable switch for it: a unit Eva
 * would register must be trusted at its current hashes.
 */
export const eva: AgentSystem<EvaIndexOptions> = {
  id: EVA_SYSTEM,
  label: 'Eva-CLI',
  icon: 'hubot',
  bundleIcon: 'symbol-event',
  // Eva reads `config/`, a common folder name: the index names exactly what to watch (watchedTrees).
  workspaceRoots: [],
  lookedFor: 'config/eva.yaml',
  noEnableSwitch: {
    refusal: (item) => `Eva-CLI reads "enabled" from the manifest; edit ${manifestOf(item)} to change it`,
    notice: () =>
      'Eva-CLI has no Skillgate enable switch: it registers this skill by its own rules whether or not you trust it, and honours only the manifest\'s "enabled". Trust records that you reviewed exactly these bytes; to switch it off, set enabled: false in the manifest.',
  },
  reasonText: {
    disabled_by_manifest: 'Its manifest says enabled: false, so Eva-CLI does not register it.',
    loaded_unreviewed:
      'Eva-CLI registers it by its own rules whatever Skillgate says, and it is not trusted at its current hashes: review it, then trust it.',
  },
  unitLabel: (item) => (item.kind === 'lua-skill' ? 'Eva lua_skill' : 'Eva skill adapter'),
  trustUnitsInWords: 'Eva skill adapters and lua_skills',
  createIndex: (options) => new EvaIndex(options),
  // What Eva registers by its own design, whatever Skillgate's trust says (eva.md §4.6); `check`
  // asks this of trust units only, so a user skill (no trust unit) never reaches it.
  loads: (item) => (item.detail as Partial<EvaItemDetail>).eva?.evaDecision === 'registered',
  unreadByOwnLimits: EVA_UNREAD_BY_OWN_LIMITS,
  readSource: (item) => readEvaSource(item),
  readInvalid: (item, reviewed) => readEvaInvalid(item, reviewed),
  hashTarget: (abs, shown) => hashEvaTarget(abs, shown),
  hashTargetHint: 'an Eva skill manifest (a transport: skill adapter or a kind: lua_skill capability under config/)',
  explain: explainEva,
  reviewContract: evaReviewContract,
  boundSkills: evaBoundSkills,
  hooks: null,
  agentTrustCommand: () => null,
  reviewAgainHint: (item) => `run \`skillgate review ${item.name}\` again`,
};
