import * as path from 'node:path';
import { rivumiIdPrefix } from './itemIds';
import { internalDiagnostic } from '../../diagnostics/faults';
import { FILE_START, type Diagnostic, type Item } from '../../model';
import type { RivumiProject } from './model';

/**
 * A workspace whose `.rivumi/` load threw. Rivumi loads its plugins and (opted in)
 * hooks without an enable switch, so "nothing found" would let `check` pass over files
 * Rivumi may run: the folder stands as one rejected, unreviewed entry instead, which
 * fails `check` until the fault is gone.
 */
export function faultedRivumiProject(workspace: string, error: unknown): RivumiProject {
  return {
    workspace,
    skills: [],
    plugins: [],
    skillLoad: null,
    hookLoad: null,
    hookOverflowFile: null,
    diagnostics: [],
    fault: rivumiFault(workspace, error),
  };
}

export function rivumiFault(workspace: string, error: unknown): Diagnostic {
  return internalDiagnostic(path.join(workspace, '.rivumi'), `this workspace's .rivumi`, error);
}

/** The item and diagnostic that stand for a faulted `.rivumi/`. */
export function faultedRivumiItems(workspace: string, fault: Diagnostic): { items: Item[]; diagnostics: Diagnostic[] } {
  const id = `${rivumiIdPrefix(workspace)}.rivumi`;
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
