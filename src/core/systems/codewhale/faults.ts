import { internalDiagnostic } from '../../diagnostics/faults';
import type { RootScan } from './discovery';

/** Codewhale's fault boundary of one discovery root (diagnostics/faults.ts); one bundle's is in bundleJob.ts. */

/** A discovery root whose listing threw: no bundles from it, and an error at the root. */
export function faultedRootScan(root: string, scope: RootScan['scope'], error: unknown): RootScan {
  return {
    scope,
    root,
    canonicalRoot: undefined,
    candidates: [],
    diagnostics: [internalDiagnostic(root, `the plugin directory ${root}`, error)],
  };
}
