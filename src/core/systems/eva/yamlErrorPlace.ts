/**
 * Where Eva's words for a YAML error place it: what serde_yaml 0.9 appends to its message
 * (libyaml/error.rs and error.rs `Display`), counted as libyaml 0.2.5 counts. The diagnostic's
 * range does not use this: it counts as the editor does (LineMap).
 *
 * - libyaml's problem_mark and serde_yaml's own marks (an event's start): ` at line L column C`.
 *   libyaml's reader counts characters, so a character beyond U+FFFF is one column, and breaks
 *   lines at CR, LF, CRLF, NEL, LS and PS. A mark at line 1 column 1 is left out.
 * - A reader error (a refused character) has no mark, only the reader's offset in the file's
 *   bytes: ` at position N`, the leading BOM's bytes counted; left out at 0.
 * - A second document and the repetition limit have no mark: no place.
 */
export function yamlErrorPlace(detail: string, text: string, offset: number, bomBytes: number): string {
  if (UNMARKED.has(detail)) return '';
  if (detail === READER_REFUSAL) {
    const position = bomBytes + utf8Length(text, offset);
    return position === 0 ? '' : ` at position ${position}`;
  }
  const { line, column } = libyamlMark(text, offset);
  return line === 0 && column === 0 ? '' : ` at line ${line + 1} column ${column + 1}`;
}

/** libyaml's reader's words for a character it refuses. */
export const READER_REFUSAL = 'control characters are not allowed';

/** serde_yaml's errors that carry no mark (`ErrorImpl::MoreThanOneDocument`, `RepetitionLimitExceeded`). */
const UNMARKED = new Set([
  'deserializing from YAML containing more than one document is not supported',
  'repetition limit exceeded',
]);

/** libyaml's mark at `offset` (UTF-16) in `text`: 0-based line and column, in characters. */
function libyamlMark(text: string, offset: number): { line: number; column: number } {
  let line = 0;
  let column = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a && i + 1 < end) continue; // CRLF: one break, at its LF
    if (c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029) {
      line++;
      column = 0;
    } else if (!isLowSurrogateAfterHigh(text, i)) column++;
  }
  return { line, column };
}

/** The UTF-8 length of `text` up to `offset` (the text is decoded UTF-8: no lone surrogates). */
function utf8Length(text: string, offset: number): number {
  let bytes = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (isLowSurrogateAfterHigh(text, i))
      bytes += 1; // with its high surrogate's 3: four bytes
    else bytes += 3;
  }
  return bytes;
}

function isLowSurrogateAfterHigh(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0xdc00 || c > 0xdfff || i === 0) return false;
  const before = text.charCodeAt(i - 1);
  return before >= 0xd800 && before <= 0xdbff;
}
