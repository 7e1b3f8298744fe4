import * as path from 'node:path';
import { trustGate, type Gate, type GateContext } from '../../decisions/gates';
import { joinSet } from '../../hashing/capabilityPairs';
import { canonicalPath, isInside, lstatEntry, statEntry } from '../../fs/safeFs';
import type { Decision, ReasonCode } from '../../model';
import type { TrustView } from '../../decisions/trustView';
import type { SkillContract } from './contracts';
import type { ProjectSkillDecision } from './decide';
import { coverDirectory, coveredName, OUTSIDE, type CoveredFile } from './hashes';
import type { ManifestEntry } from './manifestEntry';
import type { EvaItem } from './item';
import type { AllowedRoot, ResolvedPath } from './paths';
import { coveredRunnerPath, type EvaRunner } from './runner';
import { LINK_MESSAGE, type NoteUncovered, type Uncovered } from './uncovered';
import type { EvaReason } from './vocabulary';

/** Skillgate's trust gate on Eva bundles (eva.md §4.6, §6): covered files, capability pairs, trust status. */

/**
 * Skillgate's trust gate on an Eva bundle (decisions/gates.ts, the one every agent's bundle asks):
 * Eva has no Skillgate enable switch (§4.6), so never `not_enabled`. `key` is null for a unit with no
 * identity (a manifest that does not read, a project Skillgate failed to read): no receipt can be its.
 */
export function evaGate(
  key: string | null,
  contentHash: string | null,
  capabilityHash: string | null,
  ctx: GateContext,
): Gate {
  return trustGate({ bundleKey: key, contentHash, capabilityHash, enableSwitch: false }, ctx);
}

/**
 * The gate at index time (skillItem.ts, faults.ts): Restricted Mode is the editor's, applied on every
 * compose (`gateItems`), as the store is applied again there.
 */
export function indexGateContext(trust: TrustView): GateContext {
  return { trust, workspaceTrusted: true };
}

/**
 * Skillgate's trust gate after Eva's own decision (§4.6), as for Rivumi, which enforces no trust
 * either (rivumi/items.ts). What Eva registers stays `registered`: untrusted, `loaded_unreviewed`
 * first, then the trust reasons, Restricted Mode last (it changes nothing Eva does); trusted, as Eva
 * decided, whatever the mode. What Eva does not register keeps Eva's reasons, then every gate reason
 * that holds, trusted or not (decisions.md "Reason codes"): fixing Eva's alone would not make it trusted.
 */
export function withTrust(
  evaDecision: Decision,
  evaReasons: readonly EvaReason[],
  gate: Gate,
): { decision: Decision; reasons: ReasonCode[] } {
  if (evaDecision !== 'registered') return { decision: evaDecision, reasons: [...evaReasons, ...gate.reasons] };
  const trustReasons = gate.reasons.filter((r) => r !== 'workspace_untrusted');
  if (trustReasons.length === 0) return { decision: 'registered', reasons: [...evaReasons] };
  return {
    decision: 'registered',
    reasons: ['loaded_unreviewed', ...trustReasons, ...gate.reasons.filter((r) => r === 'workspace_untrusted')],
  };
}

/**
 * Skillgate's trust gate applied again to items Eva decided (after a trust store change,
 * without reading anything): each bundle from its Eva decision and hashes, a unit with no
 * identity too, then each `skill-binding` from its provider (eva.md §2.6).
 */
export function gateItems(items: readonly EvaItem[], trust: TrustView, workspaceTrusted = true): EvaItem[] {
  const gated = new Map<string, EvaItem>();
  const out = items.map((item) => {
    if (item.trust === null) return item;
    const gate = evaGate(item.detail.bundleKey ?? null, item.contentHash, item.capabilityHash, {
      trust,
      workspaceTrusted,
    });
    const { decision, reasons } = withTrust(item.detail.eva.evaDecision, item.detail.eva.evaReasons, gate);
    const next = { ...item, decision, reasons, trust: gate.trust };
    gated.set(item.id, next);
    return next;
  });
  return out.map((item) => {
    const provider = item.kind === 'skill-binding' && item.parent !== null ? gated.get(item.parent) : undefined;
    if (!provider || item.detail.eva.evaDecision !== 'registered' || provider.decision !== 'registered') return item;
    return { ...item, reasons: [provider.reasons[0] === 'registered' ? 'registered' : 'loaded_unreviewed'] };
  });
}

/**
 * §6.1: what trust covers besides the manifest. The first path it cannot cover refuses the set;
 * with `note` (a review's list, uncovered.ts `NoteUncovered`) each is noted, never followed or
 * entered, and the rest is named all the same.
 */
