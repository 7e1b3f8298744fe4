import * as vscode from 'vscode';
import { displayText } from '../core/text/displayText';
import { fileUri } from './fileUri';
import { editorRange } from './editorRange';
import { itemById, type Snapshot } from '../core/index/snapshot';
import type { Diagnostic, Fix } from '../core/model';
import { DiagnosticsDoc } from './diagnosticsDoc';
import { fixIsCurrent } from './fixIsCurrent';

/**
 * Quick fixes where the fix is unambiguous. The core computes each fix with its
 * diagnostic; this provider only offers it for the diagnostic under the cursor, and only
 * while the editor's text of each file it edits is the text it was computed on
 * (fixIsCurrent.ts). Every Skillgate diagnostic also offers its bundle's review and its
 * documentation.
 */
export class QuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly snapshot: () => Snapshot | undefined) {}

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] | Promise<vscode.CodeAction[]> {
    const s = this.snapshot();
    if (!s) return [];
    const actions: Offer[] = [];
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
      if (d?.fix) actions.push(fixAction(d.fix, shown));
    }
    // Only a fix that edits a file no editor holds waits, for that file's document.
    if (!actions.some((a) => a instanceof Promise)) return offered(actions as (vscode.CodeAction | undefined)[]);
    return Promise.all(actions).then(offered);
  }
}

/** An action, a fix not offered, or a fix whose decision waits for the document of a file it edits. */
type Offer = vscode.CodeAction | undefined | Promise<vscode.CodeAction | undefined>;

function offered(actions: readonly (vscode.CodeAction | undefined)[]): vscode.CodeAction[] {
  return actions.filter((a): a is vscode.CodeAction => a !== undefined);
}

/**
 * The fix's action, offered only while each file it edits holds the text its ranges were
 * computed on. The snapshot is of the disk as it was indexed: after a save, a checkout or
 * another tool's write it stays until the index lands again (a debounce plus the index, or
 * longer when a watcher event is missed), and in an editor with unsaved changes its ranges
 * may name other text; replacing that would corrupt the file. The text compared is the one
 * the edit would be applied to: an open document's buffer, saved or not (the same text
 * with unsaved changes is as good, other text is refused by its basis, so no separate
 * check of unsaved changes is needed), else the document VS Code opens for the edit, in the
 * encoding it would use. (A disabled action would say why, but VS Code's Ctrl+. menu leaves
 * disabled quick fixes out.)
 */
function fixAction(fix: Fix, shown: vscode.Diagnostic): Offer {
  if (!Array.isArray(fix.edits)) return undefined;
  const texts = new Map<string, string | undefined>();
  for (const e of fix.edits) if (!texts.has(e.file)) texts.set(e.file, openText(e.file));
  const offer = () => (fixIsCurrent(fix, (file) => texts.get(file)) ? fixEditAction(fix, shown) : undefined);
  const closed = [...texts].filter(([, text]) => text === undefined).map(([file]) => file);
  if (closed.length === 0) return offer();
  return Promise.all(closed.map(async (file) => texts.set(file, await openedText(file)))).then(offer);
}

function fixEditAction(fix: Fix, shown: vscode.Diagnostic): vscode.CodeAction {
  const action = new vscode.CodeAction(displayText(fix.title), vscode.CodeActionKind.QuickFix);
  action.diagnostics = [shown];
  action.isPreferred = true;
  action.edit = new vscode.WorkspaceEdit();
  for (const e of fix.edits) action.edit.replace(fileUri(e.file), editorRange(e.range), e.newText);
  return action;
}

/** The text of the file's open document, saved or not; undefined when no document holds it. */
function openText(file: string): string | undefined {
  const key = fileUri(file).toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key)?.getText();
}

/** The text of the document VS Code opens for the file (the one an edit to it is applied to); undefined when it cannot. */
async function openedText(file: string): Promise<string | undefined> {
  try {
    return (await vscode.workspace.openTextDocument(fileUri(file))).getText();
  } catch {
    return undefined;
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
