import { hasEnableSwitch } from '../trust/enableSwitch';
import type { Snapshot } from '../index/snapshot';
import type { ReviewReport } from '../trust/reviewBundle';
import { capabilitiesUnknown, hashesNotComputable } from './missingHashes';
import { shownStrings } from './shown';
import { headerView } from './headerView';
import { changesView } from './changesView';
import { capabilitiesView } from './capabilitiesView';
import { contractView } from './contractView';
import { fileViews } from './fileViews';
import { diagnosticsView } from './diagnosticsView';
import { reviewActions } from './reviewActions';
import type { ReviewViewModel } from './reviewModel';

export type { ReviewViewModel, Shown } from './reviewModel';
/** The sentence when the manifest does not load, in the capabilities and in what changed (missingHashes.ts). */
export { CAPABILITIES_UNKNOWN } from './missingHashes';
// The view model's words and limits, for those that import them with it (its tests).
export { shown } from './shown';
export { FILES_REVIEWED_ONLY } from './changesView';
export { MAX_REVIEW_DIAGNOSTICS } from './diagnosticsView';
export {
  RESTRICTED_NOTICE,
  RESTRICTED_NOTICE_NOTHING_TO_REDUCE,
  RESTRICTED_NOTICE_TRUST_ONLY,
  RESTRICTED_NOTICE_TRUST_ONLY_NOTHING_TO_REDUCE,
} from './reviewActions';

/** What the review panel shows of one review, section by section (reviewModel.ts), every bundle string shown escaped. */
export function reviewViewModel(
  r: ReviewReport,
  snapshot: Snapshot,
  hooksOptIn: boolean,
  workspaceTrusted = true,
  now = new Date(),
): ReviewViewModel {
  const item = r.item;
  const strings = shownStrings();
  const S = strings.show;
  // The unit as the index sees it now: its decision, not the review's, says what the agent loads.
  const current = snapshot.items.find((i) => i.id === item.id) ?? item;
  return {
    id: item.id,
    header: headerView(r, current, snapshot, S),
    changes: changesView(r, now, S),
    capabilities: capabilitiesView(r, current, snapshot, hooksOptIn, strings),
    contract: contractView(r, current, S),
    notCovered: r.notCovered.map(S),
    files: fileViews(r, S),
    ...diagnosticsView(r, snapshot, S),
    hashes: {
      content: r.contentHash,
      capability: r.capabilityHash,
      token: r.reviewToken,
      // It names the plugin (a manifest value), though only a valid, ASCII name gets one.
      codewhaleCommand: r.codewhaleTrustLine === null ? null : S(r.codewhaleTrustLine),
      notComputable: hashesNotComputable(r.item),
    },
    // It may name a covered file (`failed to read covered file …`): repository text, escaped.
    capabilitiesUnknown: r.capabilities === null ? S(capabilitiesUnknown(r.item)) : null,
    actions: reviewActions(r, current, workspaceTrusted, hasEnableSwitch(item), S),
    get hiddenCount() {
      return strings.hidden;
    },
  };
}
