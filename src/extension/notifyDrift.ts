import * as vscode from 'vscode';
import { notificationText } from './uiText';
import type { ReviewPanels } from './review/reviewPanel';
import type { Item } from '../core/model';

/** Offers "Review changes" when trusted content changes on disk. */
export async function notifyDrift(items: Item[], panels: ReviewPanels): Promise<void> {
  for (const item of items) {
    const what = item.trust === 'capabilities-changed' ? 'what it can do changed' : 'its files changed';
    const choice = await vscode.window.showWarningMessage(
      notificationText(`Skillgate: ${item.name} is no longer trusted: ${what} since your review.`),
      'Review changes',
    );
    if (choice === 'Review changes') panels.open(item);
  }
}
