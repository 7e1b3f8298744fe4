// node:crypto itself, not hashing/framing.ts: the hashing folder imports text/, and an import back is a cycle.
import { createHash } from 'node:crypto';

/**
 * The fingerprint of a text as an editor holds it, which a quick fix's edit carries as its
 * `basis`: the edit's line/character range names a place in exactly that text, and in no
 * other (a line added above moves every place below it). SHA-256 of the text with each line
 * break written as `\n`: VS Code counts `\r\n`, a lone `\r` and `\n` as line breaks and
 * nothing else (U+2028, U+2029 and U+0085 are characters), and on opening a file it writes
 * its mixed breaks as the dominant one, so the spelling of a break moves no position. The
 * UTF-16 code units are hashed as they are (ranges count them): UTF-8 would write every
 * lone surrogate as U+FFFD. Both sides use this one function: the core on the text its
 * ranges were computed on (`lineMapTextBasis`), the editor on its document's text
 * (`TextDocument.getText()`).
 */
export function editorTextBasis(editorText: string): string {
  return createHash('sha256').update(editorText.replace(LINE_BREAKS, '\n'), 'utf16le').digest('hex');
}

/**
 * The basis of a decoded file's text as a LineMap (lineMap.ts) indexes it: a leading
 * U+FEFF is the UTF-8 byte-order mark, which the editor keeps out of its text (its
 * encoding remembers it) and the LineMap keeps out of first-line positions; a second one
 * is a character of the text in both. `markDropped` as for the LineMap: the reader already
 * dropped the mark, and the text is the editor's as it stands.
 */
export function lineMapTextBasis(text: string, markDropped = false): string {
  return editorTextBasis(!markDropped && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
}

const LINE_BREAKS = /\r\n?/g;
