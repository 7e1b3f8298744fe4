import type { DocPath } from '../../documents/document';
import type { YamlDocument } from './yamlDocument';

/**
 * `keys` of the mapping at `at`, in the order the document writes them (serde reads a mapping in
 * that order; a record lists integer-like names first). One pass over the mapping: a position
 * looked up per key made a mapping of 5,000 keys take seconds.
 */
export function keysInDocumentOrder(doc: YamlDocument, at: DocPath, keys: readonly string[]): string[] {
  if (keys.length < 2) return [...keys];
  const wanted = new Set(keys);
  // The first key of a name is the one a record's entry is found by (as keyRange finds it).
  const ordered = doc.keyNamesInOrder(at).filter((k) => wanted.delete(k));
  return [...ordered, ...wanted];
}
