import * as vscode from 'vscode';
import { displayText } from '../core/text/displayText';
import { fileUri } from './fileUri';
import { editorRange } from './editorRange';
import { itemById, type Snapshot } from '../core/index/snapshot';
import type { Diagnostic } from '../core/model';
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
    // This file's diagnostics by line and code, read once per request and only for one of ours:
    // a selection may hold thousands of diagnostics, and the snapshot hundreds of thousands.
    let here: Map<string, Diagnostic[]> | undefined;
    for (const shown of context.diagnostics) {
      if (shown.source !== 'skillgate') continue;
      const code = typeof shown.code === 'object' ? shown.code.value : shown.code;
      here ??= byLineAndCode(s.diagnostics, document.uri.fsPath);
      const same = here.get(at(shown.range.start.line, code)) ?? [];
      // Every diagnostic of a bundle also offers its review panel.
      const owner = same[0]?.itemId;
      const item = owner ? itemById(s, owner) : undefined;
      const bundle = item && item.trust !== null ? item : undefined;
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
      const d = same.find((x) => x.fix && x.range.start.character === shown.range.start.character);
      if (!d?.fix) continue;
      // The fix's ranges are places in the file as it was indexed, from the disk: in an editor
      // with unsaved changes they may name other text, and replacing it would corrupt the file.
      // (A disabled action would say why, but VS Code's Ctrl+. menu leaves disabled quick fixes out.)
      if (d.fix.edits.some((e) => isUnsaved(fileUri(e.file)))) continue;
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

/** The diagnostics of one file, by line and code. */
function byLineAndCode(diagnostics: readonly Diagnostic[], file: string): Map<string, Diagnostic[]> {
  const here = new Map<string, Diagnostic[]>();
  for (const x of diagnostics) {
    if (x.file !== file) continue;
    const key = at(x.range.start.line, x.code);
    const same = here.get(key);
    if (same) same.push(x);
    else here.set(key, [x]);
  }
  return here;
}

/** A diagnostic's place in its file for the lookup above: its line and its code. */
function at(line: number, code: unknown): string {
  return `${line}\0${String(code)}`;
}

/** Whether an editor holds changes to the file that are not saved yet. */
function isUnsaved(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.workspace.textDocuments.some((d) => d.isDirty && d.uri.toString() === key);
}
