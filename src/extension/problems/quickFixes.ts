import * as vscode from 'vscode';
import { displayText } from '../../core/text/displayText';
import { fileUri } from '../documents/fileUri';
import { editorRange } from '../documents/editorRange';
import { itemById, type Snapshot } from '../../core/index/snapshot';
import type { Diagnostic, Fix } from '../../core/model';
import { DiagnosticsDoc } from './diagnosticsDoc';
import { fixIsCurrent, staleFileOf } from './fixIsCurrent';
import { notificationText } from '../text/uiText';
import { notEdited } from './notEdited';
import { fixedFileName } from './fixedFileName';

/**
 * Quick fixes where the fix is unambiguous. The core computes each fix with its
 * diagnostic; this provider only offers it for the diagnostic under the cursor, and only
 * while the editor's text of each file it edits is the text it was computed on
 * (fixIsCurrent.ts). It checks that again when the fix is applied (resolveCodeAction).
 * Every Skillgate diagnostic also offers its bundle's review and its documentation.
 */
export class QuickFixes implements vscode.CodeActionProvider<vscode.CodeAction> {
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
      if (d?.fix) actions.push(fixAction(d.fix, s.workspaces, shown));
    }
    // Only a fix that edits a file no editor holds waits, for that file's document.
    if (!actions.some((a) => a instanceof Promise)) return offered(actions as (vscode.CodeAction | undefined)[]);
    return Promise.all(actions).then(offered);
  }

  /**
   * The fix's edit, built when the user applies (or previews) it, on the text each file it
   * edits holds then. The menu is computed when the light bulb opens, and the pick can come
   * much later: a formatter, a checkout or another tool may have rewritten a file the fix
   * edits (the open one, or another: `network_hosts` in plugin.json from mcp.json), and an
   * edit built at the offer would be applied at ranges that name other text. VS Code calls
   * this for an action offered without an edit, before applying it (codeAction.ts
   * `applyCodeAction`: `await item.resolve(token)`, which resolves only while `edit` is
   * unset), and takes the edit it returns (extHostLanguageFeatures.ts `resolveCodeAction`).
   * A fix no longer current resolves to no edit, so nothing is applied, and says so. It
   * also resolves the review and documentation actions (they have no edit): as they are.
   * What stays: the instant between this check and the workbench applying the edit.
   */
  async resolveCodeAction(action: vscode.CodeAction, token?: vscode.CancellationToken): Promise<vscode.CodeAction> {
    if (!(action instanceof FixAction)) return action;
    // The editor writes a link's target: a file that became a link since the index (its
    // diagnostics still under its own URI until the next snapshot moves them to a note,
    // problems.ts), opened from the Explorer by a path through a link, or reached through a
    // directory that leads out of its workspace folder, is never edited.
    const unedited = await notEdited(action.fix, action.workspaces);
    if (unedited) {
      action.edit = undefined;
      if (!token?.isCancellationRequested)
        void vscode.window.showWarningMessage(notificationText(`Not applied: ${action.fix.title}. ${unedited}`));
      return action;
    }
    const texts = await textsNow(action.fix);
    const now = (file: string) => texts.get(file);
    if (fixIsCurrent(action.fix, now)) {
      action.edit = workspaceEdit(action.fix);
      return action;
    }
    action.edit = undefined;
    if (!token?.isCancellationRequested) {
      const stale = staleFileOf(action.fix, now);
      const file = stale === undefined ? 'A file it edits' : fixedFileName(stale, action.workspaces);
      void vscode.window.showWarningMessage(
        notificationText(
          `Not applied: ${action.fix.title}. ${file} changed since this fix was computed; Skillgate re-checks it.`,
        ),
      );
    }
    return action;
  }
}

/** A fix's action as offered: the fix it applies, its edit built only when it is applied (resolveCodeAction). */
class FixAction extends vscode.CodeAction {
  constructor(
    readonly fix: Fix,
    /** The workspace folders of the snapshot the fix was offered from: each edited file must stay in its own (notEdited.ts). */
    readonly workspaces: readonly string[],
    shown: vscode.Diagnostic,
  ) {
    super(displayText(fix.title), vscode.CodeActionKind.QuickFix);
    this.diagnostics = [shown];
    this.isPreferred = true;
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
 * disabled quick fixes out.) The action carries no edit: it is built, on the same check,
 * when the fix is applied (QuickFixes.resolveCodeAction).
 */
function fixAction(fix: Fix, workspaces: readonly string[], shown: vscode.Diagnostic): Offer {
  if (!Array.isArray(fix.edits)) return undefined;
  const offer = (texts: ReadonlyMap<string, string | undefined>) =>
    fixIsCurrent(fix, (file) => texts.get(file)) ? new FixAction(fix, workspaces, shown) : undefined;
  const texts = textsNow(fix);
  return texts instanceof Promise ? texts.then(offer) : offer(texts);
}

function workspaceEdit(fix: Fix): vscode.WorkspaceEdit {
  const edit = new vscode.WorkspaceEdit();
  for (const e of fix.edits) edit.replace(fileUri(e.file), editorRange(e.range), e.newText);
  return edit;
}

/**
 * The text each file the fix edits holds now, as an edit to it would be applied: its open
 * document's, else the document VS Code opens for it (undefined when it cannot). At once when
 * every file is open; only a file no editor holds waits, for its document.
 */
function textsNow(fix: Fix): Map<string, string | undefined> | Promise<Map<string, string | undefined>> {
  const texts = new Map<string, string | undefined>();
  for (const e of fix.edits) if (!texts.has(e.file)) texts.set(e.file, openText(e.file));
  const closed = [...texts].filter(([, text]) => text === undefined).map(([file]) => file);
  if (closed.length === 0) return texts;
  return Promise.all(closed.map(async (file) => texts.set(file, await openedText(file)))).then(() => texts);
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
