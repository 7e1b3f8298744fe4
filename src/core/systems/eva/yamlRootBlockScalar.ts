import { Scalar, isScalar, type Document } from 'yaml';

/**
 * A block scalar (`|`, `>`) that is the document's root node, with no indentation indicator,
 * as libyaml 0.2.5 (serde_yaml 0.9, eva.md §2.1) reads it: its content is indented at least
 * one column (the root's indentation is -1, and libyaml's scanner takes no less than 1), and
 * at least as far as its leading empty lines reach. The yaml library took lines in column 0 as
 * its content (`|` then `abc` was `abc`; `>#c` then `# text` was `# text`).
 *
 * When the first line that is not empty stands left of that, the scalar has no content: its
 * value is empty, or its leading line breaks under `+`. What follows is read after the root
 * node: comments and empty lines end the document; a token there is refused where it starts
 * ("did not find expected <document start>"), a `...` ends the document. Returns libyaml's
 * reading where it differs from the library's, and leaves to the library a second document, a
 * directive, a tab or a BOM there.
 */
export function rootBlockScalarReading(
  doc: Document.Parsed,
  text: string,
): { readonly value: string } | { readonly refusedAt: number } | undefined {
  const root = doc.contents;
  if (!isScalar(root) || (root.type !== Scalar.BLOCK_LITERAL && root.type !== Scalar.BLOCK_FOLDED) || !root.range)
    return undefined;
  const headerAt = text.slice(root.range[0], root.range[1]).search(/[|>]/) + root.range[0];
  const header = /^[|>]([+-]?)(?![1-9])/.exec(text.slice(headerAt, headerAt + 3));
  if (!header) return undefined;
  const keep = header[1] === '+';
  let line = text.indexOf('\n', headerAt) + 1;
  if (line === 0) return undefined;
  let widest = 0;
  let breaks = 0;
  // The leading empty lines: spaces only.
  for (;;) {
    const width = spacesAt(text, line);
    const after = text.charAt(line + width);
    if (after === '\n' || after === '\r') {
      widest = Math.max(widest, width);
      breaks++;
      line = text.indexOf('\n', line) + 1;
      if (line === 0) return undefined;
      continue;
    }
    if (after === '' || width >= Math.max(widest, 1)) return undefined;
    break;
  }
  // No content: what follows stands after the root node. Directives there need a `---` after
  // them: whatever else follows them is refused.
  let directives = false;
  for (let at = line; at < text.length;) {
    const width = spacesAt(text, at);
    const first = text.charAt(at + width);
    // A `...` ends the document (what follows is the library's to read); a `---` starts another.
    if (width === 0 && isDocumentMarker(text, at)) {
      if (first === '.') {
        if (directives) return { refusedAt: at };
        break;
      }
      return undefined;
    }
    if (first === '\t' || first === '\ufeff') return undefined;
    if (first === '%' && width === 0) directives = true;
    else if (first !== '#' && first !== '\n' && first !== '\r' && first !== '') return { refusedAt: at + width };
    const next = text.indexOf('\n', at);
    if (next === -1) break;
    at = next + 1;
  }
  if (directives) return { refusedAt: text.length };
  return { value: keep ? '\n'.repeat(breaks) : '' };
}

/** How many spaces stand at `at`. */
function spacesAt(text: string, at: number): number {
  let end = at;
  while (text.charCodeAt(end) === 0x20) end++;
  return end - at;
}

/** `---` or `...` at `offset`, followed by white space, a line break or the end. */
function isDocumentMarker(text: string, offset: number): boolean {
  return /^(?:---|\.\.\.)(?:[ \t\r\n]|$)/.test(text.slice(offset, offset + 4));
}
