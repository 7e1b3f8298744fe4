/**
 * The shared vocabulary of the core: items, decisions, reasons and diagnostics.
 * Every face (CLI, tree, Problems panel, review panel) renders these types; none
 * recomputes them. Strings here are a public contract (spec/decisions.md, spec/cli.md).
 */

import type { Capabilities, Compatibility, Hook } from './capabilities';
import type { System } from './systems/systemId';

export type { System } from './systems/systemId';
export type Scope = 'workspace' | 'user';
/** `skill-adapter`, `lua-skill` and `skill-binding` are Eva-CLI's (eva.md §3.2). */
export type ItemKind =
  'plugin' | 'skill' | 'hooks' | 'hook' | 'mcp-server' | 'component' | 'skill-adapter' | 'lua-skill' | 'skill-binding';

export type Decision = 'registered' | 'rejected' | 'display_only' | 'disabled' | 'shadowed';

export type ReasonCode =
  | 'active'
  | 'guidance'
  | 'loaded_unreviewed'
  | 'component_active'
  | 'manifest_invalid'
  | 'skill_invalid'
  | 'component_invalid'
  | 'load_aborted'
  | 'name_conflict'
  | 'skill_limit_exceeded'
  | 'plugin_limit_exceeded'
  | 'unsupported_components'
  | 'component_inactive'
  | 'not_reviewed'
  | 'content_changed'
  | 'capabilities_changed'
  | 'not_enabled'
  | 'not_applicable'
  | 'hooks_not_opted_in'
  | 'bundle_inactive'
  | 'trust_store_unavailable'
  | 'workspace_untrusted'
  | 'staged_skill_invalid'
  // Eva-CLI's registration reasons (eva.md §4.1).
  | 'registered'
  | 'schema_invalid'
  | 'manifest_too_large'
  | 'path_not_allowed'
  | 'script_missing'
  | 'capability_missing_schema'
  | 'policy_denied'
  | 'disabled_by_manifest'
  | 'manifest_required'
  | 'trust_level_unknown'
  | 'runtime_worker_display_only'
  | 'runtime_gate_mismatch'
  | 'capability_unknown'
  | 'scan_limit_exceeded'
  | 'duplicate_id_shadowed';

export type TrustStatus = 'not-reviewed' | 'trusted' | 'content-changed' | 'capabilities-changed';
export type { Compatibility } from './capabilities';
export type Severity = 'error' | 'warning' | 'information';

