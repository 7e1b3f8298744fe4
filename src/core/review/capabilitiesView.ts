import type { Snapshot } from '../index/snapshot';
import type { Item } from '../model';
import type { ReviewReport } from '../trust/reviewBundle';
import { systemOf } from '../systems/registry';
import { hookLoadFails } from './hookLoad';
import { mcpServerViews } from './mcpServerViews';
import { hookViews } from './hookViews';
import { commandViews, skillViews } from './skillAndCommandViews';
import { componentViews } from './componentViews';
import type { ReviewViewModel } from './reviewModel';
import type { ShownStrings } from './shown';

/**
 * What the unit can do, section by section; `current` is the unit as the index sees it now,
 * whose decision says whether its servers start and its components are active.
 */
export function capabilitiesView(
  r: ReviewReport,
  current: Item,
  snapshot: Snapshot,
  hooksOptIn: boolean,
  strings: ShownStrings,
): ReviewViewModel['capabilities'] {
  const agent = systemOf(r.item.system);
  const bundleActive = current.decision === 'registered';
  const hooks = hookViews(r, strings.show);
  const agentHooks = hooks.length > 0 ? agent.hooks : undefined;
  return {
    mcp: mcpServerViews(r, current, bundleActive, strings.show),
    networkHosts: (r.capabilities?.networkHosts ?? []).map(strings.show),
    hooks,
    hooksOptIn: agentHooks ? hooksOptIn : null,
    hooksOptInText: agentHooks ? agentHooks.optInNow(hooksOptIn, hookLoadFails(snapshot, current.id)) : null,
    hooksWhen: agentHooks ? agentHooks.when : null,
    skills: skillViews(r, strings),
    commands: commandViews(r, strings),
    components: componentViews(r, current, bundleActive, strings.show),
  };
}
