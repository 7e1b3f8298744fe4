import * as path from 'node:path';
import { rivumiIdPrefix } from './itemIds';
import { internalDiagnostic } from '../../diagnostics/faults';
import { trustGate, type GateContext } from '../../decisions/gates';
import { FILE_START, type Diagnostic, type Item } from '../../model';
import { agentItem } from '../../agentItem';
import { emptyRivumiProject, type RivumiProject } from './model';

/**
 * A workspace whose `.rivumi/` load threw. Rivumi loads its plugins and (opted in)
 * hooks without an enable switch, so "nothing found" would let `check` pass over files
 * Rivumi may run: the folder stands as one rejected, unreviewed entry instead, which
 * fails `check` until the fault is gone.
 */
export function faultedRivumiProject(workspace: string, error: unknown): RivumiProject {
  return { ...emptyRivumiProject(workspace, []), fault: rivumiFault(workspace, error) };
}

export function rivumiFault(workspace: string, error: unknown): Diagnostic {
  return internalDiagnostic(path.join(workspace, '.rivumi'), `this workspace's .rivumi`, error);
}

/**
 * The item and diagnostic that stand for a faulted `.rivumi/`. It has no identity a receipt
 * could name, so it is never trusted; its gate reasons follow `manifest_invalid` as on any
 * rejected unit (decisions.md "Reason codes").
 */
export function faultedRivumiItems(
  workspace: string,
  fault: Diagnostic,
  ctx: GateContext,
): { items: Item[]; diagnostics: Diagnostic[] } {
  const id = `${rivumiIdPrefix(workspace)}.rivumi`;
  const dir = path.join(workspace, '.rivumi');
  const gate = trustGate({ bundleKey: null, contentHash: null, capabilityHash: null, enableSwitch: false }, ctx);
  const item = agentItem(
    {
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
      reasons: ['manifest_invalid', ...gate.reasons],
      detail: {},
    },
    // Rivumi has no enable switch (system.ts): no enable bit, as on its other units.
    { trust: gate.trust },
  );
  return { items: [item], diagnostics: [{ ...fault, itemId: id }] };
}
