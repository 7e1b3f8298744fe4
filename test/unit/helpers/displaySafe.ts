import { strict as assert } from 'node:assert';

/** A name a hostile repository can give a file: cursor up, erase line, an OSC title, a C1 CSI, a right-to-left override, a lone surrogate. */
export const HOSTILE = '\x1b[1A\x1b[2K\x1b]0;pwned\x07\u009b\u202e\u200b\u3164\udcff';

/** Nothing in the text acts on a terminal or reorders what is read: only `\n` among the controls, no C1, no bidi override, no lone surrogate. */
export function assertDisplaySafe(text: string, what: string, allowNewline = true): void {
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    const bad =
      (cp < 0x20 && !(allowNewline && cp === 0x0a)) ||
      (cp >= 0x7f && cp <= 0x9f) ||
      (cp >= 0x202a && cp <= 0x202e) ||
      (cp >= 0x2066 && cp <= 0x2069) ||
      (cp >= 0xd800 && cp <= 0xdfff) ||
      // Format and invisible characters by Unicode's own classes (bidi marks, zero-width, BOM,
      // Hangul fillers, variation selectors, tags) and the line and paragraph separators.
      INVISIBLE.test(ch);
    assert.ok(
      !bad,
      `${what}: raw U+${cp.toString(16).toUpperCase().padStart(4, '0')} in ${JSON.stringify(text.slice(0, 300))}`,
    );
  }
}

const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Zl}\p{Zp}]/u;
