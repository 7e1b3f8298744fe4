import * as vscode from 'vscode';
import { driftMessage } from '../flows/driftNotice';
import { chooseBundle } from '../commands/bundlePick';
import { notificationText } from '../text/uiText';
import type { ReviewPanels } from './reviewPanel';
import type { Item } from '../../core/model';
import type { Snapshot } from '../../core/index/snapshot';

const REVIEW_CHANGES = 'Review changes';

/**
 * Offers "Review changes" when trusted content changes on disk: one notification for all the
 * bundles one snapshot drifted (flows/driftNotice.ts `driftMessage`). With several, the
 * action asks which to review, as the palette's Review Bundle does, in the tree rows' words
 * (`snapshot`: the one they drifted in, whose folders tell two bundles of one name apart and
 * which names where a shadowed bundle's winner lives).
 */
export async function notifyDrift(items: Item[], snapshot: Snapshot, panels: ReviewPanels): Promise<void> {
  if (items.length === 0) return;
  const choice = await vscode.window.showWarningMessage(notificationText(driftMessage(items)), REVIEW_CHANGES);
  if (choice !== REVIEW_CHANGES) return;
  const item = items.length === 1 ? items[0] : await chooseBundle(items, snapshot, 'review');
  if (item) panels.open(item);
}
