import type { DiagnosticCode } from '../../diagnostics/diagnosticCodes';
import type { Decision, ReasonCode, System } from '../../model';

/**
 * Eva-CLI's words: its descriptor's kinds and its reasons (members of the shared union in
 * model.ts), and what each reason implies.
 */

/** The system id Eva items carry. */
export const EVA_SYSTEM = 'eva' satisfies System;

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
} as const satisfies Partial<Record<ReasonCode, Decision>>;

export type EvaReason = keyof typeof EVA_REASONS;

/** Skillgate's trust-gate reasons appended at C13 (§4.6), already in the shared `ReasonCode`, plus `loaded_unreviewed` (decisions.md). */
export type EvaTrustReason =
  | 'loaded_unreviewed'
  | Extract<
      ReasonCode,
      'not_reviewed' | 'content_changed' | 'capabilities_changed' | 'trust_store_unavailable' | 'workspace_untrusted'
    >;

/** Every reason an Eva item may carry. */
export type EvaItemReason = EvaReason | EvaTrustReason;

/** Eva's diagnostic codes (eva.md §5), held with every other code in diagnosticCodes.ts. */
export type EvaDiagnosticCode = Extract<DiagnosticCode, `eva.${string}`>;
