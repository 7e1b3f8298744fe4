/**
 * Python string semantics that Rivumi relies on and JavaScript does not share.
 * Rivumi is written in Python, so its stripping, line splitting and `repr` decide
 * which names are valid and what its messages say (spec/rivumi.md §1, §2).
 */

/** Characters Python `str.strip()` removes (`str.isspace()`); unlike JS `trim()`, not U+FEFF. */
const PY_WHITESPACE = new Set<number>([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003,
  0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

export function pythonStrip(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && PY_WHITESPACE.has(text.charCodeAt(start))) start++;
  while (end > start && PY_WHITESPACE.has(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

/** A surrogate pair: one code point in two UTF-16 units. */
const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/**
 * Python `len()` of a str: its code points, where JavaScript's `length` counts UTF-16 units.
 * An astral character is one (JS: two); a lone surrogate is one in both.
 */
export function pythonLen(text: string): number {
  return text.length - (text.match(SURROGATE_PAIR)?.length ?? 0);
}

/**
 * Whether a Python str has no UTF-8 form: it holds a lone surrogate (json's `"\ud800"`
 * escape, or a file name byte that is not UTF-8, which Python lists as U+DC80-U+DCFF).
 * With the `u` flag the surrogate class matches only surrogates that pair with nothing.
 */
export function hasNoUtf8(text: string): boolean {
  return /\p{Cs}/u.test(text);
}

/** Line boundaries of Python `str.splitlines()`. */
const SPLITLINES = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

export function pythonSplitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(SPLITLINES);
  // splitlines() does not yield an empty last element for a trailing boundary (every boundary is
  // at least one character, so an empty last element means the text ends with one).
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Python universal newlines: `\r\n` and a lone `\r` become `\n`. */
export function universalNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

function isPrintable(cp: number): boolean {
  // Python's str.isprintable(): not in categories Cc, Cf, Cs, Co, Cn, Zl, Zp, Zs (except space).
  if (cp === 0x20) return true;
  const ch = String.fromCodePoint(cp);
  return !/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u.test(ch);
}

/** Python `repr()` of a string, as Rivumi embeds names in its messages (`{name!r}`). */
export function pythonRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (isPrintable(cp)) out += ch;
    else if (cp < 0x100) out += '\\x' + cp.toString(16).padStart(2, '0');
    else if (cp < 0x10000) out += '\\u' + cp.toString(16).padStart(4, '0');
    else out += '\\U' + cp.toString(16).padStart(8, '0');
  }
  return out + quote;
}
