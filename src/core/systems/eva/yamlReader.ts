/**
 * What libyaml's reader and scanner decide about characters before any YAML structure
 * (serde_yaml 0.9 is libyaml 0.2.5; eva.md §2.1), where the yaml library follows YAML
 * 1.2 instead.
 */

/**
 * libyaml breaks lines at `\r\n`, a lone `\r`, `\n`, NEL (U+0085), LS and PS (U+2028,
 * U+2029); the yaml library only at `\n` and `\r\n`, so a manifest saved with lone CRs
 * was one long scalar to Skillgate and a mapping to Eva. The parser reads this copy, one
 * `\n` for each of the others: same length, so every offset into the file stays exact.
 * libyaml reads a lone CR and a NEL in a scalar as `\n` too, so values are exact; it
 * keeps an LS or PS inside a multi-line scalar's text, which this copy folds like `\n`
 * (a flow scalar's value is read again from the text: yamlFlowScalars.ts).
 */
export function libyamlLineBreaks(text: string): string {
  return /\r(?!\n)|[\u0085\u2028\u2029]/.test(text) ? text.replace(/\r(?!\n)|[\u0085\u2028\u2029]/g, '\n') : text;
}

/**
 * The first character libyaml's reader refuses ("control characters are not allowed"):
 * anything but tab, LF, CR, printable ASCII, NEL, U+00A0–U+D7FF, U+E000–U+FFFD and the
 * planes above, wherever it stands (a quoted scalar, a comment).
 */
export function firstRefusedCharacter(text: string): number | undefined {
  const at = REFUSED.exec(text);
  return at ? at.index : undefined;
}

// Decoded UTF-8 holds no lone surrogate: the ranges below leave out only what the reader refuses.
const REFUSED = /[^\t\n\r\x20-\x7e\u0085\u00a0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

/**
 * libyaml decodes its input 16 KiB (of UTF-8) at a time, each chunk whole, before it scans
 * on: a refused character in a chunk is its error as soon as the scanner needs that chunk,
 * before any syntax error found later. The byte offset where that chunk starts.
 */
export function readerChunkStart(text: string, offset: number): number {
  const bytes = Buffer.byteLength(text.slice(0, offset), 'utf8');
  return bytes - (bytes % READER_CHUNK_BYTES);
}

const READER_CHUNK_BYTES = 16384;

/**
 * libyaml's scanner skips a BOM that starts a line between tokens as if it were one column of
 * indentation (`a: 1` then a line `\uFEFFb: 2` is `b` at column 2: "did not find expected
 * key"; a line holding only a BOM is blank). The yaml library reads it as text, part of a key
 * or a scalar. The parser reads this copy, a space for each BOM at the start of a line: same
 * length. Where the BOM stands inside a scalar libyaml keeps it, so the caller checks that the
 * space landed between tokens (lineStartBomReading, yamlLineStartBom.ts) before it trusts the
 * copy.
 */
export function libyamlLineStartBoms(text: string): string {
  return text.includes('\ufeff') ? text.replace(/(?<=^|\n)\ufeff/g, ' ') : text;
}
