import * as path from 'node:path';
import { byteOrder, joinSet } from '../hashing/capabilityHash';
import { bundleKey, reviewToken } from '../hashing/identity';
import { portableRelative } from '../fs/portablePath';
import { decodeUtf8 } from '../fs/rawNames';
import { canonicalPath, isInside, lstatEntry } from '../fs/safeFs';
import { EMPTY_TRUST, type TrustView } from '../trust/trustView';
import { FILE_START, type Decision, type Diagnostic, type System, type TrustStatus } from '../model';
import { checkAdapterManifest, checkCapabilityManifest, checkLuaSkill, checkSkillAdapter, type ContractResult, type SkillContract } from './contracts';
import { decideProjectSkill, isWorkflowCapability, type DecideContext, type ProjectSkillDecision } from './decide';
import { evaDiagnostic } from './diagnostics';
import { MAX_MANIFEST_BYTES, readManifest, readPrefix, scanYamlFiles } from './files';
import { coverDirectory, coveredName, evaCapabilityHash, evaContentHash, type CoveredFile } from './hashes';
import type { EvaDetail, EvaItem } from './item';
import { allowedRoot, type AllowedRoot } from './paths';
import { DEFAULT_POLICY, readPolicy, type EvaPolicy, type PolicyDocument } from './policy';
import { loadEvaProject, type EvaProject } from './project';
import { DEFAULT_EVA_RUNTIME, type EvaRuntime } from './runtime';
import { firstSchemaError } from './schemaSubset';
import { loadSchemas, type EvaSchemas } from './schemas';
import { indexUserSkills, type ProjectAdapterRef } from './userSkills';
import { EVA_SYSTEM, type EvaItemReason, type EvaReason, type EvaTrustReason } from './vocabulary';
import { isMapping, parseEvaYaml, type YamlDocument } from './yamlDocument';

/**
 * The Eva-CLI system's one entry point (eva.md §4.2): every Eva project among the
 * workspace folders, its skill items with Eva's decision and Skillgate's trust gate,
 * the user-level skill folders, and every diagnostic. Pure apart from reading files;
 * the future `systems/eva/` adapter calls it.
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

type Role = 'skill-adapter' | 'lua-skill' | 'binding' | 'context';

/** One YAML file under an adapter or capability root, read and classified once. */
interface ManifestEntry {
  readonly abs: string;
  readonly rel: string;
  readonly area: 'adapter' | 'capability';
  readonly role: Role;
  readonly bytes: Buffer | undefined;
  readonly doc: YamlDocument | undefined;
  /** C1 failure. */
  readonly unreadable: 'manifest_too_large' | 'schema_invalid' | null;
  readonly check: ContractResult | undefined;
  readonly id: string | null;
  readonly itemId: string | null;
  readonly diagnostics: Diagnostic[];
  shipped: boolean;
  /** Set when a same-key manifest earlier in path order wins. */
  shadow: { readonly by: ManifestEntry } | undefined;
}

export function indexEva(folders: string | readonly string[], options: EvaOptions): EvaIndex {
  const list = typeof folders === 'string' ? [folders] : folders;
  const runtime = options.runtime ?? DEFAULT_EVA_RUNTIME;
  const trust = options.trust ?? EMPTY_TRUST;
  const items: EvaItem[] = [];
  const diagnostics: Diagnostic[] = [];
  const projects: string[] = [];
  const adapters: ProjectAdapterRef[] = [];
  let userPolicy: EvaPolicy | undefined;
  let scanUser = options.scanUserDirs !== false;
  let anyProject = false;
  for (const folder of list) {
    const project = loadEvaProject(folder);
    if (!project) continue;
    anyProject = true;
    projects.push(project.root);
    const result = indexProject(project, options.home, runtime, trust);
    items.push(...result.items);
    diagnostics.push(...result.diagnostics);
    adapters.push(...result.adapters);
    userPolicy ??= result.policy;
    if (!project.scanUserDirs) scanUser = false;
  }
  // User items only beside an Eva project (eva.md §1.3): the folders belong to Codex too.
  if (anyProject && scanUser && options.home !== null) {
    const user = indexUserSkills(options.home, adapters, userPolicy ?? DEFAULT_POLICY, runtime);
    items.push(...user.items);
    diagnostics.push(...user.diagnostics);
  }
  return { items, diagnostics, projects };
}

