import * as path from 'node:path';
import { sha256Hex } from '../../hashing/framing';
import type { TrustView } from '../../decisions/trustView';
import type { Diagnostic } from '../../model';
import { bindingItem } from './binding';
import { crossNamespace, multipleProviders, providersExist, resolveIds, withConflicts } from './conflicts';
import type { SkillContract } from './contracts';
import type { DecideContext } from './decide';
import type { CoverNoting, EvaTrustUnit } from './indexedTrustUnit';
import type { EvaItem } from './item';
import { firstFailingFile, loadAbortedDiagnostic } from './loadAborted';
import { readEntry, scanRoot, type ManifestEntry } from './manifestEntry';
import { allowedRoot } from './paths';
import type { EvaPolicy } from './policy';
import type { EvaProject } from './project';
import { adapterRef } from './projectAdapterRef';
import { projectConfigFails } from './projectConfigCheck';
import { readProjectPolicy } from './projectPolicy';
import type { EvaRuntime } from './runtime';
import { loadSchemas } from './schemas';
import { skillItem } from './skillItem';
import type { ProjectAdapterRef } from './userSkills';

interface ProjectResult {
  readonly items: EvaItem[];
  readonly diagnostics: Diagnostic[];
  readonly adapters: ProjectAdapterRef[];
  readonly policy: EvaPolicy;
  readonly units: Map<string, EvaTrustUnit>;
  readonly unhashed: Map<string, CoverNoting>;
  readonly reads: string[];
}

/** One Eva project's items, diagnostics and trust inputs, decided under its canonical root (indexEva.ts `indexEvaFolder`). */
export function indexProject(
  project: EvaProject,
  home: string | null,
  runtime: EvaRuntime,
  trust: TrustView,
): ProjectResult {
  const diagnostics: Diagnostic[] = [...project.diagnostics];
  const schemas = loadSchemas(
    project.roots.schema_dir,
    project.configFile,
    project.document?.fieldRange(['config', 'schema_dir']),
  );
  for (const d of schemas.diagnostics) diagnostics.push(d);
  const evaYamlFails = projectConfigFails(project, schemas.schemas.eva, diagnostics);
  // Ids name the project by a hash of its canonical root, as Rivumi's and faults.ts's do: two
  // folders with one base name (`a/e1`, `b/e1`) would otherwise list the same id, so `trust`
  // and `show` could not select one and reports would tie one's diagnostics to the other.
  const projectTag = sha256Hex(project.root).slice(0, 12);

  const { policy, failing: policyFailing } = readProjectPolicy(project, schemas.schemas.policy, diagnostics);

  const adapterEntries = scanRoot(project, 'adapter_dir', diagnostics).map((abs) =>
    readEntry(abs, 'adapter', project, projectTag, schemas),
  );
  const capabilityEntries = scanRoot(project, 'capability_dir', diagnostics).map((abs) =>
    readEntry(abs, 'capability', project, projectTag, schemas),
  );
  resolveIds(adapterEntries, 'eva.conflict.duplicate-adapter-id', 'duplicate Adapter manifest id', project.root);
  resolveIds(
    capabilityEntries,
    'eva.conflict.duplicate-capability-id',
    'duplicate Capability manifest id',
    project.root,
  );
  crossNamespace(adapterEntries, capabilityEntries);
  providersExist(capabilityEntries, adapterEntries);

  const projectRoots = [allowedRoot(project.root)];
  const skillPathRoots =
    home === null
      ? projectRoots
      : [
          ...projectRoots,
          allowedRoot(path.join(home, '.codex', 'skills')),
          allowedRoot(path.join(home, '.agents', 'skills')),
        ];
  const ctx: DecideContext = { projectRoot: project.root, home, runtime, policy, skillPathRoots, projectRoots };

  const items: EvaItem[] = [];
  // Resolved `skill.path` per item id, for user-item shadowing (§4.3 rule 4).
  const resolvedSkillPaths = new Map<string, string>();
  const units = new Map<string, EvaTrustUnit>();
  const unhashed = new Map<string, CoverNoting>();
  // The layers decide the roots: a change to one re-reads the project (eva.md §1.1).
  const reads = new Set<string>(project.layerFiles);
  const byEntry = new Map<ManifestEntry, EvaItem>();
  const contracts = new Map<ManifestEntry, SkillContract>();
  for (const entry of [...adapterEntries, ...capabilityEntries]) {
    if (entry.role !== 'skill-adapter' && entry.role !== 'lua-skill') continue;
    const item = skillItem(entry, ctx, trust, project, home, resolvedSkillPaths, { units, unhashed }, reads);
    items.push(item);
    byEntry.set(entry, item);
    if (entry.check?.contract) contracts.set(entry, entry.check.contract);
  }
  multipleProviders(
    adapterEntries.filter((e) => e.role === 'skill-adapter'),
    contracts,
  );
  for (const entry of capabilityEntries) {
    if (entry.role !== 'binding') continue;
    const binding = bindingItem(entry, adapterEntries, byEntry, project, runtime);
    if (!binding) continue;
    items.push(binding);
    byEntry.set(entry, binding);
  }
  // §4.3 rules 1–2: a shadowed skill names its winner's item, which may be a binding decided after
  // it; a winner that is no item (a context manifest) is none.
  for (const [entry, item] of byEntry)
    if (entry.shadow && item.kind !== 'skill-binding') item.shadowedBy = byEntry.get(entry.shadow.by)?.id ?? null;

  const all = [...adapterEntries, ...capabilityEntries];
  const firstFailing = firstFailingFile(project, evaYamlFails, all, policyFailing, diagnostics);
  for (const e of all) {
    const itemId = byEntry.get(e)?.id ?? null;
    for (const d of e.diagnostics) d.itemId ??= itemId;
    for (const d of e.diagnostics) diagnostics.push(d);
  }
  if (firstFailing) diagnostics.push(loadAbortedDiagnostic(firstFailing, all));
  const adapterRefs: ProjectAdapterRef[] = [];
  for (const e of adapterEntries) {
    const ref = e.role === 'skill-adapter' ? adapterRef(e, resolvedSkillPaths, ctx) : undefined;
    if (ref) adapterRefs.push(ref);
  }
  return {
    items: withConflicts(items, diagnostics),
    diagnostics,
    adapters: adapterRefs,
    policy,
    units,
    unhashed,
    reads: [...reads],
  };
}
