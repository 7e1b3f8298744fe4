import { FILE_START, type Diagnostic, type Range, type Severity } from '../../model';
import { severityOf } from '../../diagnostics/diagnosticCodes';
import { boundFix, type FixDraft, type RangedText } from '../../diagnostics/fixBasis';
import type { EvaDiagnosticCode } from './vocabulary';

/** An Eva diagnostic in the shared shape, its severity from the code table unless stated. */
export function evaDiagnostic(
  file: string,
  range: Range | undefined,
  code: EvaDiagnosticCode,
  message: string,
  severity?: Severity,
): Diagnostic {
  return { file, range: range ?? FILE_START, severity: severity ?? severityOf(code), code, message, itemId: null };
}

/**
 * Gives the last diagnostic of `diagnostics` the fix `draft`, bound to the text its range
 * indexes (fixBasis.ts): the Eva file `doc` the check read, the only file its fixes edit.
 * Past a file's cap the last is the count of those left out (fileCap.ts), which no fix fits.
 */
export function fixLast(
  diagnostics: Diagnostic[],
  draft: FixDraft | undefined,
  doc: RangedText & { readonly file: string },
): void {
  const fix = draft && boundFix(draft, (file) => (file === doc.file ? doc : undefined));
  const last = diagnostics[diagnostics.length - 1];
  if (fix && last && last.code !== 'skillgate.diagnostics.truncated')
    diagnostics[diagnostics.length - 1] = { ...last, fix };
}