interface ProjectResult {
  readonly items: EvaItem[];
  readonly diagnostics: Diagnostic[];
  readonly adapters: ProjectAdapterRef[];
  readonly policy: EvaPolicy;
}

function indexProject(project: EvaProject, home: string | null, runtime: EvaRuntime, trust: TrustView): ProjectResult {
  const diagnostics: Diagnostic[] = [...project.diagnostics];
  const schemas = loadSchemas(project.roots.schema_dir, project.configFile, project.document?.fieldRange(['config', 'schema_dir']));
  diagnostics.push(...schemas.diagnostics);
  let evaYamlFails = project.shippedError;
  if (project.document) {
    const e = firstSchemaError(schemas.schemas.eva, project.document.value);
    if (e) {
      diagnostics.push(evaDiagnostic(project.configFile, project.document.fieldRange(e.code === 'eva.schema.required' ? [...e.path, e.field.slice(e.field.lastIndexOf('.') + 1)] : e.path), 'eva.project.config-invalid', `${e.message}: ${e.field}`));
      evaYamlFails = true;
    }
  }
  const rootName = path.basename(project.root);

  // Policies (§3.3): unreadable files fail closed, as the policy gate could not be built.
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
  diagnostics.push(...policyReading.diagnostics);
  const policy: EvaPolicy = policyFailing.length ? { ...policyReading.policy, failClosed: true } : policyReading.policy;
  policyFailing.push(...policyReading.failing);

  const adapterEntries = scanRoot(project, 'adapter_dir', diagnostics).map((abs) => readEntry(abs, 'adapter', project, rootName, schemas));
  const capabilityEntries = scanRoot(project, 'capability_dir', diagnostics).map((abs) => readEntry(abs, 'capability', project, rootName, schemas));
  resolveIds(adapterEntries, 'eva.conflict.duplicate-adapter-id', 'duplicate Adapter manifest id', project.root);
  resolveIds(capabilityEntries, 'eva.conflict.duplicate-capability-id', 'duplicate Capability manifest id', project.root);
  crossNamespace(adapterEntries, capabilityEntries);
  providersExist(capabilityEntries, adapterEntries);

  const projectRoots = [allowedRoot(project.root)];
  const skillPathRoots = home === null ? projectRoots : [...projectRoots, allowedRoot(path.join(home, '.codex', 'skills')), allowedRoot(path.join(home, '.agents', 'skills'))];
  const ctx: DecideContext = { projectRoot: project.root, home, runtime, policy, skillPathRoots, projectRoots };

  const items: EvaItem[] = [];
  // Resolved `skill.path` per item id, for user-item shadowing (§4.3 rule 4).
  const resolvedSkillPaths = new Map<string, string>();
  const byEntry = new Map<ManifestEntry, EvaItem>();
  const contracts = new Map<ManifestEntry, SkillContract>();
  for (const entry of [...adapterEntries, ...capabilityEntries]) {
    if (entry.role !== 'skill-adapter' && entry.role !== 'lua-skill') continue;
    const item = skillItem(entry, ctx, trust, project, home, resolvedSkillPaths);
    items.push(item);
    byEntry.set(entry, item);
    if (entry.check?.contract) contracts.set(entry, entry.check.contract);
  }
  multipleProviders(adapterEntries.filter((e) => e.role === 'skill-adapter'), contracts);
  for (const entry of capabilityEntries) {
    if (entry.role !== 'binding') continue;
    const binding = bindingItem(entry, adapterEntries, byEntry, project, runtime);
    if (!binding) continue;
    items.push(binding);
    byEntry.set(entry, binding);
  }

  // §4.5: the first file at which the shipped Eva-CLI stops, in its load order.
  const firstFailing = evaYamlFails ? project.configFile : ([...adapterEntries, ...capabilityEntries].find((e) => e.shipped)?.abs ?? policyFailing[0]);
  const all = [...adapterEntries, ...capabilityEntries];
  for (const e of all) {
    const itemId = byEntry.get(e)?.id ?? null;
    for (const d of e.diagnostics) d.itemId ??= itemId;
    diagnostics.push(...e.diagnostics);
  }
  if (firstFailing) {
    const d = evaDiagnostic(firstFailing, FILE_START, 'eva.project.load-aborted', 'Eva-CLI stops loading this project at this file, so it would register no skill until it is fixed');
    d.itemId = all.find((e) => e.abs === firstFailing && e.itemId !== null && (e.role === 'skill-adapter' || e.role === 'lua-skill'))?.itemId ?? null;
    diagnostics.push(d);
  }
  const adapterRefs: ProjectAdapterRef[] = adapterEntries
    .filter((e) => e.role === 'skill-adapter' && contracts.has(e))
    .map((e) => ({ itemId: e.itemId as string, contract: contracts.get(e) as SkillContract, skillPath: byEntry.get(e)?.detail.eva.skillPath ?? null, resolvedSkillPath: resolvedSkillPaths.get(byEntry.get(e)?.id ?? '') ?? null }));
  return { items: items.map((i) => withConflicts(i, diagnostics)), diagnostics, adapters: adapterRefs, policy };
}

