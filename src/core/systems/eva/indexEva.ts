import * as path from 'node:path';
import { isInside } from '../../fs/safeFs';
import { sha256Hex } from '../../hashing/framing';
import { bundleKey, reviewToken } from '../../hashing/identity';
import { EMPTY_TRUST, type TrustView } from '../../decisions/trustView';
import { FILE_START, type Decision, type Diagnostic } from '../../model';
import { agentItem } from '../../agentItem';
import { bindingItem } from './binding';
import { capabilityPairs, coveredFiles, evaGate, indexGateContext, withTrust } from './bundleTrust';
import { crossNamespace, multipleProviders, providersExist, resolveIds, withConflicts } from './conflicts';
import type { SkillContract } from './contracts';
import { decideProjectSkill, type DecideContext, type ProjectSkillDecision } from './decide';
import { evaDiagnostic } from './diagnostics';
import { evaCapabilityHash, evaContentHash, type CoveredFile, type CoveredSet } from './hashes';
import type { EvaDetail, EvaItem } from './item';
import { readAndParse, readEntry, scanRoot, type ManifestEntry } from './manifestEntry';
import { allowedRoot, resolveNamedPath } from './paths';
import { evaRunner, type EvaRunner } from './runner';
import { givenFolder } from './givenFolder';
import { DEFAULT_POLICY, readPolicy, type EvaPolicy, type PolicyDocument } from './policy';
import { loadEvaProject, type EvaProject } from './project';
import { DEFAULT_EVA_RUNTIME, type EvaRuntime } from './runtime';
import { firstSchemaError } from './schemaSubset';
import { loadSchemas } from './schemas';
import { indexUserSkills, type ProjectAdapterRef, type UserSkillsRead } from './userSkills';
import { uncoveredDiagnostic, type NoteUncovered, type Uncovered } from './uncovered';
import { EVA_SYSTEM, type EvaReason } from './vocabulary';
import { isMapping, manifestRoot } from './yamlValue';
import type { YamlDocument } from './yamlDocument';

/**
 * The Eva-CLI system's one entry point (eva.md §4.2): every Eva project among the
 * workspace folders, its skill items with Eva's decision and Skillgate's trust gate,
 * the user-level skill folders, and every diagnostic. Pure apart from reading files;
 * the Eva index (evaIndex.ts) calls it per folder.
 */

export interface EvaOptions {
  /** `$HOME` for the user skill roots and `~/` paths; null: no home (no user items). */
  readonly home: string | null;
  /** The assumed runtime (user settings or CLI flags, never the workspace). */
  readonly runtime?: EvaRuntime;
  /** Receipts by bundle key; absent: every bundle is not reviewed. */
  readonly trust?: TrustView;
  /** `--no-user`: no user-level enumeration anywhere. */
  readonly scanUserDirs?: boolean;
}

export interface EvaIndex {
  readonly items: EvaItem[];
  readonly diagnostics: Diagnostic[];
  /** Canonical roots of the folders that are Eva projects. */
  readonly projects: readonly string[];
}

export function indexEva(folders: string | readonly string[], options: EvaOptions): EvaIndex {
  const list = typeof folders === 'string' ? [folders] : folders;
  const runtime = options.runtime ?? DEFAULT_EVA_RUNTIME;
  const trust = options.trust ?? EMPTY_TRUST;
  const results = list
    .map((folder) => indexEvaFolder(folder, options.home, runtime, trust))
    .filter((r): r is EvaFolderIndex => r !== undefined);
  const user = indexEvaUser(results, options);
  return {
    items: [...results.flatMap((r) => r.items), ...user.items],
    diagnostics: [...results.flatMap((r) => r.diagnostics), ...user.diagnostics],
    projects: results.map((r) => r.root),
  };
}

