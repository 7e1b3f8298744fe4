import * as vscode from 'vscode';
import { statusSummary } from './statusText';
import type { Snapshot } from '../core/index/snapshot';

const BACKGROUND = { error: 'statusBarItem.errorBackground', warning: 'statusBarItem.warningBackground' } as const;

/** Active / needs review / rejected at a glance, coloured by the worst; a click shows the worst state's bundles. */
export class StatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('skillgate.status', vscode.StatusBarAlignment.Left, 50);

  constructor() {
    this.item.name = 'Skillgate';
  }

  update(snapshot: Snapshot): void {
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
