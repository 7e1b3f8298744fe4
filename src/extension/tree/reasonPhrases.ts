import type { Decision, ItemKind, ReasonCode } from '../../core/model';

/**
 * The tree's words: one short phrase per reason (its description) and per decision and
 * kind (its screen-reader label). Codes stay in the tooltip and `explain`; a new
 * `ReasonCode` without a phrase here does not compile. Short enough to fit the default
 * sidebar width after a name.
 */
export const REASON_PHRASE: Record<ReasonCode, string> = {
  active: 'active',
  guidance: 'active · guidance',
  loaded_unreviewed: 'loaded · not reviewed',
  component_active: 'active',
  manifest_invalid: 'invalid manifest',
  skill_invalid: 'invalid skill',
  component_invalid: 'invalid entry',
  load_aborted: 'blocked by another file',
  name_conflict: 'shadowed by another bundle',
  skill_limit_exceeded: 'past the 16-skill cap',
  plugin_limit_exceeded: 'past the 16-plugin cap',
  unsupported_components: 'shown only (unsupported)',
  component_inactive: 'never activated',
  not_reviewed: 'needs review',
  content_changed: 'changed since review',
  capabilities_changed: 'capabilities changed',
  not_enabled: 'not enabled',
  not_applicable: 'not on this host',
  hooks_not_opted_in: 'hooks off (opt-in not set)',
  bundle_inactive: 'bundle not active',
  trust_store_unavailable: 'trust store unreadable',
  workspace_untrusted: 'off in Restricted Mode',
  staged_skill_invalid: 'a skill fails to parse',
  registered: 'registered',
  schema_invalid: 'invalid manifest',
  manifest_too_large: 'manifest too large',
  path_not_allowed: 'path not allowed',
  script_missing: 'script missing',
  capability_missing_schema: 'schema missing',
  policy_denied: 'denied by policy',
  disabled_by_manifest: 'disabled in manifest',
  manifest_required: 'shown only (needs a manifest)',
  trust_level_unknown: 'shown only (unknown origin)',
  runtime_worker_display_only: 'shown only (runtime worker)',
  runtime_gate_mismatch: 'runtime gate closed',
  capability_unknown: 'shown only (unknown capability)',
  scan_limit_exceeded: 'past the scan limit',
  duplicate_id_shadowed: 'shadowed (same id)',
};

/** The decision in a word or two, for the screen-reader label (the icon colour says it to the eye). */
export const DECISION_WORD: Record<Decision, string> = {
  registered: 'loaded',
  rejected: 'rejected',
  display_only: 'shown only',
  disabled: 'disabled',
  shadowed: 'shadowed',
};

export const KIND_WORD: Record<ItemKind, string> = {
  plugin: 'plugin',
  skill: 'skill',
  hooks: 'hooks file',
  hook: 'hook',
  'mcp-server': 'MCP server',
  component: 'component',
  'skill-adapter': 'skill adapter',
  'lua-skill': 'Lua skill',
  'skill-binding': 'skill binding',
};
