import * as path from 'node:path';
import { sha256Hex } from '../../hashing/framing';
import { faultText, internalDiagnostic } from '../../diagnostics/faults';
import { FILE_START, type Diagnostic } from '../../model';
import { agentItem } from '../../agentItem';
import type { TrustView } from '../../decisions/trustView';
import { evaGate, indexGateContext, withTrust } from './bundleTrust';
import type { EvaFolderIndex } from './indexEva';
import type { EvaItem } from './item';
import { evaDetail } from './skillItem';
import { DEFAULT_POLICY } from './policy';
import type { EvaRuntime } from './runtime';
import { EVA_SYSTEM } from './vocabulary';

/**
 * Eva's fault boundaries (diagnostics/faults.ts): one project, and the user skill folders.
 *
 * A project whose load threw stands as one rejected, unreviewed `skill-adapter` entry for
 * its `config/eva.yaml`, with the `skillgate.internal` error on it. Eva registers what its
 * own rules admit, whatever Skillgate's trust says, so "no items" would let `check` pass
 * over manifests Eva may load: the entry fails `check` until the fault is gone, as a
 * faulted `.rivumi/` does. Its reasons are those of an Eva manifest that does not read
 * (`schema_invalid`, then every gate reason that holds: it has no identity a receipt could
 * name, so it is never trusted); the error says that it is Skillgate that could not read it.
 *
 * The project's user-skill switch and its adapters are unknown, and a user skill's decision
 * depends on both (a project adapter may wrap it), so beside a faulted project no user
 * skill is listed: showing them as `manifest_required` could state the wrong decision.
 */
export function faultedEvaFolder(
  workspace: string,
  runtime: EvaRuntime,
  trust: TrustView,
  error: unknown,
): EvaFolderIndex {
  const configFile = path.join(workspace, 'config', 'eva.yaml');
  const id = `eva:${sha256Hex(workspace).slice(0, 12)}:config`;
  const fault = internalDiagnostic(configFile, "this folder's Eva project", error);
  const gate = evaGate(null, null, null, indexGateContext(trust));
  const { decision, reasons } = withTrust('rejected', ['schema_invalid'], gate);
  const item: EvaItem = agentItem(
    {
      id,
      system: EVA_SYSTEM,
      kind: 'skill-adapter',
      name: 'config',
      qualifiedName: 'config',
      scope: 'workspace',
      workspace,
      path: configFile,
      location: { file: configFile, range: FILE_START },
      parent: null,
      decision,
      reasons,
      detail: {
        manifest: configFile,
        notCovered: [`Skillgate could not read this Eva project: ${faultText(error)}`],
        // No contract could be read: the detail of a manifest that does not parse.
        eva: evaDetail(
          'skill-adapter',
          null,
          undefined,
          'rejected',
          ['schema_invalid'],
          { runtime, policy: DEFAULT_POLICY },
          'config',
          null,
        ),
      },
    },
    { trust: gate.trust },
  );
  return {
    root: workspace,
    folder: workspace,
    items: [item],
    diagnostics: [{ ...fault, itemId: id }],
    adapters: [],
    policy: DEFAULT_POLICY,
    scanUserDirs: false,
    roots: [],
    units: new Map(),
    unhashed: new Map(),
    reads: [],
    fault,
  };
}

/** The user skill folders, when reading them threw: no user skill, and the error at `~/.codex/skills`. */
export function faultedEvaUser(home: string, error: unknown): { items: EvaItem[]; diagnostics: Diagnostic[] } {
  const dir = path.join(home, '.codex', 'skills');
  return { items: [], diagnostics: [internalDiagnostic(dir, 'the user skill folders', error)] };
}
