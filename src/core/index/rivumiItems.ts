import { bundleKey, reviewToken } from '../hashing/identity';
import { sha256Hex } from '../hashing/framing';
import { trustGate, type GateContext } from '../decisions/gates';
import { FILE_START, type Decision, type Diagnostic, type Item, type ReasonCode } from '../model';
import type { LoadFailure, RivumiHook, RivumiProject, RivumiSkill } from '../rivumi/model';
import { portableRelative } from '../fs/portablePath';

export interface RivumiContext extends GateContext {
  /** `RIVUMI_ENABLE_PROJECT_HOOKS` is exactly `1` (rivumi.md §4.5). */
  readonly hooksOptIn: boolean;
}

/**
 * Items and decisions for one workspace's `.rivumi/` (decisions.md), including the
 * fail-fast fates: a valid item in an aborted load is `load_aborted`, with a
 * diagnostic that names the file at fault.
 */
export function rivumiItems(project: RivumiProject, ctx: RivumiContext): { items: Item[]; diagnostics: Diagnostic[] } {
  const ws = project.workspace;
  const prefix = `rivumi:${sha256Hex(ws).slice(0, 12)}:`;
  const items: Item[] = [];
  const extra: Diagnostic[] = [];
  const rel = (abs: string) => portableRelative(ws, abs);
  const aborted = (itemId: string, file: string, load: LoadFailure, which: 'skill' | 'hook') => {
    extra.push({
      file,
      range: FILE_START,
      severity: 'warning',
      code: 'rivumi.load-aborted',
      message: `Rivumi aborts the whole ${which} load because of ${rel(load.file)}: ${load.message}`,
      itemId,
      related: [{ file: load.file, range: load.diagnostic.range, message: load.message }],
    });
  };
  const base = (id: string, kind: Item['kind'], name: string, qualifiedName: string, file: string, parent: string | null, decision: Decision, reasons: ReasonCode[]): Item => ({
    id,
    system: 'rivumi',
    kind,
    name,
    qualifiedName,
    scope: 'workspace',
    workspace: ws,
    path: file,
    location: { file, range: FILE_START },
    parent,
    decision,
    reasons,
    shadowedBy: null,
    trust: null,
    enabled: null,
    compatibility: null,
    contentHash: null,
    capabilityHash: null,
    reviewToken: null,
    detail: {},
  });

  const skillFate = (s: RivumiSkill, id: string): [Decision, ReasonCode[]] | null => {
    if (s.state === 'beyond_cap') return ['display_only', ['skill_limit_exceeded']];
    if (s.state === 'invalid') return ['rejected', ['skill_invalid']];
    if (project.skillLoad) {
      aborted(id, s.file, project.skillLoad, 'skill');
      return ['rejected', ['load_aborted']];
    }
    return null;
  };

  for (const s of project.skills) {
    const id = `${prefix}${s.source}`;
    const [decision, reasons] = skillFate(s, id) ?? ['registered', ['guidance']];
    items.push({ ...base(id, 'skill', s.name, s.qualifiedName, s.file, null, decision, reasons), detail: { description: s.description } });
  }

  const hookChildren = (parentId: string, hooks: readonly RivumiHook[], parentActive: boolean, hookLoad: LoadFailure | null) =>
    hooks.map((h) => {
      const id = `${parentId}#hooks/${h.event}/${h.index}`;
      let decision: Decision;
      let reasons: ReasonCode[];
      if (!h.valid) [decision, reasons] = ['rejected', ['component_invalid']];
      else if (hookLoad) {
        aborted(id, h.file, hookLoad, 'hook');
        [decision, reasons] = ['rejected', ['load_aborted']];
      } else if (parentActive) [decision, reasons] = ['registered', ['component_active']];
      else [decision, reasons] = ['disabled', ctx.hooksOptIn ? ['bundle_inactive'] : ['bundle_inactive', 'hooks_not_opted_in']];
      const label = h.argv.join(' ');
      return { ...base(id, 'hook', `${h.event}: ${label}`, `${h.origin}.${h.event}.${h.index}`, h.file, parentId, decision, reasons), detail: { facts: { event: h.event, argv: h.argv, timeoutSeconds: h.timeoutSeconds, tools: h.tools } } };
    });

  if (project.hooksFile) {
    const hf = project.hooksFile;
    const id = `${prefix}.rivumi/hooks.json`;
    const key = bundleKey('rivumi', 'workspace', hf.canonicalFile, 'hooks');
    const gate = trustGate({ bundleKey: key, contentHash: hf.hashes?.contentHash ?? null, capabilityHash: hf.hashes?.capabilityHash ?? null }, ctx);
    let decision: Decision;
    let reasons: ReasonCode[];
    if (!hf.valid) [decision, reasons] = ['rejected', ['manifest_invalid']];
    else if (project.hookLoad && project.hookLoad.file !== hf.file) {
      aborted(id, hf.file, project.hookLoad, 'hook');
      [decision, reasons] = ['rejected', ['load_aborted']];
    } else {
      const gateReasons: ReasonCode[] = [...gate.reasons, ...(ctx.hooksOptIn ? [] : (['hooks_not_opted_in'] as ReasonCode[]))];
      [decision, reasons] = gateReasons.length ? ['disabled', gateReasons] : ['registered', ['active']];
    }
    if (ctx.hooksOptIn && hf.hooks.length > 0 && (gate.trust !== 'trusted' || !gate.enabled)) {
      extra.push({
        file: hf.file,
        range: FILE_START,
        severity: 'warning',
        code: 'rivumi.hooks.opted-in-untrusted',
        message: `RIVUMI_ENABLE_PROJECT_HOOKS=1 is set, so Rivumi runs these ${hf.hooks.length} hook command(s) although they are ${gate.trust === 'trusted' ? 'not enabled' : gate.trust.replace('-', ' ')} in Skillgate`,
        itemId: id,
      });
    }
    items.push({
      ...base(id, 'hooks', 'hooks.json', 'hooks.json', hf.file, null, decision, reasons),
      trust: gate.trust,
      enabled: gate.enabled,
      contentHash: hf.hashes?.contentHash ?? null,
      capabilityHash: hf.hashes?.capabilityHash ?? null,
      reviewToken: hf.hashes ? reviewToken(hf.hashes.contentHash, hf.hashes.capabilityHash) : null,
      detail: { bundleKey: key, files: hf.hashes?.files ?? [], capabilities: hf.hashes?.capabilities ?? {}, notCovered: hf.hashes?.notCovered.map((n) => n.message) ?? [], facts: { optIn: ctx.hooksOptIn } },
    });
    items.push(...hookChildren(id, hf.hooks, decision === 'registered', project.hookLoad));
  }

  for (const p of project.plugins) {
    const id = `${prefix}${p.source}`;
    const key = bundleKey('rivumi', 'workspace', p.canonicalFile, p.name);
    const gate = trustGate({ bundleKey: key, contentHash: p.hashes?.contentHash ?? null, capabilityHash: p.hashes?.capabilityHash ?? null }, ctx);
    let decision: Decision;
    let reasons: ReasonCode[];
    const skillAborted = project.skillLoad !== null && project.skillLoad.file !== p.file && !p.skills.some((s) => s.file === project.skillLoad?.file);
    const hookAborted = project.hookLoad !== null && project.hookLoad.file !== p.file;
    if (p.state === 'beyond_cap') [decision, reasons] = ['display_only', ['plugin_limit_exceeded']];
    else if (p.state === 'invalid') [decision, reasons] = ['rejected', ['manifest_invalid']];
    else if (skillAborted && (p.hooks.length === 0 || hookAborted)) {
      aborted(id, p.file, project.skillLoad as LoadFailure, 'skill');
      [decision, reasons] = ['rejected', ['load_aborted']];
    } else [decision, reasons] = gate.reasons.length ? ['disabled', [...gate.reasons]] : ['registered', ['active']];
    const active = decision === 'registered';
    if (ctx.hooksOptIn && p.state === 'valid' && p.hooks.length > 0 && (gate.trust !== 'trusted' || !gate.enabled)) {
      extra.push({
        file: p.file,
        range: FILE_START,
        severity: 'warning',
        code: 'rivumi.hooks.opted-in-untrusted',
        message: `RIVUMI_ENABLE_PROJECT_HOOKS=1 is set, so Rivumi runs this plugin's ${p.hooks.length} hook command(s) although the plugin is ${gate.trust === 'trusted' ? 'not enabled' : gate.trust.replace('-', ' ')} in Skillgate`,
        itemId: id,
      });
    }
    items.push({
      ...base(id, 'plugin', p.name, p.name, p.file, null, decision, reasons),
      trust: gate.trust,
      enabled: gate.enabled,
      contentHash: p.hashes?.contentHash ?? null,
      capabilityHash: p.hashes?.capabilityHash ?? null,
      reviewToken: p.hashes ? reviewToken(p.hashes.contentHash, p.hashes.capabilityHash) : null,
      detail: { bundleKey: key, description: p.description, files: p.hashes?.files ?? [], capabilities: p.hashes?.capabilities ?? {}, notCovered: p.hashes?.notCovered.map((n) => n.message) ?? [], facts: { discovery: p.discovery } },
    });
    p.skills.forEach((s, i) => {
      const sid = `${id}#skills/${i}`;
      const [d, r] = skillFate(s, sid) ?? (active ? ['registered', ['component_active']] : ['disabled', ['bundle_inactive']]);
      items.push({ ...base(sid, 'skill', s.name, s.qualifiedName, s.file, id, d, r), detail: { description: s.description } });
    });
    items.push(...hookChildren(id, p.hooks, active, project.hookLoad));
  }

  const diagnostics = [...project.diagnostics.map((d) => ({ ...d, itemId: d.itemId ?? owner(items, d.file) })), ...extra];
  return { items, diagnostics };
}

/** The most specific item whose file is the diagnostic's file. */
function owner(items: readonly Item[], file: string): string | null {
  const top = items.find((i) => i.parent === null && i.path === file) ?? items.find((i) => i.path === file);
  return top?.id ?? null;
}
