import type { FixDraft } from '../../diagnostics/fixBasis';
import type { YamlDocument } from './yamlDocument';

/**
 * The quick fix for `allow_unknown_capability` (eva.md §4.4): no policy knob allows it, so it
 * has no effect, and without it the manifest means what it meant. Its line goes where the key
 * is a top-level entry written on one line of its own (YamlDocument.lineEntrySpan); none otherwise.
 */
export function allowUnknownFix(doc: YamlDocument): FixDraft | undefined {
  const span = doc.lineEntrySpan(['allow_unknown_capability']);
  if (!span) return undefined;
  return {
    title: 'Remove allow_unknown_capability (no policy honours it)',
    edits: [{ file: doc.file, range: doc.spanRange(span[0], span[1]), newText: '' }],
  };
}
