/**
 * Invisible and direction-changing code points: a known prompt-injection trick is to
 * hide instructions in a skill body or to reorder what a reviewer reads (Trojan Source).
 */

/** Bidirectional formatting characters, the set Codewhale rejects in metadata (spec §4.4). */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * Everything a reader cannot see: bidi controls, zero-width characters, Unicode tag
 * characters, variation selectors used as carriers, and other format characters (Cf),
 * except the byte-order mark at the very start of a file.
 */
export const HIDDEN_CHARACTER_SOURCE =
  '[\\u061c\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\u{e0000}-\\u{e007f}\\u{fe00}-\\u{fe0f}\\u{e0100}-\\u{e01ef}\\u00ad\\u180e]|\\p{Cf}';
const HIDDEN = new RegExp(HIDDEN_CHARACTER_SOURCE, 'gu');

export interface HiddenCharacter {
  /** UTF-16 offset in the text. */
  readonly offset: number;
  readonly length: number;
  readonly codePoint: number;
  readonly bidi: boolean;
}

export function findHiddenCharacters(text: string, limit = 100): HiddenCharacter[] {
  const found: HiddenCharacter[] = [];
  for (const m of text.matchAll(HIDDEN)) {
    const offset = m.index ?? 0;
    const cp = m[0].codePointAt(0) ?? 0;
    if (cp === 0xfeff && offset === 0) continue;
    found.push({ offset, length: m[0].length, codePoint: cp, bidi: BIDI_CONTROLS.test(m[0]) });
    if (found.length >= limit) break;
  }
  return found;
}

export function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}
