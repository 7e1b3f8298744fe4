import { visit, type JSONPath } from 'jsonc-parser';

/**
 * The path of the first object key that occurs twice in a JSON text (the later
 * occurrence), or undefined. `JSON.parse` silently keeps the last value of a repeated
 * key; a closed, fail-closed file must not pick one reading of an ambiguous text.
 * Streams through jsonc-parser's visitor: no tree is built. The caller has already
 * parsed the text, so syntax errors are not reported here.
 */
export function firstDuplicateKey(text: string): JSONPath | undefined {
  const open: Set<string>[] = [];
  let found: JSONPath | undefined;
  visit(
    text,
    {
      onObjectBegin: () => {
        open.push(new Set());
        // Stop descending once a duplicate is known.
        return found === undefined;
      },
      onObjectEnd: () => {
        open.pop();
      },
      onObjectProperty: (property, _offset, _length, _line, _character, pathSupplier) => {
        const keys = open[open.length - 1];
        if (found !== undefined || !keys) return;
        if (keys.has(property)) found = [...pathSupplier(), property];
        keys.add(property);
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  );
  return found;
}
