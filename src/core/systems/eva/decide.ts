import type { DocPath } from '../../documents/document';
import type { Decision, Diagnostic } from '../../model';
import { CheckFindings } from './checkFindings';
import type { SchemaRef, SkillContract } from './contracts';
import { effectivePermissions } from './effectivePermissions';
import { capabilityNamespace } from './ids';
import type { EffectivePermission } from './item';
import { checkLuaScript } from './luaScript';
import { resolveNamedPath, type AllowedRoot, type ResolvedPath } from './paths';
import type { EvaPolicy } from './policy';
import { checkPolicy } from './policyChecks';
import { decisionOf, primaryFirst } from './reasonOrder';
import { gateAdmits, gateText, runtimeText, type EvaRuntime } from './runtime';
import { checkSkillSchemas, declaredSchemaStates } from './skillSchemas';
import type { EvaReason, EvaTarget } from './vocabulary';
import type { YamlDocument } from './yamlDocument';

/**
 * Eva's ordered decision procedure for a project skill (eva.md §4.2, C3–C12): every
 * check runs and every reason that holds is kept, in check order; the first is primary
 * and fixes the decision, except that `duplicate_id_shadowed` is always primary.
 */

export interface ProjectSkillInput {
  readonly doc: YamlDocument;
  readonly contract: SkillContract;
  /** C2 failed, or a provider it names is missing (a cross-file rule): only C3 still runs. */
  readonly invalid: boolean;
  readonly shadowed: boolean;
}

export interface DecideContext {
  readonly projectRoot: string;
  readonly home: string | null;
  readonly runtime: EvaRuntime;
  readonly policy: EvaPolicy;
  /** Allowed roots of `skill.path` (project, ~/.codex/skills, ~/.agents/skills) and of scripts and schema files (project). */
  readonly skillPathRoots: readonly AllowedRoot[];
  readonly projectRoots: readonly AllowedRoot[];
}

export interface ProjectSkillDecision {
  readonly reasons: EvaReason[];
  readonly decision: Decision;
  readonly target: EvaTarget | null;
  readonly diagnostics: Diagnostic[];
  readonly skillPath: ResolvedPath | null;
  readonly script: ResolvedPath | null;
  readonly schemaFiles: readonly ResolvedPath[];
  /** A schema file that exists but is not a JSON object. */
  readonly schemaStates: {
    readonly input: 'inline' | 'file' | 'absent' | 'invalid';
    readonly output: 'inline' | 'file' | 'absent' | 'invalid';
  };
  readonly effectivePermissions: Record<string, EffectivePermission>;
  /** The Lua script names `require`: the modules it loads are not covered by trust (eva.md §6.1). */
  readonly scriptRequires?: boolean;
}

export function decideProjectSkill(input: ProjectSkillInput, ctx: DecideContext): ProjectSkillDecision {
  const { doc, contract: k } = input;
  const findings = new CheckFindings(doc);
  if (input.invalid) findings.reason('schema_invalid');
  if (input.shadowed) findings.reason('duplicate_id_shadowed');
  const granted = effectivePermissions(k, ctx.policy);
  if (input.invalid)
    return conclude(findings, k, {
      skillPath: null,
      script: null,
      schemaFiles: [],
      schemaStates: declaredSchemaStates(k),
      effectivePermissions: granted,
    });
  checkEnabled(findings, k);
  const paths = checkNamedPaths(findings, k, ctx);
  const scriptRequires = checkLuaScript(findings, k, paths.script);
  const schemaStates = checkSkillSchemas(findings, k, paths.schemaFileOf);
  // A lua_skill under require_schema: false is shown, not refused (eva.md §3.3).
  const schemaDisplayOnly = k.kind === 'lua_skill' && !ctx.policy.requireSchema;
  const { admitted, teamTarget } = checkRuntimeWorker(findings, k, ctx.runtime);
  checkPolicy(findings, k, ctx.policy, ctx.runtime, admitted);
  checkGate(findings, k, ctx.runtime, admitted);
  checkCapabilities(findings, k);
  const result = conclude(
    findings,
    k,
    {
      skillPath: paths.skillPath,
      script: paths.script,
      schemaFiles: paths.schemaFiles,
      schemaStates,
      effectivePermissions: granted,
    },
    schemaDisplayOnly,
    teamTarget,
  );
  return scriptRequires ? { ...result, scriptRequires } : result;
}

/** C4: Eva's own switch. */
function checkEnabled(findings: CheckFindings, k: SkillContract): void {
  if (k.enabled) return;
  findings.reason('disabled_by_manifest');
  findings.note(
    'eva.manifest.disabled',
    k.kind === 'lua_skill' ? 'capability manifest is disabled' : 'adapter manifest is disabled',
    ['enabled'],
  );
}

/** The paths C5 resolved: `skill.path`, the Lua script, the schema files in declaration order and by side. */
interface NamedPaths {
  readonly skillPath: ResolvedPath | null;
  readonly script: ResolvedPath | null;
  readonly schemaFiles: readonly ResolvedPath[];
  readonly schemaFileOf: Readonly<Record<'input' | 'output', ResolvedPath | undefined>>;
}

