import type { Decision, ReasonCode } from '../model';

/** One plain sentence per reason, for the tree tooltip, `explain` and the review panel. */
export const REASON_TEXT: Record<ReasonCode, string> = {
  active:
    'Valid, trusted at its current hashes and, where its agent has an enable switch (Codewhale), enabled: the agent loads it.',
  guidance: 'A valid Rivumi skill: Rivumi loads it as repository-local guidance.',
  // Each agent without an enable switch says how it loads an unreviewed unit (AgentSystem.reasonText).
  loaded_unreviewed:
    'Its agent loads it whatever Skillgate says, and it is not trusted at its current hashes: review it, then trust it.',
  component_active: 'Part of an active bundle: the agent loads it.',
  manifest_invalid: 'The manifest fails validation, so the agent does not load the bundle.',
  skill_invalid: 'The skill file fails validation.',
  component_invalid: 'This entry fails validation.',
  load_aborted: 'Valid, but another file makes Rivumi abort the whole load.',
  name_conflict: 'A same-named bundle with higher precedence wins.',
  skill_limit_exceeded: "Past Rivumi's 16-skill cap: Rivumi never opens it.",
  plugin_limit_exceeded: "Past Rivumi's 16-plugin cap: Rivumi never reads it.",
  unsupported_components: 'Nothing it declares can be activated under activation policy v3.',
  component_inactive: 'Activation policy v3 inventories this kind but never activates it.',
  not_reviewed: 'Not reviewed yet: review it, then trust it.',
  content_changed: 'Its files changed since you trusted it: review the changes.',
  capabilities_changed: 'What it can do changed since you trusted it: review the changes.',
  not_enabled: 'Not enabled: for Codewhale, trust and enable are separate steps.',
  not_applicable: 'Its [when] conditions do not match this host.',
  hooks_not_opted_in: 'RIVUMI_ENABLE_PROJECT_HOOKS is not exactly 1, so Rivumi runs no project hooks.',
  bundle_inactive: 'Its bundle is not active.',
  trust_store_unavailable: 'The trust store is unreadable or malformed: everything fails closed.',
  workspace_untrusted: 'VS Code Restricted Mode: nothing may be trusted or enabled.',
  staged_skill_invalid: "A SKILL.md in it does not parse, so Codewhale's trusted snapshot never becomes active.",
  registered: 'Eva-CLI registers it: no check of its design failed, and you trusted it at its current hashes.',
  schema_invalid:
    'The manifest cannot be read or parsed, or breaks a schema, loader or skill-contract rule, so Eva-CLI refuses it.',
  manifest_too_large: 'The manifest is larger than max_manifest_bytes, so Eva-CLI never parses it.',
  path_not_allowed: 'A path it names (skill.path, lua.script or a schema file) escapes its allowed roots.',
  script_missing: 'Its Lua script does not exist as a regular file.',
  capability_missing_schema:
    'Its input or output schema is missing: a project skill is refused, a user skill only shown.',
  policy_denied:
    'The adapter policy forbids a permission, capability, kind or runtime gate it asks for (or could not be read).',
  disabled_by_manifest: 'Its manifest turns it off, so the agent does not load it.',
  manifest_required: 'A user-local skill without a project skill manifest: Eva-CLI only shows it.',
  trust_level_unknown: 'Its origin cannot be classified (it resolves outside your home), so Eva-CLI only shows it.',
  runtime_worker_display_only: 'A runtime_worker outside a matching team runtime: Eva-CLI only shows it.',
  runtime_gate_mismatch:
    // The runtime is a setting (and CLI options): name where it is set, not one value that may not be the one assumed.
    'Its runtime gate does not admit the Eva runtime Skillgate assumes (normal, not a team worker, non-interactive, unless the skillgate.eva settings or the CLI options say otherwise).',
  capability_unknown: 'It declares no capability, or one outside workflow.*, so Eva-CLI only shows it.',
  scan_limit_exceeded: "Past Eva's limit of skill folders per directory: its SKILL.md is never opened.",
  duplicate_id_shadowed:
    'An earlier manifest (or a project manifest wrapping this user skill) has the same id and wins.',
};

export const DECISION_TEXT: Record<Decision, string> = {
  registered: 'registered: the agent loads it',
  rejected: 'rejected: invalid, or blocked by an invalid file',
  display_only: 'display only: shown, but the agent never loads it',
  disabled: 'disabled: a gate is closed',
  shadowed: 'shadowed: a same-named item with higher precedence wins',
};
