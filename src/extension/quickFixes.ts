import * as vscode from 'vscode';
import { displayText } from '../core/text/displayText';
import { fileUri } from './fileUri';
import { editorRange } from './editorRange';
import type { Snapshot } from '../core/index/snapshot';
import { DiagnosticsDoc } from './diagnosticsDoc';

/**
 * Quick fixes where the fix is unambiguous. The core computes each fix with its
 * diagnostic; this provider only offers it for the diagnostic under the cursor. Every
 * Skillgate diagnostic also offers its bundle's review and its documentation.
 */
export class QuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly snapshot: () => Snapshot | undefined) {}

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const s = this.snapshot();
    if (!s) return [];
    const actions: vscode.CodeAction[] = [];
    const reviewed = new Set<string>();
    for (const shown of context.diagnostics) {
      if (shown.source !== 'skillgate') continue;
      const code = typeof shown.code === 'object' ? shown.code.value : shown.code;
      // Every diagnostic of a bundle also offers its review panel.
      const owner = s.diagnostics.find(
        (x) => x.file === document.uri.fsPath && x.code === code && x.range.start.line === shown.range.start.line,
      )?.itemId;
      const bundle = owner ? s.items.find((i) => i.id === owner && i.trust !== null) : undefined;
      if (bundle && !reviewed.has(bundle.id)) {
        reviewed.add(bundle.id);
        const review = new vscode.CodeAction(
          `Review ${displayText(bundle.name)} in Skillgate`,
          vscode.CodeActionKind.QuickFix,
        );
        review.diagnostics = [shown];
        review.command = { command: 'skillgate.review', title: 'Review Bundle', arguments: [bundle.id] };
        actions.push(review);
      }
      if (typeof code === 'string' || typeof code === 'number') {
        const docs = new vscode.CodeAction(
          `Show the documentation for ${String(code)}`,
          vscode.CodeActionKind.QuickFix,
        );
        docs.diagnostics = [shown];
        docs.command = { command: DiagnosticsDoc.command, title: 'Show the documentation', arguments: [String(code)] };
        actions.push(docs);
      }
      const d = s.diagnostics.find(
        (x) =>
          x.fix &&
          x.file === document.uri.fsPath &&
          x.code === code &&
          x.range.start.line === shown.range.start.line &&
          x.range.start.character === shown.range.start.character,
      );
      if (!d?.fix) continue;
      const action = new vscode.CodeAction(displayText(d.fix.title), vscode.CodeActionKind.QuickFix);
      action.diagnostics = [shown];
      action.isPreferred = true;
      action.edit = new vscode.WorkspaceEdit();
      for (const e of d.fix.edits) action.edit.replace(fileUri(e.file), editorRange(e.range), e.newText);
      actions.push(action);
    }
    return actions;
  }
}
