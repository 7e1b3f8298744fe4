import type { Severity } from '../model';

/**
 * Every diagnostic code Skillgate reports, with its severity and a one-line summary
 * (the docs and the editor's code links are generated from this table). Codes are a
 * stable contract: add, never rename.
 */
export const DIAGNOSTIC_CODES = {
  // Codewhale discovery (codewhale.md §2); upstream registry codes keep their names.
  'codewhale.root-symlink': ['error', 'A plugin discovery root is a symbolic link.'],
  'codewhale.root-not-directory': ['error', 'A plugin discovery root is not a directory.'],
  'codewhale.root-canonicalize-failed': ['error', 'A plugin discovery root cannot be canonicalized.'],
  'codewhale.root-read-failed': ['error', 'A plugin discovery root cannot be listed.'],
  'codewhale.root-unreadable': [
    'error',
    'A plugin discovery root this user may not reach: Codewhale skips it silently, a user who may read it loads its bundles.',
  ],
  'codewhale.bundle-symlink': ['error', 'A bundle directory is a symbolic link.'],
  'codewhale.bundle-unreadable': [
    'error',
    'A bundle directory this user may not search: Codewhale finds no manifest and skips it silently, a user who may read it loads the bundle.',
  ],
  'codewhale.duplicate-root': ['warning', 'The same bundle directory was discovered twice.'],
  'codewhale.name-conflict': ['warning', 'A same-named bundle with higher precedence shadows this one.'],
  'codewhale.manifest-legacy': ['warning', 'A legacy plugin.toml without schema_version or version.'],
  'codewhale.component-inactive': ['warning', 'Declared components that policy v3 inventories but never activates.'],
  'codewhale.claude-unsupported': [
    'error',
    "A Claude-format bundle holds a component Codewhale's importer does not support (hooks/hooks.json, .lsp.json).",
  ],
  // Manifest file and parse (§4.1, §4.2).
  'codewhale.manifest.file': [
    'error',
    'The manifest is a symbolic link, not a regular file, too large or not UTF-8, or it cannot be opened or read.',
  ],
  'codewhale.manifest.parse': ['error', 'The manifest does not parse, or has an unknown field or a wrong type.'],
  'codewhale.manifest.root': ['error', 'The bundle root is not a plain directory inside its discovery root.'],
  // Metadata (§4.4).
  'codewhale.manifest.schema-version': ['error', 'schema_version is newer than 1.'],
  'codewhale.manifest.name': ['error', 'The plugin name breaks the name rule of its manifest format.'],
  'codewhale.manifest.version': ['error', 'The version is not semantic versioning.'],
  'codewhale.manifest.text': [
    'error',
    'A text field is blank, too long, or holds control or bidirectional characters.',
  ],
  'codewhale.manifest.icon': ['error', 'The icon is not a small inline PNG.'],
  'codewhale.manifest.list': ['error', 'A list has too many or duplicate values.'],
  'codewhale.capabilities.network-host': ['error', 'A declared network host is not a plain host name.'],
  'codewhale.capabilities.network-hosts-mismatch': [
    'error',
    'capabilities.network_hosts differs from the hosts of the remote MCP endpoints.',
  ],
  'codewhale.when.os': ['error', 'An unsupported OS selector in [when].'],
  'codewhale.when.binary': ['error', 'A [when] binary is not a bare executable name.'],
  // Component paths (§4.5, §4.6).
  'codewhale.component.path': [
    'error',
    'A component path is empty, repeated, absolute, escapes the bundle, crosses a symlink or is missing.',
  ],
  // mcp.json (§3.3).
  'codewhale.mcp-json.file': [
    'error',
    'mcp.json (a Claude bundle’s .mcp.json) is a symbolic link, not a regular file, too large or not UTF-8, or it cannot be opened or read.',
  ],
  'codewhale.mcp-json.parse': ['error', 'mcp.json does not parse or breaks its schema.'],
  'codewhale.mcp-json.transport': ['error', 'An mcp.json server has an unknown or inconsistent transport.'],
  'codewhale.mcp-json.reserved-env': ['error', 'An mcp.json server defines PLUGIN_ROOT or PLUGIN_DATA.'],
  // MCP servers (§4.7).
  'codewhale.mcp.server-name': ['error', 'An MCP server id breaks the id rule.'],
  'codewhale.mcp.too-many': ['error', 'Too many MCP servers, arguments, mappings, scopes or tool filters.'],
  'codewhale.mcp.timeout': ['error', 'An MCP timeout outside 1-3600 seconds.'],
  'codewhale.mcp.required-disabled': ['error', 'An MCP server is required while disabled.'],
  'codewhale.mcp.argument': ['error', 'An MCP argument is blank or holds control characters.'],
  'codewhale.mcp.tool-filter': ['error', 'An MCP tool filter is invalid or in both lists.'],
  'codewhale.mcp.command-or-url': ['error', 'An MCP server must declare exactly one of command or url.'],
  'codewhale.mcp.stdio-remote-fields': [
    'error',
    'A stdio MCP server declares remote transport or authentication fields.',
  ],
  'codewhale.mcp.command': ['error', 'An MCP command is neither a bare executable nor a contained regular file.'],
  'codewhale.mcp.cwd': ['error', 'An MCP cwd is not a contained directory.'],
  'codewhale.mcp.credential-argument': ['error', 'An MCP argument embeds a credential.'],
  'codewhale.mcp.literal-credential': ['error', 'An MCP argument looks like a literal credential.'],
  'codewhale.mcp.absolute-argument': ['error', 'An MCP argument is an absolute path.'],
  'codewhale.mcp.argument-escapes': ['error', 'An MCP argument path escapes the bundle.'],
  'codewhale.mcp.env-value': ['error', 'An MCP environment value is not an exact ${SOURCE_ENV} reference.'],
  'codewhale.mcp.env-name': ['error', 'An environment variable name is not an ASCII identifier.'],
  'codewhale.mcp.oauth-disabled': ['error', 'A remote MCP server declares OAuth fields.'],
  'codewhale.mcp.url-invalid': ['error', 'A remote MCP URL does not parse or has no host.'],
  'codewhale.mcp.url-https': ['error', 'A remote MCP URL uses http for a host that is not loopback.'],
  'codewhale.mcp.url-credentials': ['error', 'A remote MCP URL embeds credentials.'],
  'codewhale.mcp.url-query': ['error', 'A remote MCP URL has a query or fragment.'],
  'codewhale.mcp.remote-stdio-fields': ['error', 'A remote MCP server declares cwd, args or env.'],
  'codewhale.mcp.literal-headers': ['error', 'A remote MCP server declares literal headers.'],
  'codewhale.mcp.transport': ['error', 'An explicit MCP transport other than sse.'],
  'codewhale.mcp.header-name': ['error', 'An MCP HTTP header name is invalid.'],
  // Content (§4.8, §7.2).
  'codewhale.content.symlink': ['error', 'The bundle contains a symbolic link.'],
  'codewhale.content.special-file': ['error', 'The bundle contains something that is neither a file nor a directory.'],
  'codewhale.content.limit': [
    'error',
    "The bundle exceeds 4096 files or 64 MiB, or Skillgate's walk limit of 65,536 directory entries.",
  ],
  'codewhale.content.changed': ['error', 'A file changed while it was being hashed.'],
  'codewhale.content.unreadable': ['error', 'A bundle file or folder cannot be inspected, listed or read.'],
  // Skills (§5).
  'codewhale.skill.fatal': ['error', 'A SKILL.md cannot be read safely; the bundle fails to load.'],
  'codewhale.skill.duplicate-name': ['error', 'Two skills of one bundle share a name.'],
  'codewhale.skill-invalid': ['warning', 'A SKILL.md does not parse, or its name is normalized.'],

  // Rivumi skills (rivumi.md §3).
  'rivumi.skills.path': ['error', '.rivumi/skills is a symbolic link or not a directory.'],
  'rivumi.path-unreadable': [
    'error',
    "A .rivumi path this user may not read (.rivumi/skills, .rivumi/plugins, hooks.json, a skill, a plugin manifest, a folder on a plugin skill's path): Rivumi fails or skips it with Python's PermissionError, a user who may read it loads what it holds.",
  ],
  'rivumi.skill.file': ['error', 'A skill is a symbolic link or not a regular file, or reading it fails (OSError).'],
  'rivumi.skill.too-large': ['error', 'A skill exceeds 32768 bytes.'],
  'rivumi.skill.utf8': ['error', 'A skill is not valid UTF-8.'],
  'rivumi.skill.frontmatter': ['error', 'Unsupported front matter (only name and description).'],
  'rivumi.skill.frontmatter-nul': ['error', 'Front matter contains NUL.'],
  'rivumi.skill.name': ['error', "The skill name breaks Rivumi's name rule."],
  'rivumi.skill.body': ['error', 'The skill body is blank or contains NUL.'],
  'rivumi.skill.description-length': ['error', 'The description exceeds 400 characters.'],
  'rivumi.skill.qualified-name-length': ['error', "A plugin skill's combined name exceeds 64 characters."],
  'rivumi.skill.source-utf8': [
    'error',
    "A skill's file name is not UTF-8: Rivumi's skill record refuses its source, and the skill load fails.",
  ],
  'rivumi.skill.duplicate-name': [
    'warning',
    'Two loaded skills share a name; a selection by name picks the later one.',
  ],
  'rivumi.skill.not-loaded': ['information', "Past Rivumi's 16-skill cap: never opened."],
  'rivumi.skills.context-truncated': [
    'warning',
    'The rendered skill section exceeds 16000 bytes and is cut in the middle.',
  ],
  'rivumi.load-aborted': ['warning', 'Another file makes Rivumi abort this load.'],
  // Rivumi plugins (§5).
  'rivumi.plugins.path': ['error', '.rivumi/plugins is a symbolic link or not a directory.'],
  'rivumi.plugin.file': [
    'error',
    'A plugin manifest is a symbolic link, not a regular file, or too large, or reading it fails (OSError).',
  ],
  'rivumi.plugin.json': ['error', 'A plugin manifest is not UTF-8 JSON or not an object.'],
  'rivumi.plugin.invalid': ['error', 'A plugin manifest breaks its schema.'],
  'rivumi.plugin.skill-path': [
    'error',
    'A plugin skill path escapes the repository or is missing, or inspecting it fails (OSError).',
  ],
  'rivumi.plugin.duplicate-name': ['warning', 'Two plugins share a name.'],
  'rivumi.plugin.not-loaded': ['information', "Past Rivumi's 16-plugin cap: never read."],
  // Rivumi hooks (§4).
  'rivumi.hooks.file': [
    'error',
    'hooks.json is a symbolic link, not a regular file, or too large, or reading it fails (OSError).',
  ],
  'rivumi.hooks.json': ['error', 'hooks.json is not JSON or not an object.'],
  'rivumi.hooks.invalid': [
    'error',
    "The hook configuration breaks its schema. In a plugin, only the opted-in hook load fails (the plugin's skills still load); a warning while RIVUMI_ENABLE_PROJECT_HOOKS is off.",
  ],
  'rivumi.hooks.too-many': ['error', 'More than 16 hooks for one event after plugin hooks are merged.'],
  'rivumi.hooks.label-too-long': [
    'warning',
    "A hook's label (its argv joined by single spaces) is longer than 512 characters: Rivumi runs the hook, then fails closed (deny) on every event it matches.",
  ],
  'rivumi.hooks.opted-in-untrusted': [
    'warning',
    'RIVUMI_ENABLE_PROJECT_HOOKS=1 is set, so Rivumi runs hooks that are not trusted.',
  ],
  'rivumi.root-symlink': ['warning', '.rivumi is a symbolic link; Rivumi follows it.'],
  // Skillgate's trust rules for Rivumi (trust.md "Hook argv files, exactly").
  'rivumi.hook.argv-uncovered': [
    'error',
    'A hook argument names a file that trust cannot cover (a symbolic link on the way, a path outside the workspace, not a regular file, a file past the 64 MiB review limit, a file this user may not read); trust is refused.',
  ],
  'rivumi.plugin.skill-uncovered': [
    'error',
    'A plugin skill file is reached through a symbolic link to a directory, which Rivumi follows and trust cannot pin; trust is refused.',
  ],
  'rivumi.hook.argv-encoding': [
    'error',
    'A hook argument holds a lone surrogate Rivumi cannot encode as bytes; trust is refused.',
  ],
  'rivumi.path-encoding': [
    'error',
    "A plugin skill path holds a lone surrogate Rivumi cannot encode as bytes; Rivumi's load fails.",
  ],

  // Eva-CLI (eva.md §5). Where a code's severity depends on the item (schema-missing on user items), this is the project severity.
  'eva.project.config-invalid': [
    'error',
    'config/eva.yaml cannot be read, parsed or lacks a configuration root; the sample roots are used.',
  ],
  'eva.project.root-missing': ['error', 'A configuration root named in config/eva.yaml does not exist.'],
  'eva.project.root-outside': [
    'error',
    'A configuration root resolves outside the workspace; Skillgate does not scan it.',
  ],
  'eva.project.schema-missing': [
    'warning',
    "The project's JSON schemas cannot be read; Skillgate's embedded copies are used.",
  ],
  'eva.project.load-aborted': [
    'warning',
    'The first file at which the shipped Eva-CLI would stop loading the whole project.',
  ],
  'eva.scan.symlink-ignored': ['information', 'A symbolic link in a configuration directory, which Eva-CLI skips.'],
  'eva.scan.limit': ['warning', "More YAML files in one directory than Eva's discovery limit."],
  'eva.scan.unreadable': [
    'error',
    'A configuration directory this user may not list: Eva-CLI stops loading the project, a user who may read it loads its manifests.',
  ],
  'eva.manifest.too-large': ['error', 'A manifest larger than max_manifest_bytes.'],
  'eva.manifest.read': ['error', 'A manifest that cannot be read or is not UTF-8.'],
  'eva.yaml.parse': [
    'error',
    'A manifest that is not one well-formed YAML document (duplicate key, second document, alias limit).',
  ],
  'eva.schema.required': ['error', 'A field the upstream schema requires is missing.'],
  'eva.schema.type': ['error', 'A field has the wrong type for the upstream schema.'],
  'eva.schema.enum': ['error', 'A value outside the upstream schema enum.'],
  'eva.schema.pattern': ['error', 'A string that does not match the upstream schema pattern.'],
  'eva.schema.additional': ['error', 'A property a closed upstream schema object does not allow.'],
  'eva.id.invalid': ['error', "An adapter or capability id that breaks Eva's identifier rules."],
  'eva.field.empty': ['error', 'name or version is empty or padded with whitespace.'],
  'eva.capability.name-invalid': ['error', "A capability name that breaks Eva's capability-name rules."],
  'eva.provider.invalid': [
    'error',
    "An adapter's permissions.env, supervision or credentials.vault that Eva's loader refuses.",
  ],
  'eva.adapter.transport-unsupported': ['error', 'An adapter transport the loader does not support.'],
  'eva.capability.kind-unsupported': ['error', 'A capability kind the loader does not support.'],
  'eva.capability.provider-missing': ['error', 'A capability names a provider adapter that does not exist.'],
  'eva.compat.lua-skill': ['warning', 'A lua_skill manifest, which the shipped Eva-CLI does not know.'],
  'eva.compat.gate-mapping': [
    'information',
    'A runtime gate mapping on an adapter; the shipped Eva-CLI invokes only a string gate equal to normal.',
  ],
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
  'eva.skill.path-missing': [
    'warning',
    'skill.path does not exist on this machine, so its instructions cannot be reviewed.',
  ],
  'eva.lua.script-missing': ['error', 'The Lua script of a lua_skill does not exist.'],
  'eva.manifest.disabled': ['information', 'A manifest with enabled: false.'],
  'eva.user.manifest-required': ['information', 'A user-local skill without a project skill manifest (display-only).'],
  'eva.user.policy': ['information', 'User-local skills are display-only by the current policy.'],
  'eva.user.frontmatter': ['warning', 'The front matter of a user-local SKILL.md cannot be read.'],
  'eva.user.symlink': ['warning', 'A user-local SKILL.md that is a symbolic link (listed, not reviewable).'],
  'eva.user.unreadable': [
    'warning',
    'A user skill folder this user may not read: its skills are missing from the list, though a user who may read it sees them (display-only).',
  ],
  'eva.user.scan-limit': [
    'information',
    "A user skill folder past Eva's 500 per skill directory (max_files_per_dir): its SKILL.md is never opened (display-only).",
  ],
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
  'eva.conflict.same-skill-multiple-directory': [
    'information',
    'The same skill directory under ~/.codex/skills and ~/.agents/skills.',
  ],
  'eva.conflict.multiple-providers': [
    'information',
    "Several adapters provide one capability; Eva-CLI's routing choice.",
  ],
  'eva.capability.skill-provider-not-skill': [
    'warning',
    'A kind: skill capability whose provider is not a skill adapter.',
  ],
  'eva.capability.skill-provider-none': [
    'warning',
    'A kind: skill capability that names no provider adapter, so no skill is bound to it.',
  ],
  'eva.trust.symlink': ['error', 'A file covered by an Eva skill is a symbolic link, so it cannot be reviewed.'],
  'eva.trust.limit': [
    'error',
    'The files covered by an Eva skill exceed 4096 files or 64 MiB, so it cannot be reviewed.',
  ],
  'eva.trust.unreadable': [
    'error',
    'A file or folder covered by an Eva skill cannot be inspected, listed or read, so it cannot be reviewed.',
  ],
  'eva.trust.outside': [
    'error',
    'A file covered by an Eva skill lies outside the project and the home directory, so it cannot be reviewed.',
  ],

  // Skillgate's own checks.
  'skillgate.hidden-unicode': [
    'warning',
    'Invisible or bidirectional Unicode that can hide instructions from a reviewer.',
  ],
  'skillgate.read-failed': ['error', 'A file or directory could not be read.'],
  'skillgate.internal': [
    'error',
    'Skillgate failed while reading this bundle or folder (an internal error); it is treated as invalid.',
  ],
  // `skillgate check --lock` (cli.md): findings against the repository's skillgate.lock, not about a file's content.
  'skillgate.lock.new': [
    'error',
    'A bundle in the repository is not pinned in skillgate.lock: review it, then run `skillgate lock`.',
  ],
  'skillgate.lock.changed': [
    'error',
    "A bundle's review token differs from the one pinned in skillgate.lock (content changed, capabilities changed, or both).",
  ],
  'skillgate.lock.gone': ['error', 'skillgate.lock pins a bundle that is no longer in the repository.'],
  'skillgate.lock.unpinnable': [
    'error',
    'A bundle has no review token that covers what it runs, so no lock can pin it.',
  ],
  'skillgate.lock.unread': [
    'error',
    "Files the agent reads that Skillgate's own limits left unread (limits the agent does not have), so no lock can vouch for them.",
  ],
  // A file's diagnostics past the per-file cap of one bundle or load (fileCap.ts), counted in one; its severity is theirs.
  'skillgate.diagnostics.truncated': [
    'warning',
    'More problems in one file than Skillgate lists for it: it lists the first 100 and counts the rest in this one, as severe as the worst of them.',
  ],
  // Only in SARIF (sarifLimits.ts): the one result that stands for those a run left out to stay within code scanning's limits.
  'skillgate.sarif.truncated': [
    'warning',
    'More findings than GitHub code scanning takes in one upload: the SARIF keeps the most severe and counts the rest.',
  ],
} as const satisfies Record<string, readonly [Severity, string]>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

export function severityOf(code: DiagnosticCode): Severity {
  return DIAGNOSTIC_CODES[code][0];
}
