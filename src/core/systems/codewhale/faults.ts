import * as path from 'node:path';
import { canonicalPath } from '../../fs/safeFs';
import { internalDiagnostic } from '../../diagnostics/faults';
import type { CodewhaleBundle } from './bundle';
import type { ManifestLabel } from './manifest';
import type { RootScan } from './discovery';
import type { BundleJob } from './bundleJob';

/** Codewhale's fault boundaries (diagnostics/faults.ts): one bundle, one discovery root. */

/** A bundle whose load threw: rejected (`manifest_invalid`), with the exception as its diagnostic. */
export function faultedBundle(job: BundleJob, label: ManifestLabel | undefined, error: unknown): CodewhaleBundle {
  const manifestFile = label ? path.join(job.dir, label) : undefined;
  const dirName = path.basename(job.dir);
  return {
    scope: job.scope,
    dir: job.dir,
    dirName,
    canonicalRoot: canonicalPath(job.dir),
    manifestFile,
    label,
    name: dirName,
    valid: false,
    files: [],
    directories: [],
    skills: [],
    when: { applicable: true, reasons: [] },
    diagnostics: [internalDiagnostic(manifestFile ?? job.dir, `the bundle ${dirName}`, error)],
    anchors: {},
    bundleFiles: [manifestFile ?? job.dir],
  };
}

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
