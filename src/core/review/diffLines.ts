import type { DiffLine } from './reviewModel';
import type { ShowText } from './shown';

/** A file's unified diff as the panel shows it: each line of its hunks, marked hunk, added, removed or context. */
export function diffLines(unifiedDiff: string, S: ShowText): DiffLine[] {
  // `\ No newline at end of file` stays: where only the last newline changed, it is the only difference shown.
  return diffBody(unifiedDiff)
    .filter((l) => l !== '')
    .map((l) => ({ kind: lineKind(l), text: S(l) }));
}

function lineKind(line: string): DiffLine['kind'] {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'del';
  return 'ctx';
}

/**
 * A unified diff's lines from its first hunk on: the header (`===`, `---`, `+++`) names the
 * files, which the panel shows apart. Only lines before the first `@@` are the header: a
 * removed line `-- x` (a Lua or SQL comment) reads `--- x`, an added `++ x` reads `+++ x`,
 * and filtering those by their start hid them from the review.
 */
function diffBody(unifiedDiff: string): string[] {
  const lines = unifiedDiff.split('\n');
  const first = lines.findIndex((l) => l.startsWith('@@'));
  return first < 0 ? [] : lines.slice(first);
}
