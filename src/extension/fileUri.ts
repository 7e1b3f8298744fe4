import * as vscode from 'vscode';
import { wellFormed } from '../core/fs/rawNames';

/**
 * The editor URI of a core path. A core path spells a name that is not UTF-8 with
 * lone surrogates (core/fs/rawNames.ts), and formatting such a URI throws, which
 * would break the Problems panel or the tree for the whole window: the URI shows
 * U+FFFD instead (the editor cannot open such a file by a string path anyway).
 */
export function fileUri(p: string): vscode.Uri {
  return vscode.Uri.file(wellFormed(p));
}