/** The conflict types an item takes part in (eva.md §4.3), from its conflict diagnostics, for `detail.eva.conflicts`. */
const CONFLICT_TYPES: Record<string, string> = {
  'eva.conflict.duplicate-adapter-id': 'duplicate_adapter_id',
  'eva.conflict.duplicate-capability-id': 'duplicate_capability_id',
  'eva.conflict.cross-namespace-id': 'cross_namespace_id',
  'eva.conflict.multiple-providers': 'same_capability_multiple_provider',
};

function withConflicts(item: EvaItem, diagnostics: readonly Diagnostic[]): EvaItem {
  const conflicts = [...new Set(diagnostics.filter((d) => d.itemId === item.id && CONFLICT_TYPES[d.code]).map((d) => CONFLICT_TYPES[d.code] as string))];
  if (item.shadowedBy === null && conflicts.length === 0) return item;
  if (item.reasons.includes('duplicate_id_shadowed') && !conflicts.length) conflicts.push('duplicate_id');
  return { ...item, detail: { ...item.detail, eva: { ...item.detail.eva, conflicts } } };
}

function scanRoot(project: EvaProject, key: 'adapter_dir' | 'capability_dir' | 'policy_dir', diagnostics: Diagnostic[]): string[] {
  const root = project.roots[key];
  if (root === null) return [];
  const scan = scanYamlFiles(root, project.maxFilesPerDir);
  for (const link of scan.symlinks) diagnostics.push(evaDiagnostic(link, FILE_START, 'eva.scan.symlink-ignored', 'symbolic link ignored: Eva-CLI does not follow links in configuration directories'));
  for (const o of scan.overflow) diagnostics.push(evaDiagnostic(o.first, FILE_START, 'eva.scan.limit', `more than ${project.maxFilesPerDir} files in this directory; Eva's discovery limit stops here (${o.skipped} skipped)`));
  return [...scan.files];
}

type ReadOutcome = { readonly doc: YamlDocument; readonly bytes: Buffer } | { readonly diagnostic: Diagnostic; readonly unreadable: 'manifest_too_large' | 'schema_invalid'; readonly sniffText: string | undefined };

/** C1: size, UTF-8, one YAML document (§1.2, §2.1). */
function readAndParse(abs: string, limit: number): ReadOutcome {
  const read = readManifest(abs, limit);
  if (!read.ok) {
    if (read.problem === 'too-large') return { diagnostic: evaDiagnostic(abs, FILE_START, 'eva.manifest.too-large', `manifest is larger than max_manifest_bytes (${limit} bytes)`), unreadable: 'manifest_too_large', sniffText: sniff(abs) };
    return { diagnostic: evaDiagnostic(abs, FILE_START, 'eva.manifest.read', `failed to read configuration file: ${read.detail}`), unreadable: 'schema_invalid', sniffText: sniff(abs) };
  }
  const parsed = parseEvaYaml(abs, read.text);
  if (!parsed.ok) return { diagnostic: evaDiagnostic(abs, parsed.range, 'eva.yaml.parse', parsed.message), unreadable: 'schema_invalid', sniffText: read.text };
  return { doc: parsed.document, bytes: read.bytes };
}

/** The first 1 MiB as text: UTF-16 by its BOM, else lossy UTF-8 (§4.2 sniff). */
function sniff(abs: string): string | undefined {
  const bytes = readPrefix(abs, MAX_MANIFEST_BYTES);
  if (!bytes) return undefined;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  return decodeUtf8(bytes) ?? new TextDecoder('utf-8').decode(bytes);
}

