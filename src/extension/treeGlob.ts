/** Every path below a base, spelled so that VS Code's matcher takes each component apart. */
const EVERY_PATH = '**/*';

/**
 * A watched tree's pattern as VS Code must be given it to report every path the pattern means.
 *
 * VS Code compiles a pattern made only of globstars (`**`) to `^.*$` (src/vs/base/common/glob.ts
 * `parseRegExp`, "Special case where we only have globstars"), and `.` matches no line break: a
 * change to a file whose name holds `\n`, `\r`, U+2028 or U+2029 would never reach the
 * extension, and a bundle could change under its trust unseen until the next re-check.
 * `EVERY_PATH` compiles component by component (`[^/\\]`, every character but a separator),
 * matches the same paths, the tree's own among them, and is watched as recursively.
 */
export function treeGlob(pattern: string): string {
  return pattern.split('/').every((segment) => segment === '**') ? EVERY_PATH : pattern;
}
