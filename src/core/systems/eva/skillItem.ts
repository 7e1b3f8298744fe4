import * as path from 'node:path';
import { bundleKey, reviewToken } from '../../hashing/identity';
import type { TrustView } from '../../decisions/trustView';
import { FILE_START, type Decision } from '../../model';
import { agentItem } from '../../agentItem';
import { capabilityPairs, coveredFiles, evaGate, indexGateContext, withTrust } from './bundleTrust';
import type { SkillContract } from './contracts';
import { decideProjectSkill, type DecideContext, type ProjectSkillDecision } from './decide';
import { evaCapabilityHash, evaContentHash } from './hashes';
import type { CoverNoting, EvaTrustUnit } from './indexedTrustUnit';
import type { EvaDetail, EvaItem } from './item';
import type { ManifestEntry } from './manifestEntry';
import type { EvaProject } from './project';
import { evaRunner, type EvaRunner } from './runner';
import { uncoveredDiagnostic, type Uncovered } from './uncovered';
import { EVA_SYSTEM, type EvaReason } from './vocabulary';
import type { YamlDocument } from './yamlDocument';

/** A `skill-adapter` or `lua-skill` item: C1–C12, then the trust gate (C13). */
export function skillItem(
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
