import { bundleKey, reviewToken } from '../../hashing/identity';
import { trustGate, type Gate, type GateContext } from '../../decisions/gates';
import { FILE_START, type Decision, type Diagnostic, type Item, type ReasonCode } from '../../model';
import { severityOf } from '../../diagnostics/diagnosticCodes';
import { agentItem, type AgentItemFields, type UnitFields } from '../../agentItem';
import type { LoadFailure, RivumiHook, RivumiHooksFile, RivumiPlugin, RivumiProject, RivumiSkill } from './model';
import { portableRelative } from '../../fs/portablePath';
import { rivumiIdPrefix } from './itemIds';
import { MAX_SKILLS } from './limits';
import { hookOf, hooksFileCapabilities, pluginCapabilities } from './capabilities';
import { sameNames, type SameNamed } from './duplicateNames';

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
  const build = new RivumiItemBuilder(project, ctx);
  for (const s of project.skills) build.projectSkill(s);
  if (project.hooksFile) build.hooksFile(project.hooksFile);
  for (const p of project.plugins) build.plugin(p);
  // Without the opt-in Rivumi never reads plugin hooks: a defect there is a warning, not a load failure (decisions.md).
  const pluginFiles = new Set(project.plugins.map((p) => p.file));
  const hookOnly = (d: Diagnostic) =>
    !ctx.hooksOptIn &&
    (d.code === 'rivumi.hooks.invalid' || d.code === 'rivumi.hooks.too-many') &&
    pluginFiles.has(d.file);
  const owner = owners(build.items);
  const diagnostics = [
    ...project.diagnostics.map((d) => ({
      ...d,
      ...(hookOnly(d) ? { severity: 'warning' as const } : {}),
      itemId: d.itemId ?? owner(d.file),
    })),
    ...build.extra,
  ];
  return { items: build.items, diagnostics };
}

/** The items of one workspace's `.rivumi/`, one unit at a time, and the diagnostics deciding them adds. */
class RivumiItemBuilder {
  readonly items: Item[] = [];
  readonly extra: Diagnostic[] = [];
  private readonly prefix: string;
  /** The hook load happens only with the opt-in (rivumi.md §4.5); its hooks run only when it succeeds. */
  private readonly hooksRun: boolean;
  /** Each skill's and plugin's id, known before any is built: an item names the same-named ones after it too. */
  private readonly ids = new Map<RivumiSkill | RivumiPlugin, string>();
  private readonly same: { readonly skills: SameNamed<RivumiSkill>; readonly plugins: SameNamed<RivumiPlugin> };

  constructor(
    private readonly project: RivumiProject,
    private readonly ctx: RivumiContext,
  ) {
    this.prefix = rivumiIdPrefix(project.workspace);
    this.hooksRun = ctx.hooksOptIn && project.hookLoad === null;
    for (const s of project.skills) this.ids.set(s, `${this.prefix}${s.source}`);
    for (const p of project.plugins) {
      const id = `${this.prefix}${p.source}`;
      this.ids.set(p, id);
      // A plugin's skill by its entry: one file listed twice is two skills (rivumi.md §3.5).
      p.skills.forEach((s, i) => this.ids.set(s, `${id}#skills/${i}`));
    }
    this.same = sameNames(project);
  }

  projectSkill(s: RivumiSkill): void {
    const id = this.idOf(s);
    const [decision, reasons] = this.skillFate(s, id) ?? ['registered', ['guidance']];
    this.add({
      ...this.base(id, 'skill', s.name, s.qualifiedName, s.file, null, decision, reasons),
      detail: { description: s.description, ...this.sameName(this.same.skills, s) },
    });
  }

