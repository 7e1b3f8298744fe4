import { FILE_START, type Diagnostic, type Range, type Severity } from '../../model';
import { EVA_DIAGNOSTIC_CODES, type EvaDiagnosticCode } from './vocabulary';

/** An Eva diagnostic in the shared shape, its severity from the Eva code table unless stated. */
export function evaDiagnostic(file: string, range: Range | undefined, code: EvaDiagnosticCode, message: string, severity?: Severity): Diagnostic {
  return { file, range: range ?? FILE_START, severity: severity ?? EVA_DIAGNOSTIC_CODES[code][0], code, message, itemId: null };
}