/** One workspace folder's Eva project, indexed on its own (a change re-reads only that project). */
export interface EvaFolderIndex {
  /** The project root, canonical: what Eva's decisions and the trust units' files are read under (project.ts). */
  readonly root: string;
  /** The workspace folder as given: what its items and diagnostics are spelled under (givenFolder.ts). */
  readonly folder: string;
  readonly items: EvaItem[];
  readonly diagnostics: Diagnostic[];
  readonly adapters: ProjectAdapterRef[];
  readonly policy: EvaPolicy;
  readonly scanUserDirs: boolean;
  /** The configuration roots it scans (adapters, capabilities, policies, schemas). */
  readonly roots: readonly string[];
  /** Per bundle item id: what its content hash covers, to read and re-hash it for review and trust. */
  readonly units: ReadonlyMap<string, EvaTrustUnit>;
  /** Per bundle item id Skillgate cannot hash: its covered set named again for its review (`CoverNoting`). */
  readonly unhashed: ReadonlyMap<string, CoverNoting>;
  /**
   * The files the skills' decisions read (Lua scripts, schema files, `skill.path` targets),
   * whether or not trust can cover them: a change to one re-reads the project, so it is
   * watched. A unit with a file trust refuses (a link, a path outside the roots) has no
   * `units` entry, and its other files still decide (`schema_invalid`).
   */
  readonly reads: readonly string[];
  /** Set when reading the project threw (faults.ts): its one item then stands for the whole project. */
  readonly fault?: Diagnostic;
}

/** A bundle's trust inputs as the index read them (eva.md §6.1). */
export interface EvaTrustUnit {
  readonly kind: 'skill-adapter' | 'lua-skill';
  readonly manifest: string;
  readonly covered: readonly CoveredFile[];
  /** The skill folder `skill.path` points into, covered whole (a file added there drops trust). */
  readonly coveredDirectories: readonly string[];
  readonly pairs: ReadonlyMap<string, string>;
}

/**
 * The covered set of a unit Skillgate cannot hash, named again with each path trust cannot cover
 * noted (bundleTrust.ts `coveredFiles`): only its review runs it, to list every file it covers
 * (coveredListing.ts), so the index pays nothing for it.
 */
export type CoverNoting = (note: NoteUncovered) => CoveredSet;

/** The folder's Eva project, or undefined when the folder is not one (eva.md §1.1). */
export function indexEvaFolder(
  folder: string,
  home: string | null,
  runtime: EvaRuntime,
  trust: TrustView,
): EvaFolderIndex | undefined {
  const project = loadEvaProject(folder);
  if (!project) return undefined;
  const roots = Object.values(project.roots).filter((r): r is string => r !== null);
  const indexed = indexProject(project, home, runtime, trust);
  // Decided under the canonical root, reported under the folder as given (givenFolder.ts); the
  // roots, covered files and reads stay canonical: they are what is read and watched, never shown.
  const given = givenFolder(project.root, folder);
  return {
    root: project.root,
    folder,
    scanUserDirs: project.scanUserDirs,
    roots,
    ...indexed,
    ...(given
      ? {
          items: indexed.items.map(given.item),
          diagnostics: indexed.diagnostics.map(given.diagnostic),
          policy: given.policy(indexed.policy),
        }
      : {}),
  };
}

/** User-level skills, beside at least one Eva project and unless a project or `--no-user` turns them off (eva.md §1.3). */
export function indexEvaUser(projects: readonly EvaFolderIndex[], options: EvaOptions): UserSkillsRead {
  // User items only beside an Eva project (eva.md §1.3): the folders belong to Codex too.
  const scanUser = options.scanUserDirs !== false && projects.every((p) => p.scanUserDirs);
  if (projects.length === 0 || !scanUser || options.home === null) return { items: [], diagnostics: [] };
  return indexUserSkills(
    options.home,
    projects.flatMap((p) => p.adapters),
    projects[0]?.policy ?? DEFAULT_POLICY,
    options.runtime ?? DEFAULT_EVA_RUNTIME,
  );
}

interface ProjectResult {
  readonly items: EvaItem[];
  readonly diagnostics: Diagnostic[];
  readonly adapters: ProjectAdapterRef[];
  readonly policy: EvaPolicy;
  readonly units: Map<string, EvaTrustUnit>;
  readonly unhashed: Map<string, CoverNoting>;
  readonly reads: string[];
}

