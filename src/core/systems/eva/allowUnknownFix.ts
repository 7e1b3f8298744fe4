import type { FixDraft } from '../../diagnostics/fixBasis';
import type { Checker } from './contracts';
import { fixLast } from './diagnostics';
import type { YamlDocument } from './yamlDocument';

/**
 * A skill manifest's `allow_unknown_capability` (eva.md §4.4), which both skill contracts (a
 * skill adapter's, a Lua skill's) note alike: no policy knob allows it, so it has no effect,
 * and the note carries the fix that removes it.
 */
export function noteAllowUnknownIgnored(c: Checker, value: Readonly<Record<string, unknown>>): void {
  if (value['allow_unknown_capability'] === undefined) return;
  c.note(
    'eva.capability.allow-unknown-ignored',
    'allow_unknown_capability is not honoured without a policy that allows it',
    ['allow_unknown_capability'],
  );
  fixLast(c.diagnostics, allowUnknownFix(c.doc), c.doc);
}

/**
 * Without the key the manifest means what it meant. Its line goes where the key is a
 * top-level entry written on one line of its own (YamlDocument.lineEntrySpan); none otherwise.
 */
function allowUnknownFix(doc: YamlDocument): FixDraft | undefined {
  const span = doc.lineEntrySpan(['allow_unknown_capability']);
  if (!span) return undefined;
  return {
    title: 'Remove allow_unknown_capability (no policy honours it)',
    edits: [{ file: doc.file, range: doc.spanRange(span[0], span[1]), newText: '' }],
  };
}