  hooksFile(hf: RivumiHooksFile): void {
    const { project, ctx } = this;
    const id = `${this.prefix}.rivumi/hooks.json`;
    const key = bundleKey('rivumi', 'workspace', hf.canonicalFile, 'hooks');
    const gate = trustGate(
      {
        bundleKey: key,
        contentHash: hf.hashes?.contentHash ?? null,
        capabilityHash: hf.hashes?.capabilityHash ?? null,
        enableSwitch: false,
      },
      ctx,
    );
    let decision: Decision;
    let reasons: ReasonCode[];
    if (!hf.valid) [decision, reasons] = notLoadedFate('rejected', 'manifest_invalid', gate);
    else if (!ctx.hooksOptIn) [decision, reasons] = notLoadedFate('disabled', 'hooks_not_opted_in', gate);
    else if (project.hookLoad) {
      this.aborted(id, hf.file, project.hookLoad, 'hook');
      [decision, reasons] = notLoadedFate('rejected', 'load_aborted', gate);
    } else [decision, reasons] = loadedFate(gate);
    this.runsUnreviewed(id, hf.file, hf.hooks, gate, 'these');
    this.add(
      {
        ...this.base(id, 'hooks', 'hooks.json', 'hooks.json', hf.file, null, decision, reasons),
        detail: {
          bundleKey: key,
          files: hf.hashes?.files ?? [],
          capabilities: hooksFileCapabilities(hf),
          notCovered: hf.hashes?.notCovered.map((n) => n.message) ?? [],
          hooksOptIn: ctx.hooksOptIn,
          loads: loadFacts(project, ctx, 'hooks', hf.hooks.length > 0),
        },
      },
      unitFields(gate, hf.hashes),
    );
    this.hookChildren(id, hf.hooks, childFate(gate), !hf.valid);
  }

  plugin(p: RivumiPlugin): void {
    const { project, ctx } = this;
    const id = this.idOf(p);
    const key = bundleKey('rivumi', 'workspace', p.canonicalFile, p.name);
    const gate = trustGate(
      {
        bundleKey: key,
        contentHash: p.hashes?.contentHash ?? null,
        capabilityHash: p.hashes?.capabilityHash ?? null,
        enableSwitch: false,
      },
      ctx,
    );
    let decision: Decision;
    let reasons: ReasonCode[];
    // The plugin is the skill load's; it still loads something when its hooks run although that load fails.
    const skillAborted = project.skillLoad !== null && project.skillLoad.file !== p.file;
    if (p.state === 'beyond_cap') [decision, reasons] = notLoadedFate('display_only', 'plugin_limit_exceeded', gate);
    else if (p.state === 'invalid') [decision, reasons] = notLoadedFate('rejected', 'manifest_invalid', gate);
    else if (skillAborted && !(this.hooksRun && p.hooks.length > 0)) {
      this.aborted(id, p.file, project.skillLoad as LoadFailure, 'skill');
      [decision, reasons] = notLoadedFate('rejected', 'load_aborted', gate);
    } else [decision, reasons] = loadedFate(gate);
    if (p.state === 'valid') this.runsUnreviewed(id, p.file, p.hooks, gate, "this plugin's");
    this.add(
      {
        ...this.base(id, 'plugin', p.name, p.name, p.file, null, decision, reasons),
        detail: {
          bundleKey: key,
          description: p.description,
          files: p.hashes?.files ?? [],
          capabilities: pluginCapabilities(p),
          notCovered: p.hashes?.notCovered.map((n) => n.message) ?? [],
          discovery: p.discovery,
          ...this.sameName(this.same.plugins, p),
          ...(p.state === 'valid'
            ? { loads: loadFacts(project, ctx, 'plugin', p.hooks.length > 0 || p.hookError !== undefined, p.file) }
            : {}),
        },
      },
      unitFields(gate, p.hashes),
    );
    p.skills.forEach((s, i) => {
      const sid = this.idOf(s);
      const [d, r] = this.skillFate(s, sid) ?? childFate(gate);
      // Rivumi's cap is silent (rivumi.md §7.1); an entry only shown says why, as a project skill past
      // it does (load.ts). Named by its entry: an earlier entry of the same file may be the one that loads.
      if (s.state === 'beyond_cap')
        this.extra.push({
          file: s.file,
          range: FILE_START,
          severity: 'information',
          code: 'rivumi.skill.not-loaded',
          message: `Rivumi loads at most ${MAX_SKILLS} skills; skills[${i}] of plugin ${p.name} (${s.source}) is past them and never loaded`,
          itemId: sid,
        });
      this.add({
        ...this.base(sid, 'skill', s.name, s.qualifiedName, s.file, id, d, r),
        detail: { description: s.description, ...this.sameName(this.same.skills, s) },
      });
    });
    this.hookChildren(id, p.hooks, childFate(gate), p.hookError !== undefined);
  }

  private idOf(unit: RivumiSkill | RivumiPlugin): string {
    const id = this.ids.get(unit);
    // The constructor lists every skill and plugin of the project.
    if (id === undefined) throw new Error(`no id for the Rivumi unit ${unit.source}`);
    return id;
  }

