import { HIDDEN_CHARACTER_SOURCE } from './hiddenUnicode';

/**
 * The default-ignorable code points hiddenUnicode.ts leaves out, by range: the property
 * `\p{Default_Ignorable_Code_Point}` in the class made every escape half again as slow
 * (its ranges are fixed by Unicode's stability policy; a test checks them against it).
 */
const OTHER_IGNORABLE =
  '\\u034f\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u2065\\u3164\\uffa0\\ufff0-\\ufff8\\u{e0080}-\\u{e0fff}';

/**
 * Text Skillgate shows (a terminal, the editor's labels, notifications and review) must
 * never carry a character that acts instead of being seen. A repository controls file
 * names, names, descriptions and argv, so every such character is escaped as `\u{hex}`,
 * the form codewhale.md §9 asks of the review and Codewhale prints (Rust's
 * `char::escape_unicode`: lowercase hex, no leading zeros; ESC is `\u{1b}`):
 *
 * - C0 and C1 control characters (U+0000–U+001F, U+007F–U+009F): ESC starts a terminal
 *   sequence (`\x1b[2K` erases a line, OSC `\x1b]0;…\x07` sets the window title or
 *   plants a link), U+009B is a one-character CSI, CR moves back over what was printed;
 * - the bidi and invisible characters of hiddenUnicode.ts (Trojan Source), and every
 *   other default-ignorable code point (Unicode renders them invisibly: the Hangul fillers
 *   U+3164 and U+FFA0, the grapheme joiner U+034F, unassigned ones): a name with one reads
 *   exactly as the name without it;
 * - the Unicode line and paragraph separators (U+2028, U+2029), line breaks to some
 *   renderers;
 * - lone surrogates: a Rivumi name decoded with surrogateescape carries a byte
 *   0x80–0xFF that is not UTF-8 as U+DC80–U+DCFF; the mark names it (U+DCFF is 0xFF).
 *
 * Newline and tab are control characters too: inside a one-line field (a name, a
 * path, a message) they are escaped, so nothing a repository writes can start a line of
 * `list` or forge a diagnostic line. Only a multi-line body (a whole diff, the output
 * as a whole) keeps its newlines, as line separators. The function is idempotent: its
 * marks are printable, so escaping twice changes nothing (a field escaped, then its
 * line, then the output).
 *
 * A repository can write the mark's own text, a name holding `\u{202e}` literally; it is
 * left as it is. That can only make a name look more suspicious, never hide a character:
 * every character that acts is still marked, the text shown holds none, and the review
 * flags only the real ones (hasUnsafeForDisplay reads the raw text). Escaping the
 * backslash instead would give up idempotence (`\u{5c}` holds one again). Names are
 * compared as raw bytes, never as shown; the CLI's selector takes the shown form of an
 * id only after no id matched exactly (selector.ts).
 */
const unsafeSource = (c0: string) =>
  `[${c0}\\u007f-\\u009f\\u2028\\u2029\\ud800-\\udfff${OTHER_IGNORABLE}]|${HIDDEN_CHARACTER_SOURCE}`;
const UNSAFE_SOURCE = unsafeSource('\\u0000-\\u001f');

/** Every character `displayText` escapes (with the `u` flag a surrogate class matches lone surrogates only); for `replace`. */
const UNSAFE_FOR_DISPLAY = new RegExp(UNSAFE_SOURCE, 'gu');
/**
 * The same but newline, for text that keeps its lines: matching each newline only to
 * put it back cost a call per line (about a tenth of a cold `list --json` at 2,000 bundles).
 */
export const UNSAFE_BUT_NEWLINE = new RegExp(unsafeSource('\\u0000-\\u0009\\u000b-\\u001f'), 'gu');
const ANY_UNSAFE = new RegExp(UNSAFE_SOURCE, 'u');

export type DisplayLines = 'one-line' | 'multi-line';

export function displayText(text: string, lines: DisplayLines = 'one-line'): string {
  return text.replace(
    lines === 'multi-line' ? UNSAFE_BUT_NEWLINE : UNSAFE_FOR_DISPLAY,
    (ch) => `\\u{${(ch.codePointAt(0) ?? 0).toString(16)}}`,
  );
}

/** True when `displayText` would change the text: it holds something that is not plainly visible. */
export function hasUnsafeForDisplay(text: string): boolean {
  return ANY_UNSAFE.test(text);
}
