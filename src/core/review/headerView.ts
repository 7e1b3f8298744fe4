import { DECISION_TEXT } from '../decisions/reasonText';
import { isLoadedUnreviewed } from '../decisions/loadedUnreviewed';
import { hasEnableSwitch } from '../trust/enableSwitch';
import { placedPath } from '../report/folderPlace';
import type { Snapshot } from '../index/snapshot';
import type { Item } from '../model';
import type { ReviewReport } from '../trust/reviewBundle';
import { reasonTextOf, systemOf } from '../systems/registry';
import type { ReviewViewModel } from './reviewModel';
import type { ShowText } from './shown';

/** The unit as the panel's header names it: its decision and reasons as the index sees it now (`current`), its trust as reviewed. */
export function headerView(r: ReviewReport, current: Item, snapshot: Snapshot, S: ShowText): ReviewViewModel['header'] {
  const item = r.item;
  return {
    name: S(item.name),
    system: item.system,
    icon: systemOf(item.system).icon,
    kind: item.kind,
    scope: item.scope,
    // With several workspace folders, after the folder's name: two folders can hold the same relative path.
    path: S(placedPath(item, item.path, snapshot.workspaces)),
    decision: current.decision,
    decisionText: DECISION_TEXT[current.decision],
    reasons: current.reasons.map((code) => ({ code, text: reasonTextOf(current, code) })),
    trust: r.status,
    enabled: hasEnableSwitch(item) ? r.enabled : null,
    loadedUnreviewed: isLoadedUnreviewed(current),
    compatibility: item.compatibility,
    description: item.detail.description ? S(item.detail.description) : null,
  };
}
