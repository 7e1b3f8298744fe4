import type { Fix } from '../../core/model';
import { editorTextBasis } from '../../core/text/editorTextBasis';

/**
 * Whether a quick fix may be offered, and applied: each edit's range still names the text it
 * was computed on, which holds only while the editor's text of its file has the basis the
 * core recorded (fixBasis.ts). After a save, a checkout or another tool's write, the
 * snapshot's ranges are offered until the index lands again, and a line added above would
 * make the edit replace other text; an editor with unsaved changes is the same case. Fails
 * closed: a file whose current text is unknown, or an edit without a basis (a snapshot of
 * another version), offers nothing.
 *
 * `currentText(file)` is the text the edit would be applied to, as the editor holds it
 * (`TextDocument.getText()`, which has no byte-order mark).
 */
export function fixIsCurrent(fix: Fix, currentText: (file: string) => string | undefined): boolean {
  return Array.isArray(fix.edits) && fix.edits.length > 0 && staleFileOf(fix, currentText) === undefined;
}

/**
 * The first file the fix edits whose current text is not the text its edit was computed on
 * (or is unknown, or whose edit has no basis); undefined when every edit's file still has it.
 * The quick fix names it when it refuses to apply (quickFixes.ts).
 */
export function staleFileOf(fix: Fix, currentText: (file: string) => string | undefined): string | undefined {
  // One hash per file, however many of the fix's edits name it.
  const current = new Map<string, string | undefined>();
  for (const e of fix.edits) {
    if (typeof e.basis !== 'string') return e.file;
    if (!current.has(e.file)) {
      const text = currentText(e.file);
      current.set(e.file, text === undefined ? undefined : editorTextBasis(text));
    }
    if (current.get(e.file) !== e.basis) return e.file;
  }
  return undefined;
}
