import { wellFormed } from '../../core/fs/rawNames';
import { displayText } from '../../core/text/displayText';

/**
 * A file the editor cannot name. The editor names files by Unicode text, and a core path
 * spells a name that is not UTF-8 with lone surrogates (core/fs/rawNames.ts), which no
 * editor URI carries. Its U+FFFD spelling is the name of another file a repository can
 * put beside it (README "Names are bytes"): a URI made from it opened that other file in
 * its place, from the tree, Open Manifest and the review, and showed its Problems there.
 * Such a path is shown as a read-only note instead (readonlyDocuments.ts), which opens no
 * file: the note's path shows the name (`\u{dcff}` is the byte 0xFF, and the tab title is
 * its last segment), its query is the exact path as JSON (a lone surrogate as the escape
 * `\udcff`), so two such files never share a note.
 */
export const UNOPENABLE_PREFIX = '/unopenable/';

/** The note's path and query for a path the editor cannot name; undefined when it can. */
export function unopenableNote(p: string): { readonly path: string; readonly query: string } | undefined {
  if (wellFormed(p) === p) return undefined;
  return { path: UNOPENABLE_PREFIX + displayText(p).replace(/^[/\\]+/, ''), query: JSON.stringify(p) };
}

/** The note's text, from its query. */
export function unopenableText(query: string): string {
  let p = '';
  try {
    const value: unknown = JSON.parse(query);
    if (typeof value === 'string') p = value;
  } catch {
    // not a query this file wrote: the note names no path
  }
  return [
    'The editor cannot open this file: its name is not UTF-8, and the editor names files by Unicode text.',
    'The same name with U+FFFD in place of those bytes can be another file, so no file is opened for it.',
    '',
    `Path (\\u{dcff} is the byte 0xFF): ${displayText(p)}`,
    '',
    'Skillgate reads, hashes and reviews the file under its exact bytes; open it in a terminal to read it.',
    '',
  ].join('\n');
}
