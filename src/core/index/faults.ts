import * as path from 'node:path';
import { canonicalPath } from '../fs/safeFs';
import { sha256Hex } from '../hashing/framing';
import { severityOf } from '../diagnosticCodes';
import { FILE_START, type Diagnostic, type Item } from '../model';
import type { CodewhaleBundle } from '../systems/codewhale/bundle';
import type { ManifestLabel } from '../systems/codewhale/manifest';
import type { RootScan } from '../systems/codewhale/discovery';
import type { RivumiProject } from '../systems/rivumi/model';
import type { BundleJob } from '../systems/codewhale/bundleJob';

/**
 * Fault boundaries of the index. The loaders never throw for bad input; if one does
 * anyway (a bug, or input nobody foresaw), the failure stays with the unit that was
 * being read (one Codewhale bundle, one discovery root, one workspace's `.rivumi/`):
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
  return { scope, root, canonicalRoot: undefined, candidates: [], diagnostics: [internalDiagnostic(root, `the plugin directory ${root}`, error)] };
}

/**
 * A workspace whose `.rivumi/` load threw. Rivumi loads its plugins and (opted in)
 * hooks without an enable switch, so "nothing found" would let `check` pass over files
 * Rivumi may run: the folder stands as one rejected, unreviewed entry instead, which
 * fails `check` until the fault is gone.
 */
export function faultedRivumiProject(workspace: string, error: unknown): RivumiProject {
  return { workspace, skills: [], plugins: [], skillLoad: null, hookLoad: null, hookOverflowFile: null, diagnostics: [], fault: rivumiFault(workspace, error) };
}

export function rivumiFault(workspace: string, error: unknown): Diagnostic {
  return internalDiagnostic(path.join(workspace, '.rivumi'), `this workspace's .rivumi`, error);
}

/** The item and diagnostic that stand for a faulted `.rivumi/`. */
export function faultedRivumiItems(workspace: string, fault: Diagnostic): { items: Item[]; diagnostics: Diagnostic[] } {
  const id = `rivumi:${sha256Hex(workspace).slice(0, 12)}:.rivumi`;
  const dir = path.join(workspace, '.rivumi');
  const item: Item = {
    id,
    system: 'rivumi',
    kind: 'plugin',
    name: '.rivumi',
    qualifiedName: '.rivumi',
    scope: 'workspace',
    workspace,
    path: dir,
    location: { file: dir, range: FILE_START },
    parent: null,
    decision: 'rejected',
    reasons: ['manifest_invalid'],
    shadowedBy: null,
    trust: 'not-reviewed',
    enabled: false,
    compatibility: null,
    contentHash: null,
    capabilityHash: null,
    reviewToken: null,
    detail: {},
  };
  return { items: [item], diagnostics: [{ ...fault, itemId: id }] };
}
