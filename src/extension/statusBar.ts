import * as vscode from 'vscode';
import { statusCounts } from './flows/driftNotice';
import type { Snapshot } from '../core/index/snapshot';

/** Active / needs review / rejected at a glance; a click focuses the Skillgate view. */
export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('skillgate.status', vscode.StatusBarAlignment.Left, 50);

  constructor() {
    this.item.name = 'Skillgate';
    this.item.command = 'skillgate.focus';
  }

  update(snapshot: Snapshot): void {
    const c = statusCounts(snapshot);
    if (snapshot.items.length === 0) {
      this.item.hide();
      return;
    }
    // A bundle the agent loads unreviewed is a live risk: counted on its own, and it turns the item to the warning colour.
    const loaded = c.loadedUnreviewed > 0 ? ` $(warning) ${c.loadedUnreviewed}` : '';
    this.item.text = `$(shield) ${c.active}${loaded} $(eye) ${c.needsReview} $(error) ${c.rejected}`;
    this.item.tooltip = `Skillgate: ${c.active} active, ${c.loadedUnreviewed > 0 ? `${c.loadedUnreviewed} loaded although not reviewed, ` : ''}${c.needsReview} need review, ${c.rejected} rejected`;
    this.item.backgroundColor = snapshot.trustProblem ? new vscode.ThemeColor('statusBarItem.errorBackground') : c.needsReview > 0 || c.loadedUnreviewed > 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
