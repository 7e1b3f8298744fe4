import type { Decision, ReasonCode, Severity } from '../../model';

/**
 * Eva-CLI's words that the shared model (model.ts) does not have yet. They live here
 * until the systems seam wires Eva in (issue 12/13); each says what it maps onto.
 */

/** The system id Eva items carry (`System` in model.ts gains `'eva'` at wiring time). */
export const EVA_SYSTEM = 'eva';
export type EvaSystemId = typeof EVA_SYSTEM;

/** Item kinds of eva.md §3.2 / §4.8 (`ItemKind` in model.ts gains these). */
export type EvaItemKind = 'skill-adapter' | 'lua-skill' | 'skill' | 'skill-binding';

/** The skill kinds of Eva's descriptor (§3.1). */
export type EvaSkillKind = 'workflow_skill' | 'runtime_worker' | 'lua_skill';

export type EvaSource = 'project_adapter' | 'project_capability' | 'user_codex' | 'user_agents';
export type EvaTrustLevel = 'Project' | 'UserLocal' | 'SystemPath' | 'ExplicitRemote' | 'Unknown';
export type EvaTarget = 'AdapterRegistry' | 'CapabilityRegistry' | 'TeamRuntime' | 'DisplayOnly';

/** Eva's own reason codes (eva.md §4.1), each with the decision it implies. */
export const EVA_REASONS = {
  registered: 'registered',
  schema_invalid: 'rejected',
  manifest_too_large: 'rejected',
  path_not_allowed: 'rejected',
  script_missing: 'rejected',
  // Rejected for project manifests; display-only for user items and a lua_skill with require_schema: false (decide.ts).
  capability_missing_schema: 'rejected',
  policy_denied: 'rejected',
  disabled_by_manifest: 'disabled',
  manifest_required: 'display_only',
  trust_level_unknown: 'display_only',
  runtime_worker_display_only: 'display_only',
  runtime_gate_mismatch: 'display_only',
  capability_unknown: 'display_only',
  scan_limit_exceeded: 'display_only',
  duplicate_id_shadowed: 'shadowed',
  bundle_inactive: 'disabled',
} as const satisfies Record<string, Decision>;

export type EvaReason = keyof typeof EVA_REASONS;

/** Skillgate's trust-gate reasons appended at C13 (§4.6), already in the shared `ReasonCode`, plus `loaded_unreviewed` (decisions.md). */
export type EvaTrustReason = 'loaded_unreviewed' | Extract<ReasonCode, 'not_reviewed' | 'content_changed' | 'capabilities_changed' | 'trust_store_unavailable' | 'workspace_untrusted'>;

/** Every reason an Eva item may carry: the union `ReasonCode` must cover at wiring time. */
export type EvaItemReason = EvaReason | EvaTrustReason;

/**
 * Eva's diagnostic codes (eva.md §5) with severity and summary, in the form of
 * `DIAGNOSTIC_CODES` (diagnosticCodes.ts), which receives them when Eva is wired in.
 * Where a code's severity depends on the item (schema-missing on user items), the
 * table holds the project severity.
 */
