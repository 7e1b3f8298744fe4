import type { Range } from '../model';
import type { DocPath, ParsedDocument } from './document';
import { jsonDuplicateKeys } from './jsonDocument';
import { indentationOf, modifyFormatted } from './jsonEdit';

/**
 * The edit that removes the key at `path` from a JSON document, with its value and the comma
 * that joined it, in the file's own indentation. None where a key on the way is written twice:
 * the value read is the last one's (serde_json's and Python's maps keep the last), while
 * jsonc-parser's edit would reach the first, and the key read would stay.
 */
export function jsonKeyRemoval(doc: ParsedDocument, path: DocPath): { range: Range; newText: string }[] | undefined {
  if (jsonDuplicateKeys(doc).some((d) => d.length <= path.length && d.every((k, i) => k === path[i]))) return undefined;
  const edits = modifyFormatted(doc.text, [...path], undefined, indentationOf(doc.text));
  if (edits.length === 0) return undefined;
  return edits.map((e) => ({ range: doc.spanRange(e.offset, e.offset + e.length), newText: e.content }));
}
