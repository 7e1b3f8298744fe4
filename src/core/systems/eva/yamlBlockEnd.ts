import { Scalar, visit, type Document } from 'yaml';

/**
 * A block scalar (`|`, `>`) whose last line of content ends the file with no line break:
 * libyaml's scanner keeps only the breaks it read, so `a: |\n  x` at the end of a file is
 * `x` to Eva (with `|+` too), where the yaml library reads `x\n`. An id or a path written
 * that way failed Skillgate's patterns but not Eva's. The parsed nodes get libyaml's value.
 */
export function dropUnreadFinalBreak(doc: Document.Parsed, text: string): void {
  // Only a file whose last line holds content can end inside a block scalar's content line.
  const lastLine = text.slice(Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1);
  if (!/[^ \t]/.test(lastLine) || !/[|>]/.test(text)) return;
  visit(doc, {
    Scalar(_key, node) {
      if (node.type !== Scalar.BLOCK_LITERAL && node.type !== Scalar.BLOCK_FOLDED) return;
      if (node.range?.[1] !== text.length || typeof node.source !== 'string' || !node.source.endsWith('\n')) return;
      node.source = node.source.slice(0, -1);
      if (typeof node.value === 'string') node.value = node.value.slice(0, -1);
    },
  });
}
