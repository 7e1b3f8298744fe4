import type { Fix, FixEdit } from '../model';
import { lineMapTextBasis } from '../text/editorTextBasis';

/** A quick fix as a rule computes it: its edits' ranges, not yet bound to the text they index. */
export interface FixDraft {
  readonly title: string;
  readonly edits: readonly Omit<FixEdit, 'basis'>[];
}

/** The text a parsed document's ranges were computed on (ParsedDocument, YamlDocument). */
export interface RangedText {
  readonly text: string;
  /**
   * The reader dropped the encoding's byte-order mark from `text` before its line map indexed
   * it (YamlDocument): the text is the editor's as it stands (LineMap `markDropped`).
   */
  readonly markDropped?: boolean;
}

/**
 * The fix with each edit bound to the text its range was computed on (`basis`), or none
 * when the text of an edit's file is not known: such a fix could never be offered safely,
 * so it is not carried at all (fail closed). Every fix is recorded through here, where
 * the documents the rule read are known: Findings.inFile for Codewhale, the checks of Eva.
 */
export function boundFix(draft: FixDraft, documentOf: (file: string) => RangedText | undefined): Fix | undefined {
  const edits: FixEdit[] = [];
  for (const e of draft.edits) {
    const doc = documentOf(e.file);
    if (!doc) return undefined;
    edits.push({ ...e, basis: basisOf(doc) });
  }
  return edits.length === 0 ? undefined : { title: draft.title, edits };
}

/**
 * One hash per document, however many fixes it has: a manifest of a megabyte may repeat a
 * list value thousands of times, each repeat with its own fix.
 */
const bases = new WeakMap<RangedText, string>();

function basisOf(doc: RangedText): string {
  let basis = bases.get(doc);
  if (basis === undefined) {
    basis = lineMapTextBasis(doc.text, doc.markDropped);
    bases.set(doc, basis);
  }
  return basis;
}
