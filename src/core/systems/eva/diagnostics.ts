import { FILE_START, type Diagnostic, type Range, type Severity } from '../../model';
import { severityOf } from '../../diagnostics/diagnosticCodes';
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
