/**
 * A glob that VS Code matches against exactly `name`, one path component: how a file is
 * watched by its own name (`RelativePattern(dirname, literalGlob(basename))`).
 *
 * VS Code reads a watcher's pattern as a glob (src/vs/base/common/glob.ts): `parsePattern`
 * trims it, so whitespace at either end is lost; `parseRegExp` makes `*` and `?` wildcards,
 * `{a,b}` a choice and `[...]` a character class, a `]` outside a class matches nothing, a
 * lone `}` the empty string. A hook script named `a[1].sh` watched by that spelling would
 * match `a1.sh` and never itself, so its edit would wait for the next re-check. The glob has
 * no escape character, but inside a class every character but `]`-not-first, `-`, a leading
 * `!`/`^` and `/` is taken literally (and regex-escaped): so each special character, and each
 * whitespace character (what `String.prototype.trim` removes is exactly `\s`), is wrapped in
 * a class of its own. `[]]` holds a literal `]`, being its first character. `!`, `^` and `-`
 * are literal outside a class, and are left there.
 */
export function literalGlob(name: string): string {
  return name.replace(/[[\]{}*?]|\s/gu, (c) => `[${c}]`);
}