/** 0-based line and UTF-16 character, as in the editor. */
export interface Position {
  readonly line: number;
  readonly character: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

export const FILE_START: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

export interface RelatedLocation {
  readonly file: string;
  readonly range: Range;
  readonly message: string;
}

/** A text edit that resolves a diagnostic unambiguously (offered as a quick fix). */
export interface Fix {
  readonly title: string;
  readonly edits: readonly FixEdit[];
}

/** One replacement of a quick fix, in the text of `file` it was computed on. */
export interface FixEdit {
  readonly file: string;
  readonly range: Range;
  readonly newText: string;
  /**
   * `editorTextBasis` (text/editorTextBasis.ts) of the text `range` indexes: the editor
   * offers the fix only while its text of `file` has the same basis (fixIsCurrent.ts), or a
   * stale range would replace other text.
   */
  readonly basis: string;
}

export interface Diagnostic {
  /** Absolute path of the file the diagnostic is about. */
  readonly file: string;
  readonly range: Range;
  readonly severity: Severity;
  /** Stable code, e.g. `codewhale.mcp.url-query`; see diagnosticCodes.ts. */
  readonly code: string;
  readonly message: string;
  /** The item the diagnostic belongs to, once items are known. */
  itemId: string | null;
  /** Cross-file causes (the file that aborts a Rivumi load, the bundle that shadows). */
  readonly related?: readonly RelatedLocation[];
  readonly fix?: Fix;
  /**
   * Absolute path of the place the diagnostic is about when `file` is only where a listing
   * stopped (the directory whose file cap was hit, the bundle whose walk ran out of files),
   * spelled as `file` is: a new file sorting first moves `file`, not this. What a SARIF
   * fingerprint names (report/sarifFingerprint.ts `fingerprintPlace`); absent, `file` is the place.
   */
  readonly place?: string;
}

/** A file that belongs to a trust unit, as hashed. */
export interface BundleFile {
  /** Bundle-relative (Codewhale) or workspace-relative (Rivumi) path with `/` separators. */
  readonly path: string;
  readonly size: number;
  readonly sha256: string;
  readonly executable: boolean;
  /** Raw relative path bytes, present only when the name is not valid UTF-8 (then `path` is its display form). */
  readonly rawPath?: Buffer;
}

/**
 * A file a trust unit covers that Skillgate did not hash, with why (a symbolic link it does not
 * follow, past the review limit, unreadable, outside the project and the home): the review of a
 * unit it cannot hash lists it beside the files it read (eva.md §6.1).
 */
export interface UnhashedFile {
  readonly path: string;
  readonly unhashed: string;
}

/** A file the review lists: as hashed, or not hashed and why. */
export type ListedFile = BundleFile | UnhashedFile;

export interface Item {
  readonly id: string;
  readonly system: System;
  readonly kind: ItemKind;
  readonly name: string;
  readonly qualifiedName: string;
  readonly scope: Scope;
  /** Absolute workspace folder, null for user items. */
  readonly workspace: string | null;
  /** Absolute path of the file or directory the item comes from. */
  readonly path: string;
  /** Absolute path of the file to open for the item (manifest, skill file), and where. */
  readonly location: { readonly file: string; readonly range: Range };
  readonly parent: string | null;
  decision: Decision;
  reasons: readonly ReasonCode[];
  shadowedBy: string | null;
  /** Only for trust units (bundles); null otherwise. */
  trust: TrustStatus | null;
  /** The enable bit, for bundles of a system that has one (Codewhale); null otherwise (decisions/enableSwitch.ts). */
  enabled: boolean | null;
  readonly compatibility: Compatibility | null;
  readonly contentHash: string | null;
  readonly capabilityHash: string | null;
  readonly reviewToken: string | null;
  /** What the item declares, for show/explain/review. */
  readonly detail: ItemDetail;
}

/** What an item declares, typed, for show/explain/review and the tree. */
export interface ItemDetail {
  readonly description?: string;
  readonly version?: string;
  readonly manifest?: string;
  /** The agent's own counts of what a bundle holds, with their one-line summary (`show`). */
  readonly inventory?: Readonly<Record<string, unknown>> & { readonly summary?: string };
  /** What a trust unit can do (capabilities.ts): what its review shows and its receipt stores. */
  readonly capabilities?: Capabilities;
  readonly files?: readonly BundleFile[];
  /** Key binding trust to this bundle at this place (trust.md "Bundle identity"). */
  readonly bundleKey?: string;
  /** What the bundle runs that its trust cannot cover; while any is listed, trust is refused (trust.md "Hook argv files, exactly"). */
  readonly notCovered?: readonly string[];
  /** How the agent's activation policy treats a bundle it validates (Codewhale). */
  readonly activation?: Activation;
  /** The agent's identity for a bundle beside Skillgate's (Codewhale's plugin id and canonical root). */
  readonly agentIdentity?: { readonly pluginId: string | null; readonly canonicalRoot: string | null };
  /** How the agent found a unit, in its own terms (Rivumi's plugin discovery record). */
  readonly discovery?: Readonly<Record<string, unknown>>;
  /** Whether the hooks opt-in was set when the unit was read (Rivumi's hooks file: it runs them only then). */
  readonly hooksOptIn?: boolean;
  /** The agent's loads as they touch this unit, in words, by load (Rivumi: `skills`, `hooks`). */
  readonly loads?: Readonly<Record<string, string>>;
  /** A hook item: what it runs. */
  readonly hook?: Hook;
  /**
   * The ids of every item of the agent's load that carries this item's name, this one among
   * them, in load order, when there is more than one: the agent loads them all and a selection
   * by name picks one (Rivumi's skills and plugins, decisions.md "Precedence and shadowing").
   * What `explain` states as conflicts (`AgentSystem.conflicts`), not part of the JSON contract.
   */
  readonly sameName?: readonly string[];
}

export interface Activation {
  readonly policy: number;
  /** Whether the bundle's host conditions hold here, and why not. */
  readonly applicable: boolean;
  readonly whenReasons: readonly string[];
  /** Component kinds the agent activates, and the ones it lists but never activates. */
  readonly supportedComponents: readonly string[];
  readonly inactiveComponents: readonly string[];
}