function indexProject(project: EvaProject, home: string | null, runtime: EvaRuntime, trust: TrustView): ProjectResult {
  const diagnostics: Diagnostic[] = [...project.diagnostics];
  const schemas = loadSchemas(
    project.roots.schema_dir,
    project.configFile,
    project.document?.fieldRange(['config', 'schema_dir']),
  );
  for (const d of schemas.diagnostics) diagnostics.push(d);
  let evaYamlFails = project.shippedError;
  if (project.document) {
    // Upstream checks the layered value first (`validate_yaml_value_with_schema`), then the base
    // file alone (`validate_config_files_with_schemas`): a layer may break the schema too.
    const layered = project.value === undefined ? undefined : firstSchemaError(schemas.schemas.eva, project.value);
    const e = layered ?? firstSchemaError(schemas.schemas.eva, project.document.value);
    if (e) {
      diagnostics.push(
        evaDiagnostic(
          project.configFile,
          // A missing field points at the mapping that lacks it, which is what e.path names.
          project.document.fieldRange(e.path),
          'eva.project.config-invalid',
          `${e.message}: ${e.field}`,
        ),
      );
      evaYamlFails = true;
    }
  }
  // Ids name the project by a hash of its canonical root, as Rivumi's and faults.ts's do: two
  // folders with one base name (`a/e1`, `b/e1`) would otherwise list the same id, so `trust`
  // and `show` could not select one and reports would tie one's diagnostics to the other.
  const projectTag = sha256Hex(project.root).slice(0, 12);

  // Policies (§3.3): files the loader refuses fail closed, as the policy gate could not be built.
  const policyFiles = scanRoot(project, 'policy_dir', diagnostics);
  const policyDocs: PolicyDocument[] = [];
  const policyFailing: string[] = [];
  for (const abs of policyFiles) {
    const read = readAndParse(abs, project.maxManifestBytes);
    if ('doc' in read) policyDocs.push({ file: abs, document: read.doc });
    else {
      diagnostics.push(read.diagnostic);
      policyFailing.push(abs);
    }
  }
  const policyReading = readPolicy(policyDocs, schemas.schemas.policy);
  for (const d of policyReading.diagnostics) diagnostics.push(d);
  // A document the shipped loader refuses (an empty one, a padded domain key) leaves no policy
  // gate either: skipping it dropped the denials it holds. In path order, where the load stops.
  const refused = new Set([...policyFailing, ...policyReading.failing]);
  policyFailing.splice(0, policyFailing.length, ...policyFiles.filter((f) => refused.has(f)));
  const policy: EvaPolicy = policyFailing.length ? { ...policyReading.policy, failClosed: true } : policyReading.policy;

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

  // §4.5: the first file at which the shipped Eva-CLI stops, in its load order. Upstream lists every
  // root (adapters, capabilities, policies) before it reads any manifest: a directory it cannot list
  // stops it first.
  const unlisted = (['adapter_dir', 'capability_dir', 'policy_dir'] as const)
    .map((key) => project.roots[key] ?? project.unreadableRoots[key] ?? null)
    .flatMap((root) =>
      diagnostics.filter((d) => d.code === 'eva.scan.unreadable' && root !== null && isInside(root, d.file)),
    )[0]?.file;
  const firstFailing = evaYamlFails
    ? project.configFile
    : (unlisted ?? [...adapterEntries, ...capabilityEntries].find((e) => e.shipped)?.abs ?? policyFailing[0]);
  const all = [...adapterEntries, ...capabilityEntries];
  for (const e of all) {
    const itemId = byEntry.get(e)?.id ?? null;
    for (const d of e.diagnostics) d.itemId ??= itemId;
    for (const d of e.diagnostics) diagnostics.push(d);
  }
  if (firstFailing) {
    const d = evaDiagnostic(
      firstFailing,
      FILE_START,
      'eva.project.load-aborted',
      'Eva-CLI stops loading this project at this file, so it would register no skill until it is fixed',
    );
    d.itemId =
      all.find(
        (e) => e.abs === firstFailing && e.itemId !== null && (e.role === 'skill-adapter' || e.role === 'lua-skill'),
      )?.itemId ?? null;
    diagnostics.push(d);
  }
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

/**
 * A skill adapter as user-item shadowing needs it (§4.3 rule 4: "whatever that adapter's own
 * decision"): read from its `skill` mapping, so that an adapter that breaks a schema or
 * contract rule, whose `skill.path` the decision never resolved, still wraps the folder it names.
 */
function adapterRef(
  e: ManifestEntry,
  resolvedSkillPaths: ReadonlyMap<string, string>,
  ctx: DecideContext,
): ProjectAdapterRef | undefined {
  const root = e.doc && manifestRoot(e.doc);
  const value = isMapping(root) ? root : undefined;
  const skill = value && isMapping(value['skill']) ? value['skill'] : undefined;
  if (!skill) return undefined;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const declared = text(skill['path']);
  let resolvedSkillPath = resolvedSkillPaths.get(e.itemId as string) ?? null;
  if (resolvedSkillPath === null && declared !== null && !declared.includes('\0')) {
    const p = resolveNamedPath(declared, ctx.projectRoot, ctx.home, ctx.skillPathRoots);
    resolvedSkillPath = p.real ?? p.resolved;
  }
  return {
    itemId: e.itemId as string,
    id: e.id ?? e.rel,
    skillSource: text(skill['source']),
    skillId: text(skill['id']),
    resolvedSkillPath,
  };
}

/** A `skill-adapter` or `lua-skill` item: C1–C12, then the trust gate (C13). */
function skillItem(
  entry: ManifestEntry,
  ctx: DecideContext,
  trust: TrustView,
  project: EvaProject,
  home: string | null,
  resolvedSkillPaths: Map<string, string>,
  trustUnits: { readonly units: Map<string, EvaTrustUnit>; readonly unhashed: Map<string, CoverNoting> },
  reads: Set<string>,
): EvaItem {
  const kind = entry.role as 'skill-adapter' | 'lua-skill';
  const contract = entry.check?.contract ?? null;
  let decided: ProjectSkillDecision | undefined;
  let evaReasons: EvaReason[];
  let evaDecision: Decision;
  if (entry.unreadable) {
    evaReasons = [entry.unreadable];
    evaDecision = 'rejected';
  } else if (!contract) {
    // C2 failed before the id or the contract could be read: C3 still applies when an id exists.
    evaReasons = entry.shadow ? ['duplicate_id_shadowed', 'schema_invalid'] : ['schema_invalid'];
    evaDecision = entry.shadow ? 'shadowed' : 'rejected';
  } else {
    decided = decideProjectSkill(
      {
        doc: entry.doc as YamlDocument,
        contract,
        invalid: (entry.check?.invalid ?? false) || entry.providerMissing,
        shadowed: entry.shadow !== undefined,
      },
      ctx,
    );
    evaReasons = decided.reasons;
    evaDecision = decided.decision;
    for (const p of [decided.script, ...decided.schemaFiles, decided.skillPath])
      for (const abs of [p?.resolved, p?.real]) if (abs) reads.add(abs);
    // One push per diagnostic: spreading some 100,000 (one per declared capability) into one call overflows the stack.
    for (const d of decided.diagnostics) entry.diagnostics.push(d);
  }
  if (decided?.skillPath?.resolved)
    resolvedSkillPaths.set(entry.itemId as string, decided.skillPath.real ?? decided.skillPath.resolved);

  // Hashes and key for bundles whose C1 succeeded (§4.6, §6): a manifest that does not read has neither.
  let contentHash: string | null = null;
  let capabilityHash: string | null = null;
  let files: EvaItem['detail']['files'];
  const notCovered: string[] = [];
  let key: string | null = null;
  const runner = contract && decided ? evaRunner(contract, project.root, home) : null;
  if (!entry.unreadable && entry.bytes) {
    const covered = coveredFiles(kind, contract, decided, project.root, home, ctx.skillPathRoots, runner);
    // Whatever stops the hash, a diagnostic says why (eva.md §6.1), as `check` and the review do.
    const uncovered = (failure: Uncovered) => {
      notCovered.push(failure.message);
      const said = uncoveredDiagnostic(entry.abs, failure);
      if (said) entry.diagnostics.push(said);
      trustUnits.unhashed.set(entry.itemId as string, (note) =>
        coveredFiles(kind, contract, decided, project.root, home, ctx.skillPathRoots, runner, note),
      );
    };
    if (!covered.ok) uncovered(covered);
    else {
      const hashed = evaContentHash(kind, entry.bytes, covered.files);
      if (hashed.ok) {
        contentHash = hashed.contentHash;
        files = hashed.files;
        const pairs = capabilityPairs(kind, entry, contract);
        capabilityHash = evaCapabilityHash(pairs);
        const skillFile = decided?.skillPath?.resolved;
        const coveredDirectories =
          kind === 'skill-adapter' && skillFile && path.basename(skillFile) === 'SKILL.md'
            ? [path.dirname(skillFile)]
            : [];
        trustUnits.units.set(entry.itemId as string, {
          kind,
          manifest: entry.abs,
          covered: covered.files,
          coveredDirectories,
          pairs,
        });
      } else uncovered(hashed);
    }
    // The key's framing is the shared one (trust.md "Bundle identity").
    key = bundleKey(EVA_SYSTEM, 'workspace', entry.abs, contract?.id ?? entry.id ?? entry.rel);
  }
  // C13 for bundles whose C1 succeeded (§4.6): one whose manifest does not read keeps Eva's reasons
  // alone and no trust status (§7.2 cases 52-54, 57, 58: "same" in Skillgate).
  const gate = key === null ? null : evaGate(key, contentHash, capabilityHash, indexGateContext(trust));
  const { decision, reasons } = gate
    ? withTrust(evaDecision, evaReasons, gate)
    : { decision: evaDecision, reasons: [...evaReasons] };
  const doc = entry.doc;
  const location = { file: entry.abs, range: doc && doc.has(['id']) ? doc.fieldRange(['id']) : FILE_START };
  const id = contract?.id ?? entry.id ?? entry.rel;
  return agentItem(
    {
      id: entry.itemId as string,
      system: EVA_SYSTEM,
      kind,
      // The Eva id: what a selector and the trust key name (the manifest's display name is not unique).
      name: id,
      qualifiedName: contract?.skillId && kind === 'skill-adapter' ? `${id} (skill ${contract.skillId})` : id,
      scope: 'workspace',
      workspace: project.root,
      path: entry.abs,
      location,
      parent: null,
      decision,
      reasons,
      detail: {
        manifest: entry.abs,
        files,
        ...(key ? { bundleKey: key } : {}),
        ...(notCovered.length ? { notCovered } : {}),
        eva: evaDetail(kind, contract, decided, evaDecision, evaReasons, ctx, id, runner),
      },
    },
    // Left null: the shadower, named once every item exists (indexProject: it may be a binding); the
    // enable bit, which Eva does not have (the manifest's own `enabled` decides `disabled_by_manifest`);
    // a compatibility verdict (Eva-as-shipped differences are diagnostics, eva.compat.*, eva.md §8 Q2).
    {
      trust: gate?.trust,
      contentHash,
      capabilityHash,
      reviewToken: contentHash && capabilityHash ? reviewToken(contentHash, capabilityHash) : null,
    },
  );
}

/** A project bundle's `detail.eva`: what its contract declares and Eva decided; empty where there is no contract. */
export function evaDetail(
  kind: 'skill-adapter' | 'lua-skill',
  k: SkillContract | null,
  decided: ProjectSkillDecision | undefined,
  evaDecision: Decision,
  evaReasons: readonly EvaReason[],
  ctx: Pick<DecideContext, 'runtime' | 'policy'>,
  id: string,
  runner: EvaRunner | null,
): EvaDetail {
  const timeout = k?.limits['timeout_ms'];
  const max = ctx.policy.defaults.maxTimeoutMs;
  return {
    evaDecision,
    evaReasons,
    target: decided?.target ?? null,
    evaKind: k?.kind ?? (kind === 'lua-skill' ? 'lua_skill' : 'workflow_skill'),
    source: kind === 'lua-skill' ? 'project_capability' : 'project_adapter',
    trustLevel: 'Project',
    id,
    skillId: k?.skillId ?? null,
    skillPath: decided?.skillPath?.display ?? null,
    script: decided?.script?.display ?? null,
    runner,
    runtimeGate: k?.runtimeGate ?? null,
    assumedRuntime: ctx.runtime,
    schemas: decided?.schemaStates ?? { input: 'absent', output: 'absent' },
    requestedPermissions: k
      ? {
          read_workspace: k.permissions.readWorkspace,
          write_workspace: k.permissions.writeWorkspace,
          network: k.permissions.network,
          shell: k.permissions.shell,
          env: k.permissions.env,
          fs_read: k.permissions.fsRead,
          fs_write: k.permissions.fsWrite,
        }
      : {},
    effectivePermissions: decided?.effectivePermissions ?? {},
    capabilities: k?.capabilities.map((c) => c.name) ?? [],
    conflicts: [],
    effectiveTimeoutMs: timeout === undefined ? max : max === null ? timeout : Math.min(timeout, max),
    ...(decided?.scriptRequires ? { scriptRequires: true as const } : {}),
  };
}
