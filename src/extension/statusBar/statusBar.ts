import * as vscode from 'vscode';
import { statusSummary } from './statusText';
import { failureStatus } from '../tree/indexFailureText';
import type { Snapshot } from '../../core/index/snapshot';

const BACKGROUND = { error: 'statusBarItem.errorBackground', warning: 'statusBarItem.warningBackground' } as const;

/** Active / needs review / rejected at a glance, coloured by the worst; a click shows the worst state's bundles. */
export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('skillgate.status', vscode.StatusBarAlignment.Left, 50);

  constructor() {
    this.item.name = 'Skillgate';
  }

  /** `failure`: no index could be read, for this reason (tree/indexFailureText.ts): said, never shown as no bundles. */
  update(snapshot: Snapshot, failure?: string): void {
    if (failure !== undefined) {
      const f = failureStatus(failure);
      this.item.text = f.text;
      this.item.tooltip = f.tooltip;
      this.item.command = { command: 'skillgate.refresh', title: 'Retry' };
      this.item.accessibilityInformation = { label: f.tooltip.split('\n\n').slice(0, 2).join(' ') };
      this.item.backgroundColor = new vscode.ThemeColor(BACKGROUND.error);
      this.item.show();
      return;
    }
    if (snapshot.items.length === 0) {
      this.item.hide();
      return;
    }
    const s = statusSummary(snapshot);
    this.item.text = s.text;
    this.item.tooltip = s.tooltip;
    this.item.command = { command: 'skillgate.showFiltered', title: 'Show in Skillgate', arguments: [s.filter] };
    this.item.accessibilityInformation = { label: s.tooltip.split('\n').slice(0, -2).join(', ') };
    this.item.backgroundColor = s.level === 'plain' ? undefined : new vscode.ThemeColor(BACKGROUND[s.level]);
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}
