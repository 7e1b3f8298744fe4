import { format, modify, type Edit, type FormattingOptions, type JSONPath } from 'jsonc-parser';

/**
 * jsonc-parser's `modify` with `formattingOptions`, in time linear in the text. The
 * library makes the edit, asks its formatter for the lines the edit touched, and then
 * applies the formatter's edits one at a time, each a copy of the whole text
 * (`withFormatting`, impl/edit.js): quadratic in the length of those lines. A property
 * added inside an object a hostile `plugin.json` writes on one line of 300 KB took 18 s
 * to make, 2,000 keys 30 ms; every index that found such a manifest's `network_hosts`
 * mismatch paid it (the quick fix is made with the diagnostic).
 *
 * Here the edit is made without formatting, the formatter is asked for the same range
 * with the same options, and its edits are applied in one pass. The result is the
 * library's own, edit for edit (a property test compares them); it throws where the
 * library throws.
 */
export function modifyFormatted(
  text: string,
  path: JSONPath,
  value: unknown,
  formattingOptions: FormattingOptions,
): Edit[] {
  const raw = modify(text, path, value, {});
  const edit = raw[0];
  if (raw.length !== 1 || edit === undefined) return raw;
  const edited = text.slice(0, edit.offset) + edit.content + text.slice(edit.offset + edit.length);
  // The range the library formats: the edit, or for an insertion or a removal its whole lines.
  let begin = edit.offset;
  let end = edit.offset + edit.content.length;
  if (edit.length === 0 || edit.content.length === 0) {
    while (begin > 0 && !isEol(edited, begin - 1)) begin--;
    while (end < edited.length && !isEol(edited, end)) end++;
  }
  const edits = format(edited, { offset: begin, length: end - begin }, { ...formattingOptions, keepLines: false });
  const pieces: string[] = [];
  let at = 0;
  for (const e of edits) {
    // The formatter's edits come in document order and never overlap; were they ever not
    // to, the unformatted edit (valid JSON all the same) is the answer.
    if (e.offset < at) return raw;
    pieces.push(edited.slice(at, e.offset), e.content);
    at = e.offset + e.length;
  }
  pieces.push(edited.slice(at));
  const formatted = pieces.join('');
  // Where the changes begin and end, tracked as the library tracks them, from the last edit back.
  for (let i = edits.length - 1; i >= 0; i--) {
    const e = edits[i] as Edit;
    begin = Math.min(begin, e.offset);
    end = Math.max(end, e.offset + e.length);
    end += e.content.length - e.length;
  }
  return [
    { offset: begin, length: text.length - (formatted.length - end) - begin, content: formatted.slice(begin, end) },
  ];
}

function isEol(text: string, offset: number): boolean {
  const c = text.charCodeAt(offset);
  return c === 0x0a || c === 0x0d;
}

/**
 * The indentation the file already uses, by its first indented key: tabs, or spaces of that
 * width (two if it does not say). The formatter re-indents the lines the edit touches, so
 * spaces in a file indented with tabs would mix the two.
 */
export function indentationOf(text: string): { insertSpaces: boolean; tabSize: number } {
  const m = /\n([ \t]+)"/.exec(text);
  const indent = m?.[1] ?? '  ';
  return indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1 } : { insertSpaces: true, tabSize: indent.length };
}
