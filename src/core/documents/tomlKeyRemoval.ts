import type { Range } from '../model';
import type { DocPath, ParsedDocument } from './document';
import { tomlEntrySpan } from './tomlDocument';

/**
 * The edits that remove the keys at `paths` from a TOML document: each key's entry (its pair,
 * or its table's header and body) with the whole lines it is written on and a comment that
 * ends its last line, so every other line reads as before. None unless one entry on lines of
 * its own writes each key and all it holds (tomlEntrySpan), nor when `doc` is not TOML.
 */
export function tomlKeyRemoval(
  doc: ParsedDocument,
  ...paths: DocPath[]
): { range: Range; newText: string }[] | undefined {
  const cuts: (readonly [number, number])[] = [];
  for (const path of paths) {
    const span = tomlEntrySpan(doc, path);
    const lines = span && wholeLines(doc.text, span);
    if (!lines) return undefined;
    cuts.push(lines);
  }
  cuts.sort((a, b) => a[0] - b[0]);
  // A key inside another's entry: the editor refuses the overlapping edits of one fix.
  if (cuts.some((cut, i) => i > 0 && cut[0] < (cuts[i - 1] as readonly [number, number])[1])) return undefined;
  return cuts.map(([start, end]) => ({ range: doc.spanRange(start, end), newText: '' }));
}

/** [start, end) widened to its lines and the break that ends the last; none when other text shares them. */
function wholeLines(text: string, [start, end]: readonly [number, number]): readonly [number, number] | undefined {
  let from = start;
  while (from > 0 && (text[from - 1] === ' ' || text[from - 1] === '\t')) from--;
  // The byte-order mark, which the parser reads as a blank (tomlDocument.ts), opens the first line.
  if (from > 0 && text[from - 1] !== '\n' && !(from === 1 && text[0] === '\uFEFF')) return undefined;
  // TOML knows no lone carriage return (the parse refuses one): a line ends in LF or CRLF.
  const rest = /[ \t]*(?:#[^\r\n]*)?(?:\r?\n|$)/y;
  rest.lastIndex = end;
  return rest.test(text) ? [from, rest.lastIndex] : undefined;
}
