import { lstatEntry, readRegularFile } from '../../fs/safeFs';
import { MAX_HASHED_BYTES } from '../../hashing/treeRead';
import type { DocPath } from '../../documents/document';
import type { Decision, Diagnostic } from '../../model';
import type { FixDraft } from '../../diagnostics/fixBasis';
import type { SkillContract } from './contracts';
import { evaDiagnostic, fixLast } from './diagnostics';
import { capabilityNamespace } from './ids';
import type { EffectivePermission, SchemaState } from './item';
import { resolveNamedPath, type AllowedRoot, type ResolvedPath } from './paths';
import type { EvaPolicy } from './policy';
import { gateAdmits, gateText, runtimeText, type EvaRuntime } from './runtime';
import { readSchemaObject } from './schemas';
import { EVA_REASONS, type EvaReason, type EvaTarget } from './vocabulary';
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
  const reasons: EvaReason[] = [];
  const diagnostics: Diagnostic[] = [];
  const add = (r: EvaReason) => {
    if (!reasons.includes(r)) reasons.push(r);
  };
  const at = (field: DocPath) => doc.fieldRange(field);
  const note = (code: Parameters<typeof evaDiagnostic>[2], message: string, field: DocPath) =>
    diagnostics.push(evaDiagnostic(doc.file, at(field), code, message));
  if (input.invalid) add('schema_invalid');
  if (input.shadowed) add('duplicate_id_shadowed');
  const effectivePermissions = effective(k, ctx.policy);
  const states: { input: SchemaState; output: SchemaState } = {
    input: stateOf(k.inputSchema),
    output: stateOf(k.outputSchema),
  };
  if (input.invalid) return finish(reasons, k, ctx, diagnostics, null, null, [], states, effectivePermissions);

  // C4: Eva's own switch.
  if (!k.enabled) {
    add('disabled_by_manifest');
    note(
      'eva.manifest.disabled',
      k.kind === 'lua_skill' ? 'capability manifest is disabled' : 'adapter manifest is disabled',
      ['enabled'],
    );
  }

  // C5: named paths inside their allowed roots.
  const refuse = (p: ResolvedPath, field: DocPath) => {
    add('path_not_allowed');
    note(
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
  const schemaFile = (ref: SkillContract['inputSchema']) => {
    if (!ref || !('file' in ref)) return undefined;
    const p = resolveNamedPath(ref.file, ctx.projectRoot, ctx.home, ctx.projectRoots);
    schemaFiles.push(p);
    if (!p.allowed) refuse(p, [ref.field]);
    return p;
  };
  const inputFile = schemaFile(k.inputSchema);
  const outputFile = schemaFile(k.outputSchema);
  if (skillPath?.allowed && !skillPath.exists && skillPath.unreadable === undefined)
    note(
      'eva.skill.path-missing',
      'skill.path does not exist on this machine; Eva-CLI does not read it, but its instructions cannot be reviewed',
      k.skillPath?.field ?? ['skill'],
    );

  // C6: the Lua script exists as a regular file. One this user cannot look at is not known to be
  // missing: Eva run as a user who may read it loads it (and trust cannot cover it, so `check` fails).
  let scriptRequires = false;
  if (script?.allowed && k.script && script.unreadable === undefined) {
    const real = script.real;
    if (!script.exists || real === null || !isRegularFile(real)) {
      add('script_missing');
      note('eva.lua.script-missing', 'Lua script does not exist', k.script.field);
    } else scriptRequires = callsRequire(real);
  }

  // C8: both schemas present; file references exist and hold a JSON object.
  const missing: string[] = [];
  const checkSide = (side: 'input' | 'output', ref: SkillContract['inputSchema'], file: ResolvedPath | undefined) => {
    if (!ref) {
      missing.push(side);
      return;
    }
    if (!file || !file.allowed) return;
    const field: DocPath = [`${side}_schema`];
    // One this user cannot look at is read, and its read fails as Eva's would: `failed to read JSON Schema`.
    if (!file.exists && file.unreadable === undefined) {
      missing.push(side);
      note('eva.skill.schema-file-missing', `${side}_schema file does not exist: ${file.display}`, field);
      return;
    }
    const read = readSchemaObject(file.real ?? (file.resolved as string));
    if (!read.ok) {
      states[side] = 'invalid';
      add('schema_invalid');
      note('eva.skill.schema-file-invalid', read.message, field);
    }
  };
  checkSide('input', k.inputSchema, inputFile);
  checkSide('output', k.outputSchema, outputFile);
  const absent = missing.filter((side) => !(side === 'input' ? k.inputSchema : k.outputSchema));
  if (missing.length) add('capability_missing_schema');
  for (const side of absent) {
    note('eva.skill.schema-missing', `workflow skill is missing ${side}_schema`, k.schemaField);
    fixLast(diagnostics, schemaStubFix(doc, k, side), doc);
  }
  // A lua_skill under require_schema: false is shown, not refused (eva.md §3.3).
  const schemaDisplayOnly = k.kind === 'lua_skill' && !ctx.policy.requireSchema;

  // C9: a runtime_worker outside a matching team runtime is display-only.
  const admitted = k.runtimeGate ? gateAdmits(k.runtimeGate, ctx.runtime) : false;
  const teamTarget = k.kind === 'runtime_worker' && ctx.runtime.mode !== 'normal' && admitted;
  if (k.kind === 'runtime_worker' && !teamTarget) {
    add('runtime_worker_display_only');
    note('eva.kind.runtime-worker', 'runtime_worker skills are display-only outside their team runtime', [
      'skill',
      'kind',
    ]);
  }

  // C10: the effective policy.
  const policyFailures = policyChecks(k, ctx, admitted);
  if (policyFailures.length) add('policy_denied');
  for (const f of policyFailures) note(f.code, f.message, f.field);

  // C11: the gate admits the assumed runtime.
  if (k.runtimeGate && !admitted) {
    add('runtime_gate_mismatch');
    note(
      'eva.gate.mismatch',
      `runtime gate ${gateText(k.runtimeGate)} does not admit the current runtime (${runtimeText(ctx.runtime)})`,
      k.gateField,
    );
  }

  // C12: capabilities are workflow.* (the skill registry, eva.md §4.4), at least one.
  if (k.capabilities.length === 0) {
    add('capability_unknown');
    note('eva.capability.unknown', 'skill declares no capability', k.capabilitiesField);
  }
  for (const cap of k.capabilities) {
    if (isWorkflowCapability(cap.name)) continue;
    add('capability_unknown');
    note(
      'eva.capability.unknown',
      `capability ${cap.name} is not a workflow.* capability; skills expose only workflow capabilities`,
      cap.field,
    );
  }
  const result = finish(
    reasons,
    k,
    ctx,
    diagnostics,
    skillPath,
    script,
    schemaFiles,
    states,
    effectivePermissions,
    schemaDisplayOnly,
    teamTarget,
  );
  return scriptRequires ? { ...result, scriptRequires } : result;
}

function finish(
  reasons: EvaReason[],
  k: SkillContract,
  ctx: DecideContext,
  diagnostics: Diagnostic[],
  skillPath: ResolvedPath | null,
  script: ResolvedPath | null,
  schemaFiles: readonly ResolvedPath[],
  schemaStates: ProjectSkillDecision['schemaStates'],
  effectivePermissions: Record<string, EffectivePermission>,
  schemaDisplayOnly = false,
  teamTarget = false,
): ProjectSkillDecision {
  const ordered = primaryFirst(reasons);
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
  void ctx;
  return {
    reasons: ordered.length ? ordered : ['registered'],
    decision,
    target,
    diagnostics,
    skillPath,
    script,
    schemaFiles,
    schemaStates,
    effectivePermissions,
  };
}

/**
 * An object-schema stub for a missing side of a skill adapter, inserted as the last
 * entry of a block-style `skill` mapping at its indentation. Only offered when that
 * placement is unambiguous (block mapping, not flow `{…}` nor an alias).
 */
function schemaStubFix(doc: YamlDocument, k: SkillContract, side: string): FixDraft | undefined {
  if (k.kind === 'lua_skill' || !doc.has(['skill', 'kind'])) return undefined;
  // A key written with no schema (`output_schema:`, `null`, `~`) reads as missing
  // (skillAdapterContract.ts inlineSchema); a stub after it would name the key twice, and
  // serde_yaml refuses a duplicate mapping key for the whole file (yamlDuplicateKey.ts), which
  // aborts the project's load.
  if (doc.has(['skill', `${side}_schema`])) return undefined;
  const [start] = doc.valueSpan(['skill']);
  // A flow mapping has no line for the entry; an alias (`skill: *base`) has its mapping at the
  // anchor, where an entry would change every alias of it, and after the alias it breaks the file.
  if (doc.text[start] === '{' || doc.text[start] === '*') return undefined;
  // The entries' indentation is the spaces that open the line of the mapping's first entry: a
  // key's own column is past an indicator or a property (`? kind`, `&k kind:`), and a stub there
  // would be more indented than the entries, which libyaml refuses. What may follow the spaces
  // is only those; a mapping opened on an indicator's line (`: source: codex`) has no such line.
  let lineStart = start;
  while (lineStart > 0 && doc.text[lineStart - 1] !== '\n' && doc.text[lineStart - 1] !== '\r') lineStart--;
  const opening = /^( *)(?:\? +|[&!]\S* +)*$/.exec(doc.text.slice(lineStart, start));
  if (!opening) return undefined;
  const indent = (opening[1] as string).length;
  const end = doc.valueRange(['skill']).end;
  // A block mapping's range ends after its last line break; without one (end of file), start a line.
  const newText = `${end.character === 0 ? '' : '\n'}${' '.repeat(indent)}${side}_schema: {type: object}\n`;
  return {
    title: `Add an ${side}_schema stub (type: object)`,
    edits: [{ file: doc.file, range: { start: end, end }, newText }],
  };
}

/** `duplicate_id_shadowed` always leads; the rest keep check order. */
export function primaryFirst(reasons: readonly EvaReason[]): EvaReason[] {
  return reasons.includes('duplicate_id_shadowed')
    ? ['duplicate_id_shadowed', ...reasons.filter((r) => r !== 'duplicate_id_shadowed')]
    : [...reasons];
}

/** The decision the primary reason implies; `capability_missing_schema` is display-only where shown rather than refused. */
export function decisionOf(reasons: readonly EvaReason[], missingSchemaDisplayOnly: boolean): Decision {
  const primary = reasons[0];
  if (primary === undefined || primary === 'registered') return 'registered';
  if (primary === 'capability_missing_schema' && missingSchemaDisplayOnly) return 'display_only';
  return EVA_REASONS[primary];
}

export function isWorkflowCapability(name: string): boolean {
  return capabilityNamespace(name) === 'workflow' && name.split('.').length >= 2;
}

interface PolicyFailure {
  readonly code: Parameters<typeof evaDiagnostic>[2];
  readonly message: string;
  readonly field: DocPath;
}

/** C10 (a)–(h): one failure per sub-check that denies. */
function policyChecks(k: SkillContract, ctx: DecideContext, admitted: boolean): PolicyFailure[] {
  const p = ctx.policy;
  const out: PolicyFailure[] = [];
  if (p.failClosed)
    out.push({
      code: 'eva.policy.fail-closed',
      message: 'adapter_policy could not be read; every Eva skill is denied until it is fixed',
      field: [],
    });
  const kindField: DocPath = k.kind === 'lua_skill' ? ['kind'] : ['skill', 'kind'];
  if (k.kind !== 'runtime_worker' && p.denyKinds.includes(k.kind))
    out.push({
      code: 'eva.policy.kind-denied',
      message: `skill kind ${k.kind} is denied by adapter_policy.skill.deny_kinds`,
      field: kindField,
    });
  for (const cap of k.capabilities)
    if (p.denyCapabilities.includes(cap.name))
      out.push({
        code: 'eva.policy.capability-denied',
        message: `capability ${cap.name} is globally denied`,
        field: cap.field,
      });
  const writes = k.kind === 'lua_skill' ? k.permissions.fsWrite.length > 0 : k.permissions.writeWorkspace;
  if (writes && !p.defaults.writeWorkspace && !p.allowWriteWorkspace.includes(k.id)) {
    out.push({
      code: 'eva.policy.write-denied',
      message: `skill requests workspace write, which adapter_policy does not allow for ${k.id}`,
      field: k.kind === 'lua_skill' ? ['permissions', 'fs', 'write'] : ['permissions', 'write_workspace'],
    });
  }
  if (k.permissions.network && !p.defaults.network)
    out.push({
      code: 'eva.policy.network-denied',
      message: 'skill requests network access, which adapter_policy.defaults does not allow',
      field: ['permissions', 'network'],
    });
  if (k.permissions.shell && !p.defaults.shell)
    out.push({
      code: 'eva.policy.shell-denied',
      message: 'skill requests shell access, which adapter_policy.defaults does not allow',
      field: ['permissions', 'shell'],
    });
  const processFree = k.kind !== 'lua_skill' && k.entryType === 'codex_skill' && !k.runnerCommand && !k.topCommand;
  if (processFree && (k.permissions.env.length > 0 || k.hasCredentials))
    out.push({
      code: 'eva.policy.credentials',
      message: 'process-free Skill cannot consume provider credentials',
      field: k.permissions.env.length > 0 ? ['permissions', 'env'] : ['credentials'],
    });
  // (h) normal registration only: the mode that admits the runtime must be an allowed gate. A
  // runtime_worker never targets the normal registry (TeamRuntime or DisplayOnly, §4.2).
  if (k.kind !== 'runtime_worker' && admitted && !p.allowedRuntimeGates.includes(ctx.runtime.mode)) {
    out.push({
      code: 'eva.policy.gate-denied',
      message: `skill runtime gate ${ctx.runtime.mode} is not allowed`,
      field: k.gateField,
    });
  }
  return out;
}

/** Requested ∧ policy, with the policy file and key that decided each (for `explain`). */
function effective(k: SkillContract, p: EvaPolicy): Record<string, EffectivePermission> {
  const file = p.source;
  const def = (key: string) => ({ file, key: `adapter_policy.defaults.${key}` });
  const writeAllowed = p.defaults.writeWorkspace || p.allowWriteWorkspace.includes(k.id);
  const writes = k.kind === 'lua_skill' ? k.permissions.fsWrite.length > 0 : k.permissions.writeWorkspace;
  return {
    read_workspace: {
      requested: k.permissions.readWorkspace || k.permissions.fsRead.length > 0,
      effective:
        (k.permissions.readWorkspace || k.permissions.fsRead.length > 0) && p.defaults.readWorkspace && !p.failClosed,
      decidedBy: def('read_workspace'),
    },
    write_workspace: {
      requested: writes,
      effective: writes && writeAllowed && !p.failClosed,
      decidedBy: p.allowWriteWorkspace.includes(k.id)
        ? { file, key: 'adapter_policy.allow_write_workspace' }
        : def('write_workspace'),
    },
    network: {
      requested: k.permissions.network,
      effective: k.permissions.network && p.defaults.network && !p.failClosed,
      decidedBy: def('network'),
    },
    shell: {
      requested: k.permissions.shell,
      effective: k.permissions.shell && p.defaults.shell && !p.failClosed,
      decidedBy: def('shell'),
    },
  };
}

function stateOf(ref: SkillContract['inputSchema']): 'inline' | 'file' | 'absent' {
  return !ref ? 'absent' : 'file' in ref ? 'file' : 'inline';
}

function isRegularFile(p: string): boolean {
  return lstatEntry(p).type === 'file';
}

/**
 * Whether the script names `require`, as a word (no parse: a mention anywhere is enough to
 * warn). What it loads is not knowable statically, so trust does not cover it.
 */
function callsRequire(p: string): boolean {
  // Read up to the covered-file cap: a larger script is not hashed either.
  const read = readRegularFile(p, MAX_HASHED_BYTES);
  return read.ok && /(^|[^A-Za-z0-9_])require([^A-Za-z0-9_]|$)/.test(read.bytes.toString('latin1'));
}