  /** `detail.sameName` of a skill or plugin whose name others carry (duplicateNames.ts), else nothing. */
  private sameName<T extends RivumiSkill | RivumiPlugin>(same: SameNamed<T>, unit: T): { sameName?: string[] } {
    const carriers = same.get(unit);
    return carriers ? { sameName: carriers.map((c) => this.idOf(c)) } : {};
  }

  private skillFate(s: RivumiSkill, id: string): [Decision, ReasonCode[]] | null {
    if (s.state === 'beyond_cap') return ['display_only', ['skill_limit_exceeded']];
    if (s.state === 'invalid') return ['rejected', ['skill_invalid']];
    if (this.project.skillLoad) {
      this.aborted(id, s.file, this.project.skillLoad, 'skill');
      return ['rejected', ['load_aborted']];
    }
    return null;
  }

  /**
   * Hook entries share the fate of the one merged configuration (decisions.md "Precedence
   * and shadowing"): `ownFailure` is set when the file they come from is what fails it.
   */
  private hookChildren(
    parentId: string,
    hooks: readonly RivumiHook[],
    loaded: [Decision, ReasonCode[]],
    ownFailure: boolean,
  ): void {
    const { project, ctx } = this;
    for (const h of hooks) {
      const id = `${parentId}#hooks/${h.event}/${h.index}`;
      let decision: Decision;
      let reasons: ReasonCode[];
      // Without the opt-in there is no hook load at all: every hook item is off, a defect in it only a diagnostic.
      if (!ctx.hooksOptIn) [decision, reasons] = ['disabled', ['hooks_not_opted_in']];
      else if (!h.valid) [decision, reasons] = ['rejected', ['component_invalid']];
      else if (project.hookLoad && ownFailure) [decision, reasons] = ['rejected', ['manifest_invalid']];
      else if (project.hookLoad) {
        this.aborted(id, h.file, project.hookLoad, 'hook');
        [decision, reasons] = ['rejected', ['load_aborted']];
      } else [decision, reasons] = loaded;
      const label = h.argv.join(' ');
      this.add({
        ...this.base(
          id,
          'hook',
          `${h.event}: ${label}`,
          `${h.origin}.${h.event}.${h.index}`,
          h.file,
          parentId,
          decision,
          reasons,
        ),
        detail: { hook: hookOf(h) },
      });
    }
  }

  /** A warning only about hooks Rivumi will run: the opt-in is set and the hook load succeeds (decisions.md). */
  private runsUnreviewed(
    id: string,
    file: string,
    hooks: readonly RivumiHook[],
    gate: Gate,
    whose: 'these' | "this plugin's",
  ): void {
    if (!this.hooksRun || hooks.length === 0 || gate.trust === 'trusted') return;
    const status = gate.reasons.includes('trust_store_unavailable')
      ? 'not vouched for (the trust store is unavailable)'
      : gate.trust.replace('-', ' ');
    this.extra.push({
      file,
      range: FILE_START,
      severity: 'warning',
      code: 'rivumi.hooks.opted-in-untrusted',
      message: `RIVUMI_ENABLE_PROJECT_HOOKS=1 is set, so Rivumi runs ${whose} ${hooks.length} hook command(s) although ${whose === 'these' ? 'they are' : 'the plugin is'} ${status} in Skillgate: ${hooks.map((h) => `${h.event}: ${h.argv.join(' ')}`).join('; ')}`,
      itemId: id,
    });
  }

  /**
   * One warning per file and load: `hooks.json` and each of its hooks (a plugin's hooks, in
   * its file) would each say the same at the same place, one Problem per hook. The first
   * item told is the file's own (the hooks file or the plugin, listed before its hooks).
   */
  private readonly abortedTold = new Set<string>();

  private aborted(itemId: string, file: string, load: LoadFailure, which: 'skill' | 'hook'): void {
    const told = `${which}\0${file}`;
    if (this.abortedTold.has(told)) return;
    this.abortedTold.add(told);
    this.extra.push({
      file,
      range: FILE_START,
      severity: severityOf('rivumi.load-aborted'),
      code: 'rivumi.load-aborted',
      message: `Rivumi aborts the whole ${which} load because of ${portableRelative(this.project.workspace, load.file)}: ${load.message}`,
      itemId,
      related: [{ file: load.file, range: load.diagnostic.range, message: load.message }],
    });
  }

