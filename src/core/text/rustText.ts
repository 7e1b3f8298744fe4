/**
 * Rust string semantics that JavaScript does not share, for the agents and libraries
 * written in Rust: Codewhale, Eva-CLI, and pydantic-core under Rivumi. `str::trim` removes
 * Unicode White_Space, which has U+0085 and not U+FEFF, while JS `trim()` removes U+FEFF
 * and keeps U+0085. So a byte-order mark survives Codewhale's trimming (codewhale.md
 * §5.2) and a lone U+0085 does not.
 */

const RUST_WHITESPACE = new Set<number>([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

export function isRustWhitespace(code: number): boolean {
  return RUST_WHITESPACE.has(code);
}

export function rustTrimStart(text: string): string {
  let start = 0;
  while (start < text.length && RUST_WHITESPACE.has(text.charCodeAt(start))) start++;
  return text.slice(start);
}

export function rustTrimEnd(text: string): string {
  let end = text.length;
  while (end > 0 && RUST_WHITESPACE.has(text.charCodeAt(end - 1))) end--;
  return text.slice(0, end);
}

export function rustTrim(text: string): string {
  return rustTrimEnd(rustTrimStart(text));
}

/** Rust's `to_ascii_lowercase`: only A-Z change (JS `toLowerCase` also folds `K` U+212A, `İ`, …). */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/**
 * One character as Rust's `{:?}` writes it: the named escapes, the quote of its kind, and
 * `\u{…}` for what is not printable (controls, format, private, unassigned and surrogate
 * code points, separators but the space) and for every Grapheme_Extend character, which
 * is more than the combining marks: spacing marks such as U+09BE and the halfwidth sound
 * marks U+FF9E/U+FF9F too.
 */
function escapeDebug(ch: string, quote: "'" | '"'): string {
  const named: Record<string, string> = { '\0': '\\0', '\t': '\\t', '\r': '\\r', '\n': '\\n', '\\': '\\\\' };
  const known = named[ch];
  if (known) return known;
  if (ch === quote) return `\\${quote}`;
  if (
    /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}]/u.test(ch) ||
    (/\p{Zs}/u.test(ch) && ch !== ' ') ||
    /\p{Grapheme_Extend}/u.test(ch)
  )
    return `\\u{${(ch.codePointAt(0) ?? 0).toString(16)}}`;
  return ch;
}

/** Rust's `{:?}` of a char: `'a'`, `'\''`, `'\u{200b}'`. */
export function rustDebugChar(ch: string): string {
  return `'${escapeDebug(ch, "'")}'`;
}

/**
 * Rust's `{:?}` of a string: `"a'b\"c"`, a combining mark escaped wherever it stands
 * (only `str::escape_debug`, which no message here uses, spares it after the first).
 */
export function rustDebugStr(text: string): string {
  return `"${Array.from(text, (ch) => escapeDebug(ch, '"')).join('')}"`;
}
