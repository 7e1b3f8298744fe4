// What a repository wrote (a name, a path, a message quoting them) must be seen in the job
// log, not act on it: the Action's script shows it with the CLI's own mark, `\u{hex}`, for
// exactly the characters the CLI marks (src/core/text/displayText.ts: C0 and C1 controls,
// U+2028/U+2029, lone surrogates, bidi, format and every other default-ignorable code point).
// The script runs on a bare runner without the package's sources, so the set is written out
// here; a unit test holds it equal to displayText's over every code point.
const UNSAFE = new RegExp(
  '[\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\ud800-\\udfff' +
    '\\u034f\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u2065\\u3164\\uffa0\\ufff0-\\ufff8\\u{e0080}-\\u{e0fff}]' +
    '|[\\u061c\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\u{e0000}-\\u{e007f}\\u{fe00}-\\u{fe0f}\\u{e0100}-\\u{e01ef}\\u00ad\\u180e]|\\p{Cf}',
  'gu',
);

export function visible(s) {
  return String(s).replace(UNSAFE, (ch) => `\\u{${(ch.codePointAt(0) ?? 0).toString(16)}}`);
}
