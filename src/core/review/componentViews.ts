import { displayText } from '../text/displayText';
import type { Item } from '../model';
import type { ReviewReport } from '../trust/reviewBundle';
import { notActiveBecause } from './notActiveBecause';
import type { ReviewViewModel } from './reviewModel';
import type { ShowText } from './shown';

/**
 * The bundle's components, each with whether it will be active and why not; then
 * `filesystem-roots` and `lifecycle-mutation`, which no component path declares, when its
 * agent lists them as never active.
 */
export function componentViews(
  r: ReviewReport,
  current: Pick<Item, 'decision' | 'reasons'>,
  bundleActive: boolean,
  S: ShowText,
): ReviewViewModel['capabilities']['components'] {
  const item = r.item;
  const inactive = new Set(item.detail.activation?.inactiveComponents ?? []);
  const component = (kind: string, paths: readonly string[]) => {
    const never = inactive.has(kind);
    return {
      kind: displayText(kind),
      inactive: never,
      active: !never && bundleActive,
      activity: never
        ? `never active: ${item.system} lists it but does not activate it`
        : bundleActive
          ? 'active: the agent loads it'
          : `not active: ${notActiveBecause(current)}`,
      paths: paths.map(S),
    };
  };
  const components = Object.entries(r.capabilities?.components ?? {}).map(([kind, paths]) => component(kind, paths));
  for (const kind of ['filesystem-roots', 'lifecycle-mutation'])
    if (inactive.has(kind)) components.push(component(kind, []));
  return components;
}
