import { visit } from 'jsonc-parser';
import type { DocPath } from '../../documents/document';

/**
 * Keys of a JSON object in the order of the dict Python's json builds: where each first
 * occurs in the text (a repeated key keeps its first place and takes its last value).
 * pydantic reports extra keys in that order, so it decides which one Rivumi names first.
 * A JavaScript object lists array-index keys ("0", "7") before all others whatever the
 * text, and keeps the text's order for the rest: only keys among which an index is need
 * the text read again.
 */
export function pythonKeyOrder(text: string, path: DocPath, keys: readonly string[]): readonly string[] {
  if (!keys.some(isArrayIndex)) return keys;
  const first = new Map<string, number>();
  visit(
    text,
    {
      onObjectProperty: (property, offset, _length, _line, _character, pathSupplier) => {
        if (!first.has(property) && samePath(pathSupplier(), path)) first.set(property, offset);
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  );
  const at = (k: string) => first.get(k) ?? Number.MAX_SAFE_INTEGER;
  return [...keys].sort((a, b) => at(a) - at(b));
}

/** ECMAScript's array index: a canonical decimal below 2³² − 1, which property order puts first. */
function isArrayIndex(key: string): boolean {
  return /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 2 ** 32 - 1;
}

function samePath(a: readonly (string | number)[], b: DocPath): boolean {
  return a.length === b.length && a.every((segment, i) => segment === b[i]);
}
