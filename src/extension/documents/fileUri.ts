import * as vscode from 'vscode';
import { wellFormed } from '../../core/fs/rawNames';
import { READONLY_SCHEME } from './readonlyDocuments';
import { unopenableNote } from './unopenableFile';
import { notOpenedNote } from './notOpenedFile';

/**
 * The editor URI of a core path: what the tree, the Problems panel, quick fixes and the
 * review open. A path whose name is not UTF-8 (lone surrogates, core/fs/rawNames.ts)
 * cannot be named by the editor, and its U+FFFD spelling may be another file's name: it
 * is a read-only note that says so (unopenableFile.ts), never that other file.
 */
export function fileUri(p: string): vscode.Uri {
  const note = unopenableNote(p);
  return note ? vscode.Uri.from({ scheme: READONLY_SCHEME, ...note }) : vscode.Uri.file(p);
}

/**
 * The URI to open a core path by, in an editor Skillgate opens itself (a tree row, Open
 * Manifest, the review's list): `fileUri`, but a note for a symbolic link or what is no
 * regular file (notOpenedFile.ts), looked at when it is opened, since a file can become a
 * link after the snapshot that listed it.
 */
export async function openableUri(p: string): Promise<vscode.Uri> {
  const note = unopenableNote(p) ?? (await notOpenedNote(p));
  return note ? vscode.Uri.from({ scheme: READONLY_SCHEME, ...note }) : vscode.Uri.file(p);
}

/**
 * The URI a file watcher watches for a core path. Formatting a URI with a lone surrogate
 * throws, so such a path is watched by its U+FFFD spelling (the editor's watcher cannot
 * name the file itself anyway); the watchers only prompt a re-read, by path.
 */
export function watchedUri(p: string): vscode.Uri {
  return vscode.Uri.file(wellFormed(p));
}