const SNIFF_ADAPTER = /^transport:[ \t]*["']?skill["']?[ \t]*(#.*)?$/m;
const SNIFF_CAPABILITY = /^kind:[ \t]*["']?(lua_skill|skill)["']?[ \t]*(#.*)?$/m;

function sniffRole(text: string | undefined, area: 'adapter' | 'capability'): Role {
  if (text === undefined) return 'context';
  const lines = text.replace(/\r\n?/g, '\n');
  if (area === 'adapter') return SNIFF_ADAPTER.test(lines) ? 'skill-adapter' : 'context';
  const m = SNIFF_CAPABILITY.exec(lines);
  return m ? (m[1] === 'lua_skill' ? 'lua-skill' : 'binding') : 'context';
}

function readEntry(abs: string, area: 'adapter' | 'capability', project: EvaProject, rootName: string, schemas: EvaSchemas): ManifestEntry {
  const rel = portableRelative(project.root, abs);
  const itemId = `eva:${rootName}:${area}:${rel}`;
  const read = readAndParse(abs, project.maxManifestBytes);
  if (!('doc' in read)) {
    const role = sniffRole(read.sniffText, area);
    // The size cap is Skillgate's (design limits): the shipped loader has none (§7.1).
    return { abs, rel, area, role, bytes: undefined, doc: undefined, unreadable: read.unreadable, check: undefined, id: null, itemId, diagnostics: [read.diagnostic], shipped: read.unreadable !== 'manifest_too_large', shadow: undefined };
  }
  const { doc } = read;
  const value = doc.value;
  const field = area === 'adapter' ? 'transport' : 'kind';
  const declared = isMapping(value) ? value[field] : undefined;
  let role: Role;
  if (typeof declared !== 'string') role = sniffRole(doc.text, area);
  else if (area === 'adapter') role = declared === 'skill' ? 'skill-adapter' : 'context';
  else role = declared === 'lua_skill' ? 'lua-skill' : declared === 'skill' ? 'binding' : 'context';
  let check: ContractResult;
  if (!isMapping(value) || typeof declared !== 'string') {
    // Not a mapping, or no readable transport/kind: the upstream schema says why.
    check = area === 'adapter' ? checkAdapterManifest(doc, schemas.schemas.adapter) : checkCapabilityManifest(doc, schemas.schemas.capability);
    if (!check.invalid) check = { ...check, invalid: true, shippedError: true };
  } else if (role === 'skill-adapter') check = checkSkillAdapter(doc, schemas.schemas.adapter);
  else if (role === 'lua-skill') check = checkLuaSkill(doc);
  else if (area === 'adapter') check = checkAdapterManifest(doc, schemas.schemas.adapter);
  else check = checkCapabilityManifest(doc, schemas.schemas.capability);
  const id = isMapping(value) && typeof value['id'] === 'string' ? value['id'] : null;
  return { abs, rel, area, role, bytes: read.bytes, doc, unreadable: null, check, id, itemId, diagnostics: [...check.diagnostics], shipped: check.shippedError, shadow: undefined };
}

/** §4.3 rules 1–2: the first manifest in path order with an id wins; later ones are shadowed. */
function resolveIds(entries: ManifestEntry[], code: 'eva.conflict.duplicate-adapter-id' | 'eva.conflict.duplicate-capability-id', message: string, root: string): void {
  const first = new Map<string, ManifestEntry>();
  for (const e of entries) {
    if (e.id === null) continue;
    const winner = first.get(e.id);
    if (!winner) {
      first.set(e.id, e);
      continue;
    }
    e.shadow = { by: winner };
    e.shipped = true;
    e.diagnostics.push(evaDiagnostic(e.abs, e.doc?.fieldRange(['id']), code, `${message}: ${e.id} (${portableRelative(root, winner.abs)}, ${portableRelative(root, e.abs)})`));
  }
}

/** §4.3 rule 3: separate namespaces, but a name selector would be ambiguous. */
function crossNamespace(adapters: ManifestEntry[], capabilities: ManifestEntry[]): void {
  const adapterIds = new Set(adapters.map((e) => e.id).filter((id): id is string => id !== null));
  const shared = new Set(capabilities.map((e) => e.id).filter((id): id is string => id !== null && adapterIds.has(id)));
  for (const e of [...adapters, ...capabilities]) {
    if (e.id === null || !shared.has(e.id)) continue;
    e.diagnostics.push(evaDiagnostic(e.abs, e.doc?.fieldRange(['id']), 'eva.conflict.cross-namespace-id', `the id ${e.id} is used by both an adapter and a capability manifest`));
  }
}

/** Cross-file check: a capability's provider must be an existing adapter (§2.4). */
function providersExist(capabilities: ManifestEntry[], adapters: ManifestEntry[]): void {
  const ids = new Set(adapters.map((e) => e.id).filter((id): id is string => id !== null));
  for (const e of capabilities) {
    if (!e.doc || e.check?.invalid || !isMapping(e.doc.value)) continue;
    const v = e.doc.value;
    const fields: (string | number)[][] = [];
    for (const key of ['default_provider', 'provider']) if (typeof v[key] === 'string') fields.push([key]);
    const perms = isMapping(v['permissions']) && isMapping(v['permissions']['adapters']) ? v['permissions']['adapters']['providers'] : undefined;
    if (Array.isArray(perms)) perms.forEach((p, i) => typeof p === 'string' && fields.push(['permissions', 'adapters', 'providers', i]));
    for (const f of fields) {
      const name = f.reduce<unknown>((o, k) => (o as Record<string, unknown>)[k as string], v) as string;
      if (ids.has(name)) continue;
      e.diagnostics.push(evaDiagnostic(e.abs, e.doc.fieldRange(f), 'eva.capability.provider-missing', 'Capability provider Adapter does not exist'));
      e.shipped = true;
      break;
    }
  }
}

/** §4.3 rule 6: several skill adapters exposing one capability; Eva-CLI routes to the lexically first enabled adapter id. */
function multipleProviders(entries: ManifestEntry[], contracts: Map<ManifestEntry, SkillContract>): void {
  const byCapability = new Map<string, ManifestEntry[]>();
  for (const e of entries) {
    const k = contracts.get(e);
    if (!k) continue;
    for (const cap of new Set(k.capabilities.map((c) => c.name))) byCapability.set(cap, [...(byCapability.get(cap) ?? []), e]);
  }
  const told = new Set<ManifestEntry>();
  const tell = (providers: ManifestEntry[], what: string, fieldOf: (k: SkillContract) => (string | number)[]) => {
    const enabled = providers.map((e) => contracts.get(e) as SkillContract).filter((k) => k.enabled).map((k) => k.id).sort(byteOrder);
    const route = enabled[0] ?? 'no enabled adapter';
    for (const e of providers) {
      if (told.has(e)) continue;
      told.add(e);
      e.diagnostics.push(evaDiagnostic(e.abs, e.doc?.fieldRange(fieldOf(contracts.get(e) as SkillContract)), 'eva.conflict.multiple-providers', `${what} has several providers; Eva-CLI routes to ${route} (lexically first enabled adapter id)`));
    }
  };
  for (const [cap, providers] of byCapability) {
    if (providers.length >= 2) tell(providers, cap, (k) => [...(k.capabilities.find((c) => c.name === cap)?.field ?? ['capabilities'])]);
  }
  // Adapters wrapping the same skill without sharing a capability are told once too.
  const bySkill = new Map<string, ManifestEntry[]>();
  for (const e of entries) {
    const k = contracts.get(e);
    if (k?.skillId) bySkill.set(`${k.skillSource ?? ''}\0${k.skillId}`, [...(bySkill.get(`${k.skillSource ?? ''}\0${k.skillId}`) ?? []), e]);
  }
  for (const providers of bySkill.values()) {
    const k = contracts.get(providers[0] as ManifestEntry) as SkillContract;
    if (providers.length >= 2) tell(providers, `skill ${k.skillId}`, () => ['skill', 'id']);
  }
}

/** A `skill-adapter` or `lua-skill` item: C1–C12, then the trust gate (C13). */
function skillItem(entry: ManifestEntry, ctx: DecideContext, trust: TrustView, project: EvaProject, home: string | null, resolvedSkillPaths: Map<string, string>): EvaItem {
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
    decided = decideProjectSkill({ doc: entry.doc as YamlDocument, contract, invalid: entry.check?.invalid ?? false, shadowed: entry.shadow !== undefined }, ctx);
    evaReasons = decided.reasons;
    evaDecision = decided.decision;
    entry.diagnostics.push(...decided.diagnostics);
  }
  if (decided?.skillPath?.resolved) resolvedSkillPaths.set(entry.itemId as string, decided.skillPath.real ?? decided.skillPath.resolved);

  // C13 for bundles whose C1 succeeded (§4.6).
  let contentHash: string | null = null;
  let capabilityHash: string | null = null;
  let files: EvaItem['detail']['files'];
  const notCovered: string[] = [];
  let key: string | null = null;
  let trustStatus: TrustStatus | null = null;
  if (!entry.unreadable && entry.bytes) {
    const covered = coveredFiles(kind, contract, decided, project.root, home, ctx.skillPathRoots);
    if (!covered.ok) {
      notCovered.push(covered.message);
      if (covered.symlink) entry.diagnostics.push(evaDiagnostic(entry.abs, FILE_START, 'eva.trust.symlink', 'a file covered by this skill is a symbolic link; it cannot be reviewed'));
    } else {
      const hashed = evaContentHash(kind, entry.bytes, covered.files);
      if (hashed.ok) {
        contentHash = hashed.contentHash;
        files = hashed.files;
        capabilityHash = evaCapabilityHash(capabilityPairs(kind, entry, contract));
      } else {
        notCovered.push(hashed.message);
        if (hashed.symlink) entry.diagnostics.push(evaDiagnostic(entry.abs, FILE_START, 'eva.trust.symlink', 'a file covered by this skill is a symbolic link; it cannot be reviewed'));
      }
    }
    // `System` gains 'eva' at wiring time; the key's framing is the shared one (trust.md "Bundle identity").
    key = bundleKey(EVA_SYSTEM as unknown as System, 'workspace', entry.abs, contract?.id ?? entry.id ?? entry.rel);
    trustStatus = statusOf(trust, key, contentHash, capabilityHash);
  }
  const { decision, reasons } = withTrust(evaDecision, evaReasons, trustStatus, trust.available);
  const doc = entry.doc;
  const location = { file: entry.abs, range: doc && doc.has(['id']) ? doc.fieldRange(['id']) : FILE_START };
  const id = contract?.id ?? entry.id ?? entry.rel;
  return {
    id: entry.itemId as string,
    system: EVA_SYSTEM,
    kind,
    name: contract?.name ?? id,
    qualifiedName: contract?.skillId && kind === 'skill-adapter' ? `${id} (skill ${contract.skillId})` : id,
    scope: 'workspace',
    workspace: project.root,
    path: entry.abs,
    location,
    parent: null,
    decision,
    reasons,
    shadowedBy: entry.shadow ? (entry.shadow.by.role === 'skill-adapter' || entry.shadow.by.role === 'lua-skill' ? entry.shadow.by.itemId : null) : null,
    trust: trustStatus,
    enabled: contract ? contract.enabled : null,
    // Eva-as-shipped differences are diagnostics (eva.compat.*), not a compatibility verdict (eva.md §8 Q2).
    compatibility: null,
    contentHash,
    capabilityHash,
    reviewToken: contentHash && capabilityHash ? reviewToken(contentHash, capabilityHash) : null,
    detail: {
      manifest: entry.abs,
      files,
      ...(key ? { bundleKey: key } : {}),
      ...(notCovered.length ? { notCovered } : {}),
      eva: evaDetail(kind, contract, decided, evaDecision, evaReasons, ctx, id),
    },
  };
}

/** Skillgate's trust gate after Eva's own decision (§4.6). */
export function withTrust(evaDecision: Decision, evaReasons: readonly EvaReason[], status: TrustStatus | null, available: boolean): { decision: Decision; reasons: EvaItemReason[] } {
  if (status === null) return { decision: evaDecision, reasons: [...evaReasons] };
  const gate: EvaTrustReason | null = !available ? 'trust_store_unavailable' : status === 'trusted' ? null : status === 'content-changed' ? 'content_changed' : status === 'capabilities-changed' ? 'capabilities_changed' : 'not_reviewed';
  if (gate === null) return { decision: evaDecision, reasons: [...evaReasons] };
  if (evaDecision === 'registered') return { decision: 'registered', reasons: ['loaded_unreviewed', gate] };
  return { decision: evaDecision, reasons: [...evaReasons, gate] };
}

function statusOf(trust: TrustView, key: string, contentHash: string | null, capabilityHash: string | null): TrustStatus {
  if (!trust.available) return 'not-reviewed';
  const receipt = trust.lookup(key)?.trust;
  if (!receipt || contentHash === null || capabilityHash === null) return 'not-reviewed';
  if (receipt.contentHash !== contentHash) return 'content-changed';
  if (receipt.capabilityHash !== capabilityHash) return 'capabilities-changed';
  return 'trusted';
}

/** §6.1: what trust covers besides the manifest. */
function coveredFiles(
  kind: 'skill-adapter' | 'lua-skill',
  contract: SkillContract | null,
  decided: ProjectSkillDecision | undefined,
  root: string,
  home: string | null,
  skillRoots: readonly AllowedRoot[],
): { ok: true; files: CoveredFile[] } | { ok: false; symlink: boolean; message: string } {
  const files: CoveredFile[] = [];
  if (!contract || !decided) return { ok: true, files };
  const named = (p: { resolved: string | null; allowed: boolean; display: string } | null): { ok: false; symlink: boolean; message: string } | undefined => {
    if (p && !p.allowed) return { ok: false, symlink: false, message: `covered path is outside the allowed roots: ${p.display}` };
    return undefined;
  };
  if (kind === 'skill-adapter') {
    const p = decided.skillPath;
    const refused = named(p);
    if (refused) return refused;
    if (p?.resolved) {
      const target = p.resolved;
      if (path.basename(target) === 'SKILL.md' && lstatEntry(path.dirname(target)).type === 'directory') {
        // The folder is walked by its lexical path: its real path must stay inside the allowed roots too.
        const realDir = canonicalPath(path.dirname(target));
        if (realDir === undefined || !skillRoots.some((r) => isInside(r.real, realDir))) return { ok: false, symlink: true, message: 'the skill folder resolves outside the allowed roots through a symbolic link' };
        if (lstatEntry(target).type === 'missing') addName(files, target, root, home);
        const dir = coverDirectory(path.dirname(target), root, home);
        if (!dir.ok) return dir;
        files.push(...dir.files);
      } else {
        if (lstatEntry(target).type === 'symlink') return { ok: false, symlink: true, message: 'a file covered by this skill is a symbolic link; it cannot be reviewed' };
        addName(files, target, root, home);
      }
    }
    const command = contract.runnerCommand ?? contract.topCommand;
    if (command && /[/\\]/.test(command) && !path.isAbsolute(command)) {
      const abs = path.resolve(root, command);
      if (lstatEntry(abs).type === 'file' && coveredName(abs, root, home)?.domain === 'eva-project-file') addName(files, abs, root, home);
    }
  } else {
    for (const p of [decided.script, ...decided.schemaFiles]) {
      const refused = named(p);
      if (refused) return refused;
      if (p?.resolved) {
        if (lstatEntry(p.resolved).type === 'symlink') return { ok: false, symlink: true, message: 'a file covered by this skill is a symbolic link; it cannot be reviewed' };
        addName(files, p.resolved, root, home);
      }
    }
  }
  return { ok: true, files };
}

function addName(files: CoveredFile[], abs: string, root: string, home: string | null): void {
  const name = coveredName(abs, root, home);
  if (name) files.push({ abs, ...name });
}

/** §6.3: the capability pairs (what a review approves besides bytes). */
function capabilityPairs(kind: 'skill-adapter' | 'lua-skill', entry: ManifestEntry, k: SkillContract | null): Map<string, string> {
  const pairs = new Map<string, string>([
    ['kind', kind],
    ['id', k?.id ?? entry.id ?? ''],
  ]);
  if (!k) return pairs;
  const gate = k.runtimeGate;
  const set = (key: string, v: string | boolean | null | readonly string[]) => pairs.set(key, v === null ? '' : typeof v === 'boolean' ? String(v) : typeof v === 'string' ? v : joinSet(v));
  set('eva_kind', k.kind);
  set('skill_id', k.skillId);
  set('skill_source', k.skillSource);
  set('entry_type', k.entryType);
  set('runner_command', k.runnerCommand ?? k.topCommand);
  set('transport', k.transport);
  set('capabilities', k.capabilities.map((c) => c.name));
  set('gate_modes', gate ? gate.allowedModes : []);
  set('gate_disallow_team_worker', gate ? gate.disallowTeamWorker : false);
  set('gate_requires_interactive_user', gate ? gate.requiresInteractiveUser : false);
  set('read_workspace', k.permissions.readWorkspace);
  set('write_workspace', k.permissions.writeWorkspace);
  set('network', k.permissions.network);
  set('shell', k.permissions.shell);
  set('env', k.permissions.env);
  set('fs_read', k.permissions.fsRead);
  set('fs_write', k.permissions.fsWrite);
  set('adapter_capabilities', k.permissions.adapterCapabilities);
  set('adapter_providers', k.permissions.adapterProviders);
  return pairs;
}

function evaDetail(kind: 'skill-adapter' | 'lua-skill', k: SkillContract | null, decided: ProjectSkillDecision | undefined, evaDecision: Decision, evaReasons: readonly EvaReason[], ctx: DecideContext, id: string): EvaDetail {
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
    runtimeGate: k?.runtimeGate ?? null,
    assumedRuntime: ctx.runtime,
    schemas: decided?.schemaStates ?? { input: 'absent', output: 'absent' },
    requestedPermissions: k
      ? { read_workspace: k.permissions.readWorkspace, write_workspace: k.permissions.writeWorkspace, network: k.permissions.network, shell: k.permissions.shell, env: k.permissions.env, fs_read: k.permissions.fsRead, fs_write: k.permissions.fsWrite }
      : {},
    effectivePermissions: decided?.effectivePermissions ?? {},
    capabilities: k?.capabilities.map((c) => c.name) ?? [],
    conflicts: [],
    effectiveTimeoutMs: timeout === undefined ? max : max === null ? timeout : Math.min(timeout, max),
  };
}

