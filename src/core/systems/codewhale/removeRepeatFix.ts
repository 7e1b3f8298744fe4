import type { Findings } from '../../diagnostics/findings';
import type { FixDraft } from '../../diagnostics/fixBasis';
import type { DocPath } from '../../documents/document';
import type { Located } from '../../documents/located';

/**
 * Removing a repeated list value is unambiguous: the list means the same without it.
 * The edit runs from the end of the value before it to the end of the repeat, so the
 * separating comma goes too and the list stays well-formed in TOML and JSON alike.
 * Between two values there are only blanks, line breaks, the comma and, in TOML, comments:
 * a comment there is the previous value's and stays (the repeat goes with the comma after
 * it, or else the comma before it goes on its own). Only where the value before it is the
 * element before it in the same array: a list read from two keys (`path` and `paths`) has
 * other text between them.
 */
export function removeRepeatFix(
  findings: Findings,
  previous: Located<string> | undefined,
  repeat: Located<string>,
): FixDraft | undefined {
  const doc = findings.document(repeat.at.file);
  if (!doc || !previous || previous.at.file !== repeat.at.file) return undefined;
  if (!adjacentElements(previous.at.path, repeat.at.path)) return undefined;
  const end = doc.valueSpan(previous.at.path)[1];
  const [start, until] = doc.valueSpan(repeat.at.path);
  if (until <= end || start < end) return undefined;
  const cut = (from: number, to: number) => ({ file: repeat.at.file, range: doc.spanRange(from, to), newText: '' });
  const title = `Remove the repeated value \`${repeat.value}\``;
  if (!doc.text.slice(end, start).includes('#')) return { title, edits: [cut(end, until)] };
  const after = /[ \t]*,[ \t]*/y;
  after.lastIndex = until;
  if (after.exec(doc.text)) return { title, edits: [cut(start, after.lastIndex)] };
  const comma = separatorIn(doc.text, end, start);
  return comma === undefined ? undefined : { title, edits: [cut(comma, comma + 1), cut(start, until)] };
}

function adjacentElements(a: DocPath, b: DocPath): boolean {
  const i = a[a.length - 1];
  const j = b[b.length - 1];
  return (
    a.length === b.length && typeof i === 'number' && j === i + 1 && a.slice(0, -1).every((key, k) => key === b[k])
  );
}

/** The offset of the comma between two TOML array values, passing over comments (which may hold commas). */
function separatorIn(text: string, from: number, to: number): number | undefined {
  for (let i = from; i < to; i++) {
    if (text[i] === '#') while (i < to && text[i] !== '\n' && text[i] !== '\r') i++;
    else if (text[i] === ',') return i;
  }
  return undefined;
}
