import { FILE_START, type Decision } from '../../model';
import { agentItem } from '../../agentItem';
import { isWorkflowCapability } from './decide';
import { evaDiagnostic } from './diagnostics';
import type { EvaItem } from './item';
import type { ManifestEntry } from './manifestEntry';
import type { EvaProject } from './project';
import type { EvaRuntime } from './runtime';
import { EVA_SYSTEM, type EvaItemReason, type EvaReason } from './vocabulary';
import { isMapping, manifestRoot } from './yamlValue';
import { capabilityProviderRefs } from './capabilityProviderRefs';
import { manifestEnabled, manifestString } from './rawManifestSerde';

/** `kind: skill` capability manifests as children of their provider adapter (eva.md §2.6). */

/** A `kind: skill` capability manifest bound to its provider adapter (§2.6). */
export function bindingItem(
  entry: ManifestEntry,
  adapters: ManifestEntry[],
  byEntry: Map<ManifestEntry, EvaItem>,
  project: EvaProject,
  runtime: EvaRuntime,
): EvaItem | undefined {
  const root = entry.doc && manifestRoot(entry.doc);
  const value = isMapping(root) ? root : undefined;
  // `default_provider`, else `provider`, as serde reads them (`default_provider: 5` is "5"; `~` is none).
  const [named] =
    entry.doc && value ? capabilityProviderRefs(entry.doc, value).filter((r) => r.field.length === 1) : [];
  const providerField = named?.field[0] ?? 'provider';
  const providerId = named?.name ?? null;
  const provider = providerId === null ? undefined : adapters.find((a) => a.id === providerId && !a.shadow);
  const providerItem = provider ? byEntry.get(provider) : undefined;
  if (provider && !providerItem) {
    entry.diagnostics.push(
      evaDiagnostic(
        entry.abs,
        entry.doc?.fieldRange([providerField]),
        'eva.capability.skill-provider-not-skill',
        'kind: skill capability names a provider that is not a skill adapter',
      ),
    );
    return undefined;
  }
  // A manifest naming no provider at all: Eva loads it as a capability nothing provides, without
  // a word (`validate_capability_providers` checks only the providers named), and Skillgate's
  // binding (§2.6) has no adapter to hang from. Rejected, so it must say why, in Skillgate's words.
  if (providerId === null && !entry.unreadable)
    entry.diagnostics.push(
      evaDiagnostic(
        entry.abs,
        entry.doc?.fieldRange(['kind']) ?? FILE_START,
        'eva.capability.skill-provider-none',
        'kind: skill capability names no provider (default_provider or provider): no adapter provides this skill, so nothing loads it',
      ),
    );
  // serde's text of the `String` (`capability: !t workflow.x` is "workflow.x" to Eva).
  const capability = (entry.doc && value ? manifestString(entry.doc, value, 'capability') : undefined) ?? '';
  let decision: Decision;
  let reasons: EvaItemReason[];
  const invalid = entry.check?.invalid === true || !provider || entry.providerMissing;
  if (entry.unreadable) [decision, reasons] = ['rejected', [entry.unreadable]];
  // A shadowed manifest is never loaded, whatever else is true of it: that reason leads (eva.md §4.1).
  else if (entry.shadow)
    [decision, reasons] = [
      'shadowed',
      invalid ? ['duplicate_id_shadowed', 'schema_invalid'] : ['duplicate_id_shadowed'],
    ];
  else if (invalid) [decision, reasons] = ['rejected', ['schema_invalid']];
  // serde's `bool` (the loader passed it): `enabled: !t false` is false to Eva.
  else if (entry.doc && value && !manifestEnabled(entry.doc, value))
    [decision, reasons] = ['disabled', ['disabled_by_manifest']];
  else if (!isWorkflowCapability(capability)) [decision, reasons] = ['display_only', ['capability_unknown']];
  else if (providerItem?.decision === 'registered')
    [decision, reasons] = [
      'registered',
      [providerItem.reasons[0] === 'registered' ? 'registered' : 'loaded_unreviewed'],
    ];
  else [decision, reasons] = ['disabled', ['bundle_inactive']];
  // Its own file says why it is off or only shown, in the words an adapter's C4 and C12 use (decide.ts, eva.md §5).
  if (reasons[0] === 'disabled_by_manifest')
    entry.diagnostics.push(
      evaDiagnostic(
        entry.abs,
        entry.doc?.fieldRange(['enabled']),
        'eva.manifest.disabled',
        'capability manifest is disabled',
      ),
    );
  else if (reasons[0] === 'capability_unknown')
    entry.diagnostics.push(
      evaDiagnostic(
        entry.abs,
        entry.doc?.fieldRange(['capability']),
        'eva.capability.unknown',
        // A binding with no capability never gets here: the manifest schema requires one (schema_invalid).
        `capability ${capability} is not a workflow.* capability; skills expose only workflow capabilities`,
      ),
    );
  const id = entry.id ?? entry.rel;
  const evaReasons = reasons.filter((r): r is EvaReason => r !== 'loaded_unreviewed');
  return agentItem(
    {
      id: entry.itemId as string,
      system: EVA_SYSTEM,
      kind: 'skill-binding',
      name: typeof value?.['name'] === 'string' ? (value['name'] as string) : id,
      qualifiedName: id,
      scope: 'workspace',
      workspace: project.root,
      path: entry.abs,
      location: { file: entry.abs, range: entry.doc?.has(['id']) ? entry.doc.fieldRange(['id']) : FILE_START },
      parent: providerItem?.id ?? null,
      decision,
      reasons,
      detail: {
        manifest: entry.abs,
        eva: {
          evaDecision: decision,
          evaReasons: evaReasons.length ? evaReasons : ['registered'],
          target: decision === 'registered' ? (providerItem?.detail.eva.target ?? null) : null,
          evaKind: providerItem?.detail.eva.evaKind ?? 'workflow_skill',
          source: 'project_capability',
          trustLevel: 'Project',
          id,
          skillId: providerItem?.detail.eva.skillId ?? null,
          skillPath: null,
          script: null,
          runner: null,
          runtimeGate: providerItem?.detail.eva.runtimeGate ?? null,
          assumedRuntime: runtime,
          schemas: {
            input: value?.['input_schema'] ? 'inline' : 'absent',
            output: value?.['output_schema'] ? 'inline' : 'absent',
          },
          requestedPermissions: {},
          effectivePermissions: {},
          capabilities: capability ? [capability] : [],
          conflicts: [],
          effectiveTimeoutMs: null,
        },
      },
    },
    // The winner only when it is an item (an earlier binding, a lua skill): a context manifest, or a
    // binding whose provider is no skill adapter, is none, as for skill items (indexEva.ts, eva.md case 35).
    { shadowedBy: entry.shadow && byEntry.get(entry.shadow.by)?.id },
  );
}