/** A `kind: skill` capability manifest bound to its provider adapter (§2.6). */
function bindingItem(entry: ManifestEntry, adapters: ManifestEntry[], byEntry: Map<ManifestEntry, EvaItem>, project: EvaProject, runtime: EvaRuntime): EvaItem | undefined {
  const value = entry.doc && isMapping(entry.doc.value) ? entry.doc.value : undefined;
  const providerField = typeof value?.['default_provider'] === 'string' ? 'default_provider' : 'provider';
  const providerId = typeof value?.[providerField] === 'string' ? (value[providerField] as string) : null;
  const provider = providerId === null ? undefined : adapters.find((a) => a.id === providerId && !a.shadow);
  const providerItem = provider ? byEntry.get(provider) : undefined;
  if (provider && !providerItem) {
    entry.diagnostics.push(evaDiagnostic(entry.abs, entry.doc?.fieldRange([providerField]), 'eva.capability.skill-provider-not-skill', 'kind: skill capability names a provider that is not a skill adapter'));
    return undefined;
  }
  const capability = typeof value?.['capability'] === 'string' ? (value['capability'] as string) : '';
  let decision: Decision;
  let reasons: EvaItemReason[];
  if (entry.unreadable) [decision, reasons] = ['rejected', [entry.unreadable]];
  else if (entry.check?.invalid || !provider) [decision, reasons] = ['rejected', ['schema_invalid']];
  else if (entry.shadow) [decision, reasons] = ['shadowed', ['duplicate_id_shadowed']];
  else if (value?.['enabled'] === false) [decision, reasons] = ['disabled', ['disabled_by_manifest']];
  else if (!isWorkflowCapability(capability)) [decision, reasons] = ['display_only', ['capability_unknown']];
  else if (providerItem?.decision === 'registered') [decision, reasons] = ['registered', [providerItem.reasons[0] === 'registered' ? 'registered' : 'loaded_unreviewed']];
  else [decision, reasons] = ['disabled', ['bundle_inactive']];
  const id = entry.id ?? entry.rel;
  const evaReasons = reasons.filter((r): r is EvaReason => r !== 'loaded_unreviewed');
  return {
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
    shadowedBy: entry.shadow?.by.itemId ?? null,
    trust: null,
    enabled: null,
    compatibility: null,
    contentHash: null,
    capabilityHash: null,
    reviewToken: null,
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
        runtimeGate: providerItem?.detail.eva.runtimeGate ?? null,
        assumedRuntime: runtime,
        schemas: { input: value?.['input_schema'] ? 'inline' : 'absent', output: value?.['output_schema'] ? 'inline' : 'absent' },
        requestedPermissions: {},
        effectivePermissions: {},
        capabilities: capability ? [capability] : [],
        conflicts: [],
        effectiveTimeoutMs: null,
      },
    },
  };
}
