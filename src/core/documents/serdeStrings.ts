/**
 * serde_json reads a JSON string into a Rust `String`, which holds no lone surrogate: a
 * `\u` escape of a trailing surrogate (U+DC00–U+DFFF), or of a leading one (U+D800–U+DBFF)
 * not followed by a `\u` escape of a trailing one, is a syntax error there (serde_json's
 * `parse_escape`). JSON.parse keeps such a string, so a manifest Codewhale refuses would
 * read as valid. Python's json (Rivumi) keeps it too: this is for serde's readers only.
 */

export interface SerdeStringError {
  /** serde_json's words. */
  readonly message: 'lone leading surrogate in hex escape' | 'unexpected end of hex escape';
  /** The escape's `\`. */
  readonly start: number;
  /** The last character serde_json read before refusing (where it reports the error). */
  readonly at: number;
}

/** The first such escape in a text that parses as JSON; undefined when there is none. */
export function loneSurrogateEscape(text: string): SerdeStringError | undefined {
  // Nearly every manifest has no `\u` at all.
  if (!text.includes('\\u')) return undefined;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (!inString) {
      if (c === '"') inString = true;
      continue;
    }
    if (c === '"') {
      inString = false;
      continue;
    }
    if (c !== '\\') continue;
    if (text[i + 1] !== 'u') {
      i++; // `\"`, `\\` and the other one-character escapes
      continue;
    }
    const n = hex4(text, i + 2);
    if (n >= 0xdc00 && n <= 0xdfff) return { message: 'lone leading surrogate in hex escape', start: i, at: i + 5 };
    if (n < 0xd800 || n > 0xdbff) {
      i += 5;
      continue;
    }
    // A leading surrogate: serde_json reads on, one character at a time, for `\u` and a trailing one.
    if (text[i + 6] !== '\\') return { message: 'unexpected end of hex escape', start: i, at: i + 6 };
    if (text[i + 7] !== 'u') return { message: 'unexpected end of hex escape', start: i, at: i + 7 };
    const n2 = hex4(text, i + 8);
    if (n2 < 0xdc00 || n2 > 0xdfff) return { message: 'lone leading surrogate in hex escape', start: i, at: i + 11 };
    i += 11;
  }
  return undefined;
}

function hex4(text: string, at: number): number {
  return Number.parseInt(text.slice(at, at + 4), 16);
}
