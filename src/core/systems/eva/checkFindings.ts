import type { DocPath } from '../../documents/document';
import type { Diagnostic } from '../../model';
import type { FixDraft } from '../../diagnostics/fixBasis';
import { FileCap } from '../../diagnostics/fileCap';
import { evaDiagnostic, fixLast } from './diagnostics';
import type { EvaDiagnosticCode, EvaReason } from './vocabulary';
import type { YamlDocument } from './yamlDocument';

/**
 * What the checks of one project skill find (eva.md §4.2): every reason that holds, each
 * once and in the order the checks first find it, and the diagnostics that say why, at the
 * fields of the manifest `doc`: a warning per capability outside `workflow.*` is one per
 * list element, which the per-file cap bounds (fileCap.ts).
 */
export class CheckFindings {
  readonly reasons: EvaReason[] = [];
  readonly diagnostics: Diagnostic[] = [];
  private readonly cap = new FileCap();
  constructor(readonly doc: YamlDocument) {}

  reason(r: EvaReason): void {
    if (!this.reasons.includes(r)) this.reasons.push(r);
  }

  note(code: EvaDiagnosticCode, message: string, field: DocPath): void {
    this.cap.add(this.diagnostics, evaDiagnostic(this.doc.file, this.doc.fieldRange(field), code, message));
  }

  /** The last note carries `draft`, bound to the manifest it edits (diagnostics.ts fixLast). */
  fixLast(draft: FixDraft | undefined): void {
    fixLast(this.diagnostics, draft, this.doc);
  }
}
