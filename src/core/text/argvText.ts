import { displayText } from './displayText';

/** What a POSIX shell reads as one word unquoted; anything else is quoted. */
const PLAIN_WORD = /^[\w@%+=:,./-]+$/;

/**
 * An argv as one line a person can read back into the same argv: each word escaped
 * (displayText) and, when it is empty or holds a space, a quote or a shell character,
 * single-quoted as a POSIX shell would read it. Joined with bare spaces, `["a b"]` and
 * `["a", "b"]` read the same, and a confirmation could not show where one argument ends.
 */
export function argvText(argv: readonly string[]): string {
  return argv
    .map((word) => {
      const shown = displayText(word);
      return PLAIN_WORD.test(shown) ? shown : `'${shown.replaceAll("'", `'\\''`)}'`;
    })
    .join(' ');
}