export const EVA_DIAGNOSTIC_CODES = {
  'eva.project.config-invalid': ['error', 'config/eva.yaml cannot be read, parsed or lacks a configuration root; the sample roots are used.'],
  'eva.project.root-missing': ['error', 'A configuration root named in config/eva.yaml does not exist.'],
  'eva.project.root-outside': ['error', 'A configuration root resolves outside the workspace; Skillgate does not scan it.'],
  'eva.project.schema-missing': ['warning', "The project's JSON schemas cannot be read; Skillgate's embedded copies are used."],
  'eva.project.load-aborted': ['warning', 'The first file at which the shipped Eva-CLI would stop loading the whole project.'],
  'eva.scan.symlink-ignored': ['information', 'A symbolic link in a configuration directory, which Eva-CLI skips.'],
  'eva.scan.limit': ['warning', "More YAML files in one directory than Eva's discovery limit."],
  'eva.manifest.too-large': ['error', 'A manifest larger than max_manifest_bytes.'],
  'eva.manifest.read': ['error', 'A manifest that cannot be read or is not UTF-8.'],
  'eva.yaml.parse': ['error', 'A manifest that is not one well-formed YAML document (duplicate key, second document, alias limit).'],
  'eva.schema.required': ['error', 'A field the upstream schema requires is missing.'],
  'eva.schema.type': ['error', 'A field has the wrong type for the upstream schema.'],
  'eva.schema.enum': ['error', 'A value outside the upstream schema enum.'],
  'eva.schema.pattern': ['error', 'A string that does not match the upstream schema pattern.'],
  'eva.schema.additional': ['error', 'A property a closed upstream schema object does not allow.'],
  'eva.id.invalid': ['error', "An adapter or capability id that breaks Eva's identifier rules."],
  'eva.field.empty': ['error', 'name or version is empty or padded with whitespace.'],
  'eva.capability.name-invalid': ['error', "A capability name that breaks Eva's capability-name rules."],
  'eva.capability.kind-unsupported': ['error', 'A capability kind the loader does not support.'],
  'eva.capability.provider-missing': ['error', 'A capability names a provider adapter that does not exist.'],
  'eva.compat.lua-skill': ['warning', 'A lua_skill manifest, which the shipped Eva-CLI does not know.'],
  'eva.compat.gate-mapping': ['information', 'A runtime gate mapping on an adapter; the shipped Eva-CLI invokes only a string gate equal to normal.'],
  'eva.skill.block-missing': ['error', 'A transport: skill adapter without a skill mapping.'],
  'eva.skill.id-missing': ['error', 'A skill adapter without skill.id.'],
  'eva.skill.kind-missing': ['error', 'A skill adapter without skill.kind.'],
  'eva.skill.kind-invalid': ['error', 'A skill adapter whose skill.kind is not workflow_skill or runtime_worker.'],
  'eva.skill.gate-missing': ['error', 'A skill without a runtime gate.'],
  'eva.skill.gate-invalid': ['error', 'A runtime gate that is neither a mode string nor a mapping with allowed_modes.'],
  'eva.skill.schema-missing': ['error', 'A skill without an input or output schema.'],
  'eva.skill.schema-type': ['error', 'A skill input schema whose type is not object.'],
  'eva.skill.schema-file-missing': ['error', 'A schema file a lua_skill names does not exist.'],
  'eva.skill.schema-file-invalid': ['error', 'A schema file that is not a JSON object.'],
  'eva.path.not-allowed': ['error', 'A path a skill names escapes its allowed roots.'],
  'eva.skill.path-missing': ['warning', 'skill.path does not exist on this machine, so its instructions cannot be reviewed.'],
  'eva.lua.script-missing': ['error', 'The Lua script of a lua_skill does not exist.'],
  'eva.manifest.disabled': ['information', 'A manifest with enabled: false.'],
  'eva.user.manifest-required': ['information', 'A user-local skill without a project skill manifest (display-only).'],
  'eva.user.policy': ['information', 'User-local skills are display-only by the current policy.'],
  'eva.user.frontmatter': ['warning', 'The front matter of a user-local SKILL.md cannot be read.'],
  'eva.user.symlink': ['warning', 'A user-local SKILL.md that is a symbolic link (listed, not reviewable).'],
  'eva.kind.runtime-worker': ['information', 'A runtime_worker skill outside its team runtime (display-only).'],
  'eva.policy.invalid': ['error', 'A malformed adapter_policy.'],
  'eva.policy.write-denied': ['error', 'A skill requests workspace write that the policy does not allow.'],
  'eva.policy.network-denied': ['error', 'A skill requests network access that the policy does not allow.'],
  'eva.policy.shell-denied': ['error', 'A skill requests shell access that the policy does not allow.'],
  'eva.policy.capability-denied': ['error', 'A skill declares a globally denied capability.'],
  'eva.policy.kind-denied': ['error', 'A skill kind denied by adapter_policy.skill.deny_kinds.'],
  'eva.policy.gate-denied': ['error', 'A runtime gate not in adapter_policy.skill.allowed_runtime_gates.'],
  'eva.policy.credentials': ['error', 'A process-free skill that asks for provider credentials.'],
  'eva.policy.fail-closed': ['error', 'The adapter policy could not be read, so every Eva skill is denied.'],
  'eva.gate.mismatch': ['information', 'A runtime gate that does not admit the assumed runtime.'],
  'eva.gate.unknown-mode': ['warning', 'An unknown runtime mode in a gate.'],
  'eva.capability.unknown': ['warning', 'A skill capability outside workflow.*, or none.'],
  'eva.capability.allow-unknown-ignored': ['information', 'allow_unknown_capability, which no policy knob allows.'],
  'eva.conflict.duplicate-adapter-id': ['error', 'A later adapter manifest with the id of an earlier one.'],
  'eva.conflict.duplicate-capability-id': ['error', 'A later capability manifest with the id of an earlier one.'],
  'eva.conflict.shadowed': ['information', 'A user-local skill shadowed by a project manifest.'],
  'eva.conflict.cross-namespace-id': ['information', 'The same id used by an adapter and a capability manifest.'],
  'eva.conflict.same-skill-multiple-directory': ['information', 'The same skill directory under ~/.codex/skills and ~/.agents/skills.'],
  'eva.conflict.multiple-providers': ['information', "Several adapters provide one capability; Eva-CLI's routing choice."],
  'eva.capability.skill-provider-not-skill': ['warning', 'A kind: skill capability whose provider is not a skill adapter.'],
  'eva.trust.symlink': ['error', 'A file covered by an Eva skill is a symbolic link, so it cannot be reviewed.'],
} as const satisfies Record<string, readonly [Severity, string]>;

export type EvaDiagnosticCode = keyof typeof EVA_DIAGNOSTIC_CODES;