export function coveredFiles(
  kind: 'skill-adapter' | 'lua-skill',
  contract: SkillContract | null,
  decided: ProjectSkillDecision | undefined,
  root: string,
  home: string | null,
  skillRoots: readonly AllowedRoot[],
  runner: EvaRunner | null,
  note?: NoteUncovered,
): { ok: true; files: CoveredFile[] } | Uncovered {
  const files: CoveredFile[] = [];
  if (!contract || !decided) return { ok: true, files };
  const meet = (at: string, failure: Uncovered): Uncovered | undefined => {
    if (note === undefined) return failure;
    note(at, failure);
    return undefined;
  };
  /** A file named on its own: a link is not covered, nor a file neither root names (it has no name in the hash). */
  const coverFile = (abs: string): Uncovered | undefined =>
    lstatEntry(abs).type === 'symlink'
      ? meet(abs, { ok: false, cause: 'symlink', message: LINK_MESSAGE })
      : addName(files, abs, root, home)
        ? undefined
        : meet(abs, OUTSIDE);
  const coverNamed = (p: ResolvedPath | null, cover: (abs: string) => Uncovered | undefined) => {
    if (p && !p.allowed)
      return meet(p.resolved ?? p.display, {
        ok: false,
        cause: 'not-allowed',
        message: `covered path is outside the allowed roots: ${p.display}`,
      });
    return p?.resolved ? cover(p.resolved) : undefined;
  };
  if (kind === 'skill-adapter') {
    const refused = coverNamed(decided.skillPath, (target) => {
      // A skill folder that is itself a link (common under ~/.codex/skills, eva.md §8 Q7) is a
      // folder all the same: every file in it is covered, not only SKILL.md.
      if (path.basename(target) !== 'SKILL.md' || statEntry(path.dirname(target)).type !== 'directory')
        return coverFile(target);
      // The folder is walked by its lexical path: its real path must stay inside the allowed roots too.
      const realDir = canonicalPath(path.dirname(target));
      if (realDir === undefined || !skillRoots.some((r) => isInside(r.real, realDir)))
        return meet(path.dirname(target), {
          ok: false,
          cause: 'symlink',
          message: 'the skill folder resolves outside the allowed roots through a symbolic link',
        });
      if (lstatEntry(target).type === 'missing' && !addName(files, target, root, home)) {
        const stop = meet(target, OUTSIDE);
        if (stop) return stop;
      }
      const dir = coverDirectory(path.dirname(target), root, home, note);
      if (!dir.ok) return dir;
      files.push(...dir.files);
      return undefined;
    });
    if (refused) return refused;
    // §6.1: a workspace-relative command that is a regular file inside the project (one that
    // appears later joins the set, so trust drops); what lies elsewhere the review names (runner.ts).
    const command = coveredRunnerPath(runner, root);
    const stop =
      runner?.coverage === 'linked'
        ? meet(path.resolve(root, runner.command), {
            ok: false,
            cause: 'symlink',
            message: 'the runner command of this skill is, or lies under, a symbolic link; it cannot be reviewed',
          })
        : command !== null && !addName(files, command, root, home)
          ? meet(command, OUTSIDE)
          : undefined;
    if (stop) return stop;
  } else {
    for (const p of [decided.script, ...decided.schemaFiles]) {
      const refused = coverNamed(p, coverFile);
      if (refused) return refused;
    }
  }
  return { ok: true, files };
}

/**
 * Adds `abs` to the covered files, named from the project or the home; false when neither holds
 * it, so it has no name in the hash: a caller that must cover it fails closed (`OUTSIDE`) rather
 * than hash without it, which would keep the trust when it changed.
 */
function addName(files: CoveredFile[], abs: string, root: string, home: string | null): boolean {
  const name = coveredName(abs, root, home);
  if (name) files.push({ abs, ...name });
  return name !== undefined;
}

/** §6.3: the capability pairs (what a review approves besides bytes). */
export function capabilityPairs(
  kind: 'skill-adapter' | 'lua-skill',
  entry: ManifestEntry,
  k: SkillContract | null,
): Map<string, string> {
  const pairs = new Map<string, string>([
    ['kind', kind],
    ['id', k?.id ?? entry.id ?? ''],
  ]);
  if (!k) return pairs;
  const gate = k.runtimeGate;
  const set = (key: string, v: string | boolean | null | readonly string[]) =>
    pairs.set(key, v === null ? '' : typeof v === 'boolean' ? String(v) : typeof v === 'string' ? v : joinSet(v));
  set('eva_kind', k.kind);
  set('skill_id', k.skillId);
  set('skill_source', k.skillSource);
  set('entry_type', k.entryType);
  set('runner_command', k.runnerCommand ?? k.topCommand);
  set('transport', k.transport);
  set(
    'capabilities',
    k.capabilities.map((c) => c.name),
  );
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
