import * as vscode from 'vscode';
import type { Range } from '../../core/model';

/** A core range as the editor's: both count 0-based lines and UTF-16 characters, so the numbers carry over. */
export function editorRange(r: Range): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}
