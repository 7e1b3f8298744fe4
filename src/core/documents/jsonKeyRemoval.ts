import { applyEdits } from 'jsonc-parser';
import type { Range } from '../model';
import type { DocPath, ParsedDocument } from './document';
import { isJsonDocument, jsonDuplicateKeys } from './jsonDocument';
import { indentationOf, modifyFormatted } from './jsonEdit';

/**
 * The edit that removes the keys at `paths` from a JSON document, each with its value and the
 * comma that joined it, in the file's own indentation. None where a key on the way is written
 * twice: the value read is the last one's (serde_json's and Python's maps keep the last), while
 * jsonc-parser's edit would reach the first, and the key read would stay. None for a key not
 * there, nor when `doc` is not JSON.
 */
export function jsonKeyRemoval(
  doc: ParsedDocument,
  ...paths: DocPath[]
): { range: Range; newText: string }[] | undefined {
  if (!isJsonDocument(doc)) return undefined;
  const repeated = jsonDuplicateKeys(doc);
  if (paths.some((path) => repeated.some((d) => d.length <= path.length && d.every((k, i) => k === path[i]))))
    return undefined;
  const indentation = indentationOf(doc.text);
  // One removal after the other, each on the text the ones before it left: the formatter
  // re-indents the lines around each, which the next one may touch too.
  let text = doc.text;
  for (const path of paths) {
    const edits = modifyFormatted(text, [...path], undefined, indentation);
    if (edits.length === 0) return undefined;
    text = applyEdits(text, edits);
  }
  return [changedLines(doc, text)];
}

/**
 * The one edit that turns the document's text into `text`: the lines between the first and the
 * last that differ. Whole lines, so neither end falls between a CR and its LF, nor inside a
 * surrogate pair.
 */
function changedLines(doc: ParsedDocument, text: string): { range: Range; newText: string } {
  const old = doc.text;
  let start = 0;
  while (start < old.length && start < text.length && old[start] === text[start]) start++;
  while (start > 0 && !startsLine(old, start)) start--;
  // `kept`: the characters both texts end with, from where a line break of the document begins.
  let kept = 0;
  const most = Math.min(old.length, text.length) - start;
  while (kept < most && old[old.length - 1 - kept] === text[text.length - 1 - kept]) kept++;
  while (kept > 0 && !startsLineBreak(old, old.length - kept)) kept--;
  return { range: doc.spanRange(start, old.length - kept), newText: text.slice(start, text.length - kept) };
}

function startsLine(text: string, at: number): boolean {
  return text[at - 1] === '\n' || (text[at - 1] === '\r' && text[at] !== '\n');
}

function startsLineBreak(text: string, at: number): boolean {
  return text[at] === '\r' || (text[at] === '\n' && text[at - 1] !== '\r');
}
