import { severityOf } from './diagnosticCodes';
import { FILE_START, type Diagnostic } from '../model';

/**
 * Fault boundaries of the index. The loaders never throw for bad input; if one does
 * anyway (a bug, or input nobody foresaw), the failure stays with the unit that was
 * being read (one Codewhale bundle, one discovery root, one workspace's `.rivumi/`, one
 * folder's Eva project, the user skill folders):
 * that unit is shown as rejected with a `skillgate.internal` error naming the
 * exception, and everything else is indexed as usual. A rejected unit is never
 * registered, so a fault can only close a gate, never open one.
 */

export function faultText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function internalDiagnostic(file: string, what: string, error: unknown): Diagnostic {
  return {
    file,
    range: FILE_START,
    severity: severityOf('skillgate.internal'),
    code: 'skillgate.internal',
    message: `internal error while reading ${what}: ${faultText(error)}; Skillgate treats it as invalid`,
    itemId: null,
  };
}