/** C5: named paths inside their allowed roots. */
function checkNamedPaths(findings: CheckFindings, k: SkillContract, ctx: DecideContext): NamedPaths {
  const refuse = (p: ResolvedPath, field: DocPath) => {
    findings.reason('path_not_allowed');
    findings.note(
      'eva.path.not-allowed',
      `path is outside the allowed roots: ${p.display}${p.viaSymlink ? ' via symbolic link' : ''}`,
      field,
    );
  };
  const skillPath = k.skillPath
    ? resolveNamedPath(k.skillPath.declared, ctx.projectRoot, ctx.home, ctx.skillPathRoots)
    : null;
  if (skillPath && k.skillPath && !skillPath.allowed) refuse(skillPath, k.skillPath.field);
  const script = k.script ? resolveNamedPath(k.script.declared, ctx.projectRoot, ctx.home, ctx.projectRoots) : null;
  if (script && k.script && !script.allowed) refuse(script, k.script.field);
  const schemaFiles: ResolvedPath[] = [];
  const schemaFile = (ref: SchemaRef | null) => {
    if (!ref || !('file' in ref)) return undefined;
    const p = resolveNamedPath(ref.file, ctx.projectRoot, ctx.home, ctx.projectRoots);
    schemaFiles.push(p);
    if (!p.allowed) refuse(p, [ref.field]);
    return p;
  };
  const schemaFileOf = { input: schemaFile(k.inputSchema), output: schemaFile(k.outputSchema) };
  if (skillPath?.allowed && !skillPath.exists && skillPath.unreadable === undefined)
    findings.note(
      'eva.skill.path-missing',
      'skill.path does not exist on this machine; Eva-CLI does not read it, but its instructions cannot be reviewed',
      k.skillPath?.field ?? ['skill'],
    );
  return { skillPath, script, schemaFiles, schemaFileOf };
}

/**
 * C9: a runtime_worker outside a matching team runtime is display-only. Returns whether the
 * gate admits the runtime (C10, C11) and whether the worker registers in its team runtime.
 */
function checkRuntimeWorker(
  findings: CheckFindings,
  k: SkillContract,
  runtime: EvaRuntime,
): { admitted: boolean; teamTarget: boolean } {
  const admitted = k.runtimeGate ? gateAdmits(k.runtimeGate, runtime) : false;
  const teamTarget = k.kind === 'runtime_worker' && runtime.mode !== 'normal' && admitted;
  if (k.kind === 'runtime_worker' && !teamTarget) {
    findings.reason('runtime_worker_display_only');
    findings.note('eva.kind.runtime-worker', 'runtime_worker skills are display-only outside their team runtime', [
      'skill',
      'kind',
    ]);
  }
  return { admitted, teamTarget };
}

/** C11: the gate admits the assumed runtime. */
function checkGate(findings: CheckFindings, k: SkillContract, runtime: EvaRuntime, admitted: boolean): void {
  if (!k.runtimeGate || admitted) return;
  findings.reason('runtime_gate_mismatch');
  findings.note(
    'eva.gate.mismatch',
    `runtime gate ${gateText(k.runtimeGate)} does not admit the current runtime (${runtimeText(runtime)})`,
    k.gateField,
  );
}

/** C12: capabilities are workflow.* (the skill registry, eva.md §4.4), at least one. */
function checkCapabilities(findings: CheckFindings, k: SkillContract): void {
  if (k.capabilities.length === 0) {
    findings.reason('capability_unknown');
    findings.note('eva.capability.unknown', 'skill declares no capability', k.capabilitiesField);
  }
  for (const cap of k.capabilities) {
    if (isWorkflowCapability(cap.name)) continue;
    findings.reason('capability_unknown');
    findings.note(
      'eva.capability.unknown',
      `capability ${cap.name} is not a workflow.* capability; skills expose only workflow capabilities`,
      cap.field,
    );
  }
}

export function isWorkflowCapability(name: string): boolean {
  return capabilityNamespace(name) === 'workflow' && name.split('.').length >= 2;
}

/** What the checks resolved and read, carried by the decision beside its reasons. */
type Checked = Pick<
  ProjectSkillDecision,
  'skillPath' | 'script' | 'schemaFiles' | 'schemaStates' | 'effectivePermissions'
>;

/** The decision the findings imply, its primary reason first, and where a registered skill goes. */
function conclude(
  findings: CheckFindings,
  k: SkillContract,
  checked: Checked,
  schemaDisplayOnly = false,
  teamTarget = false,
): ProjectSkillDecision {
  const ordered = primaryFirst(findings.reasons);
  const decision = decisionOf(ordered, schemaDisplayOnly);
  const target: EvaTarget | null =
    decision === 'registered'
      ? k.kind === 'lua_skill'
        ? 'CapabilityRegistry'
        : teamTarget
          ? 'TeamRuntime'
          : 'AdapterRegistry'
      : decision === 'display_only'
        ? 'DisplayOnly'
        : null;
  return {
    reasons: ordered.length ? ordered : ['registered'],
    decision,
    target,
    diagnostics: findings.diagnostics,
    ...checked,
  };
}
