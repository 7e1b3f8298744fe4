import { Scalar, visit, type Document } from 'yaml';

/**
 * libyaml's scanner refuses a `\u` or `\U` escape of a surrogate code point in a
 * double-quoted scalar ("found invalid Unicode character escape code"), each escape on its
 * own, so even a pair written as two escapes. The yaml library decodes it to a lone
 * surrogate instead, which the core reads as the byte 0x80–0xFF of a file name
 * (fs/rawNames.ts): Eva-CLI fails to parse such a manifest, so Skillgate must too.
 */
export function firstSurrogateEscape(doc: Document.Parsed, text: string): Escape | undefined {
  // Nearly every manifest has no such escape at all: no walk over its nodes then.
  if (!/\\[uU]/.test(text)) return undefined;
  let first: Escape | undefined;
  visit(doc, {
    Scalar(_key, node) {
      if (node.type !== Scalar.QUOTE_DOUBLE || !node.range) return;
      const at = surrogateEscapeIn(text, node.range[0]);
      if (at !== undefined && (first === undefined || at.offset < first.offset)) first = at;
    },
  });
  return first;
}

/** A refused escape's hex digits: libyaml points at the first. */
export interface Escape {
  readonly offset: number;
  readonly length: number;
}

/** The first surrogate escape in the double-quoted scalar opening at `start`. */
function surrogateEscapeIn(text: string, start: number): Escape | undefined {
  for (let i = start + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '"') return undefined;
    if (c !== '\\') continue;
    const kind = text[i + 1];
    const digits = kind === 'u' ? 4 : kind === 'U' ? 8 : kind === 'x' ? 2 : 0;
    if (digits === 0) {
      i++;
      continue;
    }
    const code = parseInt(text.slice(i + 2, i + 2 + digits), 16);
    if (code >= 0xd800 && code <= 0xdfff) return { offset: i + 2, length: digits };
    i += 1 + digits;
  }
  return undefined;
}
