import * as vscode from 'vscode';
import { explainItemId, explainMarkdown, explainQuery } from './explainDocument';
import { UNOPENABLE_PREFIX, unopenableText } from './unopenableFile';
import { NOT_OPENED_PREFIX, notOpenedText } from './notOpenedFile';
import { itemFolderName } from '../../core/report/folderPlace';
import type { Snapshot } from '../../core/index/snapshot';
import type { Item } from '../../core/model';

/** The scheme of Skillgate's generated, read-only documents (Explain Decision, Doctor, the notes for a file the editor cannot name or Skillgate does not open). */
export const READONLY_SCHEME = 'skillgate';

/**
 * Explain Decision and Doctor are reports, not files a user edits: served read-only on
 * the `skillgate:` scheme, they leave no dirty `Untitled-1` buffer behind, and an open
 * report follows the snapshot (the Markdown preview re-renders when the content changes).
 *
 * The item travels in the query, never in the path: the path's last segment becomes the
 * tab title, so it is a fixed, safe name, whatever the bundle calls itself.
 */
export class ReadonlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changes.event;

  constructor(
    private readonly snapshot: () => Snapshot | undefined,
    private readonly doctor: () => string,
  ) {}

  /** `workspaces`: the snapshot's folders (with several, the tab names the item's folder: `explainFileName`). */
  static explainUri(item: Item, workspaces: readonly string[]): vscode.Uri {
    return vscode.Uri.from({
      scheme: READONLY_SCHEME,
      path: `/explain/${explainFileName(item, workspaces)}`,
      query: explainQuery(item.id),
    });
  }

  static doctorUri(): vscode.Uri {
    return vscode.Uri.from({ scheme: READONLY_SCHEME, path: '/doctor/Skillgate Doctor.txt' });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    if (uri.path.startsWith('/doctor/')) return this.doctor();
    if (uri.path.startsWith(UNOPENABLE_PREFIX)) return unopenableText(uri.query);
    if (uri.path.startsWith(NOT_OPENED_PREFIX)) return notOpenedText(uri.query);
    const id = explainItemId(uri.query);
    const snapshot = this.snapshot();
    const item = snapshot?.items.find((i) => i.id === id);
    if (!snapshot || !item)
      return '# Not in the index\n\nThis item is no longer found in the workspace: it was removed or renamed.\n';
    return explainMarkdown(snapshot, item);
  }

  /** A new snapshot: every open report is re-read (VS Code only asks for documents that are open). */
  refresh(): void {
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme === READONLY_SCHEME) this.changes.fire(doc.uri);
    }
  }

  dispose(): void {
    this.changes.dispose();
  }
}

/**
 * The Explain tab's title: the item's name and, in a multi-root workspace, its folder's
 * (two folders' `tools` would otherwise show two tabs of one title).
 */
export function explainFileName(item: Pick<Item, 'name' | 'scope' | 'path'>, workspaces: readonly string[]): string {
  const folder = itemFolderName(item, item.path, workspaces);
  return `Explain ${tabTitle(item.name)}${folder === undefined ? '' : ` - ${tabTitle(folder)}`}.md`;
}

/** A bundle's name reduced to characters that are safe and readable in a tab title. */
export function tabTitle(name: string): string {
  const replaced = name.replace(/[^A-Za-z0-9._ -]+/g, '_');
  // Spaces and dots trimmed from both ends by hand: `/[ .]+$/` tried every run of them inside
  // the name to its end, quadratic in an Eva id of a megabyte of ` .` (minutes to open Explain).
  const trimmed = (c: string | undefined) => c === ' ' || c === '.';
  let start = 0;
  let end = replaced.length;
  while (start < end && trimmed(replaced[start])) start++;
  while (end > start && trimmed(replaced[end - 1])) end--;
  return replaced.slice(start, end).slice(0, 60) || 'item';
}