  private add(fields: AgentItemFields, unit?: Partial<UnitFields>): void {
    this.items.push(agentItem(fields, unit));
  }

  /** All a Rivumi item states but its detail: each is a file of the workspace's `.rivumi/`, opened at its start. */
  private base(
    id: string,
    kind: Item['kind'],
    name: string,
    qualifiedName: string,
    file: string,
    parent: string | null,
    decision: Decision,
    reasons: ReasonCode[],
  ): Omit<AgentItemFields, 'detail'> {
    return {
      id,
      system: 'rivumi',
      kind,
      name,
      qualifiedName,
      scope: 'workspace',
      workspace: this.project.workspace,
      path: file,
      location: { file, range: FILE_START },
      parent,
      decision,
      reasons,
    };
  }
}

/** A Rivumi bundle's trust and hashes. Rivumi has no enable switch (system.ts): `enabled` stays null on its bundles too. */
function unitFields(gate: Gate, hashes: RivumiPlugin['hashes']): Partial<UnitFields> {
  return {
    trust: gate.trust,
    contentHash: hashes?.contentHash,
    capabilityHash: hashes?.capabilityHash,
    reviewToken: hashes ? reviewToken(hashes.contentHash, hashes.capabilityHash) : null,
  };
}

/**
 * The most specific item whose file is a diagnostic's file: the first top-level item with
 * that path, else the first item. Looked up, not searched: a search of every item for each
 * diagnostic was quadratic in a folder of 40,000 skills past the cap (7 s).
 */
function owners(items: readonly Item[]): (file: string) => string | null {
  const top = new Map<string, string>();
  const any = new Map<string, string>();
  for (const i of items) {
    if (i.parent === null && !top.has(i.path)) top.set(i.path, i.id);
    if (!any.has(i.path)) any.set(i.path, i.id);
  }
  return (file) => top.get(file) ?? any.get(file) ?? null;
}

/**
 * What Rivumi does with a bundle it loads (decisions.md): it enforces no trust, so the
 * bundle is `registered` either way; untrusted, `loaded_unreviewed` comes first and the
 * trust reason follows. Restricted Mode changes nothing Rivumi does; it is listed last.
 */
function loadedFate(gate: Gate): [Decision, ReasonCode[]] {
  const trustReasons = gate.reasons.filter((r) => r !== 'workspace_untrusted');
  if (trustReasons.length === 0) return ['registered', ['active']];
  return [
    'registered',
    ['loaded_unreviewed', ...trustReasons, ...gate.reasons.filter((r) => r === 'workspace_untrusted')],
  ];
}

/**
 * A bundle Rivumi does not load (rejected, past its cap, hooks without the opt-in): why first,
 * then every gate that holds (decisions.md "Reason codes"), so that fixing the first alone is
 * not read as making it trusted. Nothing of it runs, so no `loaded_unreviewed`; Rivumi has no
 * enable switch, so no `not_enabled` (the gate is asked without one).
 */
function notLoadedFate(decision: Decision, primary: ReasonCode, gate: Gate): [Decision, ReasonCode[]] {
  return [decision, [primary, ...gate.reasons]];
}

/** A loaded bundle's skills and hooks carry its risk: `component_active` when it is trusted. */
function childFate(gate: Gate): [Decision, ReasonCode[]] {
  const [decision, reasons] = loadedFate(gate);
  return reasons[0] === 'active' ? [decision, ['component_active']] : [decision, reasons];
}

/**
 * Rivumi's two loads as they touch one bundle, in words (`explain`): the skill load decides
 * a plugin and its skills; the hook load (only with the opt-in) its hooks.
 */
function loadFacts(
  project: RivumiProject,
  ctx: RivumiContext,
  kind: 'plugin' | 'hooks',
  hasHooks: boolean,
  file?: string,
): Record<string, string> {
  const hooks = !hasHooks
    ? 'none declared'
    : !ctx.hooksOptIn
      ? 'not loaded (opt-in off)'
      : project.hookLoad
        ? `not loaded (the hook load fails: ${project.hookLoad.message})`
        : 'loaded by the hook load (opt-in on): Rivumi runs them';
  if (kind === 'hooks') return { hooks };
  const skills =
    project.skillLoad && project.skillLoad.file !== file
      ? `not loaded (the skill load fails: ${project.skillLoad.message})`
      : 'loaded by the skill load';
  return { skills, hooks };
}
