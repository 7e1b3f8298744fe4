import type { DocPath } from '../../documents/document';
import type { FixDraft } from '../../diagnostics/fixBasis';
import type { YamlDocument } from './yamlDocument';

/**
 * The quick fix for a skill input schema whose `type` is not `object` (eva.md §2.3): Eva
 * invokes a skill only with an object input, so `object` is the one value that passes, and
 * it replaces the scalar written there. None where no scalar is written to replace (a
 * missing `type`, a list of types), nor where the scalar carries a tag or an anchor (an
 * anchored value is every alias of it too).
 */
export function objectTypeFix(doc: YamlDocument, path: DocPath): FixDraft | undefined {
  if (doc.scalarAt(path) === undefined || doc.literalAt(path) === undefined || doc.hasNodeProperties(path))
    return undefined;
  // A block scalar (`|`, `>`) runs through the line break that ends it: that break stays, or
  // the next key would join this line.
  const [start, end] = doc.valueSpan(path);
  let until = end;
  while (until > start && (doc.text[until - 1] === '\n' || doc.text[until - 1] === '\r')) until--;
  return {
    title: 'Write type: object (the only input type Eva invokes)',
    edits: [{ file: doc.file, range: doc.spanRange(start, until), newText: 'object' }],
  };
}
