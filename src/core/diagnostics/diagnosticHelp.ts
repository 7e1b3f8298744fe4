import type { DiagnosticCode } from './diagnosticCodes';

/**
 * How to resolve each diagnostic, in a sentence or two (docs/diagnostics.md is generated
 * from this table and DIAGNOSTIC_CODES). `quickFix` names the editor's quick fix where the
 * fix is unambiguous; every other code needs a decision only the author can make.
 */
export interface DiagnosticHelp {
  readonly fix: string;
  readonly quickFix?: string;
}

const MOVE_OUT = 'Replace the link by the real directory or file, or move the content into the repository.';

export const DIAGNOSTIC_HELP: Record<DiagnosticCode, DiagnosticHelp> = {
  'codewhale.root-symlink': {
    fix: 'Codewhale refuses a discovery root that is a symbolic link. Replace `.codewhale/plugins` (or `~/.codewhale/plugins`) by a real directory.',
  },
  'codewhale.root-not-directory': { fix: 'Make `.codewhale/plugins` a directory, or remove the file of that name.' },
  'codewhale.root-canonicalize-failed': {
    fix: 'Check that the discovery root exists and that you may read every directory on its path.',
  },
  'codewhale.root-read-failed': { fix: 'Check the permissions of the discovery root so it can be listed.' },
  'codewhale.root-unreadable': {
    fix: 'Give the user who runs Skillgate read and search permission on `.codewhale` and `.codewhale/plugins` (or on your Codewhale home), so that what Codewhale would load there can be shown and gated; or remove the directory.',
  },
  'codewhale.bundle-symlink': { fix: `Codewhale skips a bundle directory that is a symbolic link. ${MOVE_OUT}` },
  'codewhale.bundle-unreadable': {
    fix: 'Give the user who runs Skillgate read and search permission on the bundle directory (and on `.claude-plugin` inside it), so that the bundle Codewhale would load there can be shown and gated; or remove the directory.',
  },
  'codewhale.duplicate-root': {
    fix: 'Nothing to fix in the bundle: the same bundle directory is reached twice (the workspace and your Codewhale home are the same directory, so it is loaded once, as a user bundle; or two folders of this window reach the same `.codewhale` through links), so it is listed once, where it was reached first.',
  },
  'codewhale.name-conflict': {
    fix: 'Codewhale loads the bundle that wins (built-in, then user, then workspace) and drops this one. Rename one of the two bundles (`name` in the manifest) to load both, or remove the one you do not need.',
  },
  'codewhale.manifest-legacy': {
    fix: 'Add `schema_version = 1` at the top of `plugin.toml` (or set it to 1 where it says 0) and a semantic `version` under `[plugin]`.',
    quickFix:
      'Add schema_version = 1 (Set schema_version = 1 where the key is there), when `[plugin].version` is not blank: schema 1 refuses a blank version',
  },
  'codewhale.component-inactive': {
    fix: 'Codewhale keeps these components in the inventory but never activates them under policy v3. Remove the component tables the bundle does not need; the warning is informational otherwise.',
  },
  'codewhale.claude-unsupported': {
    fix: 'Codewhale refuses the whole Claude-format bundle while it has `hooks/hooks.json` or `.lsp.json` (no partial plugin is installed): remove that file to load the rest.',
  },
  'codewhale.manifest.file': {
    fix: 'Make the manifest a regular UTF-8 file of at most 1 MiB, not a symbolic link, readable by the user Codewhale runs as.',
  },
  'codewhale.manifest.parse': {
    fix: 'Fix the syntax or the field the message names: every table is closed, so an unknown or misspelled key is an error, and each field has one type (see codewhale.md §3).',
  },
  'codewhale.manifest.root': {
    fix: 'Put the bundle directly inside the discovery root as a real directory (not through a symbolic link).',
  },
  'codewhale.manifest.schema-version': {
    fix: 'Set `schema_version = 1`; this Codewhale version knows no later schema.',
    quickFix: 'Set schema_version = 1',
  },
  'codewhale.manifest.name': {
    fix: 'Use 1-64 lowercase letters and digits joined by hyphens (`plugin.json` also allows single dots, the Kimi rule `_`); the message states the exact rule.',
    quickFix: 'Rename the plugin to its valid slug',
  },
  'codewhale.manifest.version': { fix: 'Use a semantic version such as `1.0.0` (no leading zeros, no empty parts).' },
  'codewhale.manifest.text': {
    fix: 'Write the text without control or bidirectional characters, not blank, within the length limit the message gives.',
  },
  'codewhale.manifest.icon': { fix: 'Use an inline PNG: `data:image/png;base64,…`, within the size limit.' },
  'codewhale.manifest.list': {
    fix: 'Remove the repeated value, or shorten the list to at most 64 values.',
    quickFix: 'Remove the repeated value (for a repeat; a list that is too long needs your choice)',
  },
  'codewhale.capabilities.network-host': {
    fix: 'List plain host names only: no scheme, port, path or wildcard (`api.example.com`, not `https://api.example.com:443/`).',
  },
  'codewhale.capabilities.network-hosts-mismatch': {
    fix: "Codewhale requires `network_hosts` to list exactly the hosts of the remote MCP servers' URLs. The related information names each missing and each extra host.",
    quickFix: 'Set network_hosts to the hosts of the MCP URLs (adding `[capabilities]` or the key when absent)',
  },
  'codewhale.when.os': {
    fix: 'Use one of `windows`, `linux`, `macos`, `freebsd`, `openbsd`, `netbsd`, `android`, `ios`.',
  },
  'codewhale.when.binary': { fix: 'Name the executable only (`git`), not a path to it.' },
  'codewhale.component.path': {
    fix: 'Give each component a relative path, once, to an existing file or directory inside the bundle, without `..` or symbolic links.',
    quickFix:
      'Remove a path declared twice in one list (a repeat of `path` in `paths`, and every other path problem, needs your choice)',
  },
  'codewhale.mcp-json.file': {
    fix: 'Make `mcp.json` a regular UTF-8 file of at most 1 MiB, not a symbolic link, readable by the user Codewhale runs as.',
  },
  'codewhale.mcp-json.parse': {
    fix: 'Fix the JSON or the field the message names: `mcpServers` is required and every object is closed.',
  },
  'codewhale.mcp-json.transport': {
    fix: 'Give each server exactly one of `command` (stdio) or `url` (HTTP), or set `type` to `stdio`, `streamable-http` or `sse` to match.',
  },
  'codewhale.mcp-json.reserved-env': {
    fix: 'Remove `PLUGIN_ROOT` and `PLUGIN_DATA` from `env`: Codewhale sets them itself.',
    quickFix: 'Remove PLUGIN_ROOT or PLUGIN_DATA from env',
  },
  'codewhale.mcp.server-name': {
    fix: 'Rename the server to 1-64 letters, digits, `-` and `_`, not starting or ending with `-` or `_`.',
  },
  'codewhale.mcp.too-many': {
    fix: 'Stay within the limit the message names (servers, arguments, mappings, scopes or tool filters).',
  },
  'codewhale.mcp.timeout': { fix: 'Set the timeout to a whole number of seconds from 1 to 3600.' },
  'codewhale.mcp.required-disabled': {
    fix: 'Either enable the server or stop requiring it; which one depends on what the bundle needs.',
  },
  'codewhale.mcp.argument': { fix: 'Remove blank arguments and control characters from `args`.' },
  'codewhale.mcp.tool-filter': {
    fix: 'Name each tool once, in either `enabled_tools` or `disabled_tools`, not both.',
    quickFix:
      'Remove a tool named twice, exactly, in one list (a tool in both lists, or repeated in another case, needs your choice: removing it from `disabled_tools` could enable it)',
  },
  'codewhale.mcp.command-or-url': {
    fix: 'Declare `command` for a local server or `url` for a remote one, not both and not neither.',
  },
  'codewhale.mcp.stdio-remote-fields': {
    fix: 'Remove the remote fields (`transport`, `headers`, `env_headers`, `bearer_token_env_var`, OAuth) from the local server, or make it a remote one.',
    quickFix:
      'Remove the remote fields from the local server (where each is a key of its own: not spread over dotted keys, inside an inline table, or in an extension written as an array)',
  },
  'codewhale.mcp.command': {
    fix: 'Use a bare executable name found on `PATH` (`node`), or a relative path to a regular file inside the bundle.',
  },
  'codewhale.mcp.cwd': { fix: 'Use a relative path to a directory inside the bundle.' },
  'codewhale.mcp.credential-argument': {
    fix: 'Pass the credential through `env` with a `${NAME}` reference instead of an argument.',
  },
  'codewhale.mcp.literal-credential': {
    fix: 'Move the secret out of the arguments: pass it through `env` with a `${NAME}` reference.',
  },
  'codewhale.mcp.absolute-argument': { fix: 'Use a path relative to the bundle.' },
  'codewhale.mcp.argument-escapes': { fix: 'Keep relative paths inside the bundle (no `..` that leaves it).' },
  'codewhale.mcp.env-value': {
    fix: "Write each environment value as `${NAME}`, the name of a variable in the user's environment, never a literal.",
    quickFix: 'Use ${NAME} instead of a literal value',
  },
  'codewhale.mcp.env-name': { fix: 'Use ASCII identifiers (`A-Z`, `a-z`, digits, `_`, not starting with a digit).' },
  'codewhale.mcp.oauth-disabled': {
    fix: 'Remove `scopes`, `oauth` and `oauth_resource`: Codewhale does not run OAuth for plugin servers.',
  },
  'codewhale.mcp.url-invalid': { fix: 'Write an absolute URL with a host, such as `https://api.example.com/mcp`.' },
  'codewhale.mcp.url-https': {
    fix: 'Use `https://` (plain `http://` is only for loopback hosts).',
    quickFix: 'Use https:// (when the URL names no port: TLS on a port chosen for plain HTTP would be a guess)',
  },
  'codewhale.mcp.url-credentials': {
    fix: 'Remove `user:password@` from the URL; use `env_headers` or `bearer_token_env_var`.',
    quickFix: 'Remove `user:password@` from the URL (host, port and path stay)',
  },
  'codewhale.mcp.url-query': {
    fix: 'Remove the query (`?…`) and fragment (`#…`) from the URL.',
    quickFix: 'Remove the query and fragment from the URL (host, port and path stay)',
  },
  'codewhale.mcp.remote-stdio-fields': {
    fix: 'Remove `cwd`, `args` and `env` from the remote server.',
    quickFix:
      'Remove the stdio fields from the remote server (where each is a key of its own: not spread over dotted keys or inside an inline table)',
  },
  'codewhale.mcp.literal-headers': {
    fix: 'Replace literal `headers` by `env_headers` (header → environment variable name), so no secret sits in the file.',
  },
  'codewhale.mcp.transport': { fix: 'Remove `transport`, or set it to `sse`.' },
  'codewhale.mcp.header-name': {
    fix: "Use an HTTP token of at most 128 characters: letters, digits, a backquote and `!#$%&'*+-.^_|~`.",
  },
  'codewhale.content.symlink': { fix: `Codewhale refuses a bundle that contains a symbolic link. ${MOVE_OUT}` },
  'codewhale.content.special-file': { fix: 'Remove the socket, pipe or device from the bundle.' },
  'codewhale.content.limit': {
    fix: "Keep the bundle within 4096 files and 64 MiB, and 65,536 directory entries in all (Skillgate's own walk limit).",
  },
  'codewhale.content.changed': {
    fix: 'A file changed while Skillgate read it; wait for the writer to finish and refresh.',
  },
  'codewhale.content.unreadable': {
    fix: 'Check the permissions of the file or folder named: the user Codewhale runs as must be able to list every folder of the bundle and read every file.',
  },
  'codewhale.skill.fatal': {
    fix: 'Make the SKILL.md a regular, readable UTF-8 file within the size limit; indent block scalar lines with plain spaces.',
  },
  'codewhale.skill.duplicate-name': { fix: 'Give each skill of the bundle its own `name`.' },
  'codewhale.skill-invalid': {
    fix: 'Fix the SKILL.md front matter the message names; a normalized name is loaded under the name shown.',
    quickFix:
      'Write the normalized name the warning names in place of a one-line front-matter `name` (not a heading name, and not a `plugin:skill` name, which stays unsafe)',
  },
  'rivumi.path-unreadable': {
    fix: 'Give the user who runs Skillgate read and search permission on `.rivumi` and the directory named, and read permission on the file named, so that what Rivumi would load there can be shown and gated; or remove it.',
  },
  'rivumi.skills.path': { fix: 'Make `.rivumi/skills` a real directory (Rivumi refuses a symbolic link there).' },
  'rivumi.skill.file': { fix: `Make the skill a regular file. ${MOVE_OUT}` },
  'rivumi.skill.too-large': { fix: 'Shorten the skill to at most 32768 bytes.' },
  'rivumi.skill.utf8': { fix: 'Save the skill as UTF-8.' },
  'rivumi.skill.frontmatter': { fix: 'Keep only `name` and `description` in the front matter.' },
  'rivumi.skill.frontmatter-nul': { fix: 'Remove the NUL character from the front matter.' },
  'rivumi.skill.name': {
    fix: 'Use 1-64 characters of letters, digits, `_`, `.` and `-`, starting with a letter or digit.',
    quickFix:
      'Write a quoted name without its quotes (Rivumi keeps them: `name: "review"` names the skill `"review"`), when the name inside passes the rule',
  },
  'rivumi.skill.body': { fix: 'Write a body after the front matter, without NUL characters.' },
  'rivumi.skill.description-length': { fix: 'Shorten the description to at most 400 characters.' },
  'rivumi.skill.qualified-name-length': {
    fix: 'Shorten the plugin or skill name so `plugin.skill` stays within 64 characters.',
  },
  'rivumi.skill.source-utf8': { fix: 'Rename the skill file to a UTF-8 name.' },
  'rivumi.skill.duplicate-name': {
    fix: 'Rename one of the skills; otherwise a selection by name picks the later one.',
  },
  'rivumi.skill.not-loaded': {
    fix: 'Rivumi opens at most 16 skills; remove or merge skills so the ones you need are among them.',
  },
  'rivumi.skills.context-truncated': {
    fix: 'Shorten skill names and descriptions so the rendered section fits in 16000 bytes.',
  },
  'rivumi.load-aborted': {
    fix: 'Fix the file the related information names: Rivumi aborts the whole load because of it.',
  },
  'rivumi.plugins.path': { fix: 'Make `.rivumi/plugins` a real directory.' },
  'rivumi.plugin.file': { fix: 'Make the plugin manifest a regular file within the size limit, not a symbolic link.' },
  'rivumi.plugin.json': { fix: 'Save the manifest as UTF-8 JSON with an object at the top.' },
  'rivumi.plugin.invalid': { fix: 'Fix the field the message names (rivumi.md §5).' },
  'rivumi.plugin.skill-path': { fix: 'Point each skill path at an existing file inside the repository.' },
  'rivumi.plugin.duplicate-name': { fix: 'Give each plugin its own `name`.' },
  'rivumi.plugin.not-loaded': { fix: 'Rivumi reads at most 16 plugins; remove the ones you do not need.' },
  'rivumi.hooks.file': { fix: 'Make `.rivumi/hooks.json` a regular file within the size limit, not a symbolic link.' },
  'rivumi.hooks.json': { fix: 'Save `hooks.json` as JSON with an object at the top.' },
  'rivumi.hooks.invalid': { fix: 'Fix the field the message names (rivumi.md §4).' },
  'rivumi.hooks.too-many': { fix: 'Keep at most 16 hooks per event, counting plugin hooks.' },
  'rivumi.hooks.label-too-long': {
    fix: "Keep the hook's argv, joined by single spaces, within 512 characters: move a long inline script into a script file and run that.",
  },
  'rivumi.hooks.opted-in-untrusted': {
    fix: 'Review and trust the hooks in Skillgate, or unset `RIVUMI_ENABLE_PROJECT_HOOKS`.',
  },
  'rivumi.root-symlink': { fix: 'Replace `.rivumi` by a real directory, so what Rivumi loads is in the repository.' },
  'rivumi.hook.argv-uncovered': {
    fix: 'Point the hook at a regular file of at most 64 MiB inside the workspace, reached without symbolic links and readable by the user who runs Skillgate, so trust can cover its bytes.',
  },
  'rivumi.plugin.skill-uncovered': {
    fix: 'Move the skill file into `.rivumi/plugins` itself, or replace the linked directory by a real one, so trust can cover its bytes.',
  },
  'rivumi.hook.argv-encoding': { fix: 'Remove the unpaired surrogate (`\\uD800`–`\\uDFFF`) from the hook argument.' },
  'rivumi.path-encoding': { fix: "Remove the unpaired surrogate from the plugin's skill path." },
  'eva.project.config-invalid': {
    fix: 'Fix `config/eva.yaml` (or the layer the message names) so it parses and names all six `config.*` roots; until then Skillgate scans the sample roots `config/adapters`, `config/capabilities`, `config/policies`, `config/schemas`.',
  },
  'eva.project.root-missing': {
    fix: 'Create the directory, or point the `config.*` key at the directory that holds the manifests.',
  },
  'eva.project.root-outside': {
    fix: 'Keep every configuration root inside the repository, so what Eva loads is what the repository holds; Skillgate never scans outside it.',
  },
  'eva.project.schema-missing': {
    fix: "Restore Eva's JSON schemas under `schema_dir` (`adapter.schema.json`, `capability.schema.json`, `eva.schema.json`, `policy.schema.json`); Skillgate validates with its embedded copies meanwhile.",
  },
  'eva.project.load-aborted': {
    fix: 'Fix the first error in this file: the shipped Eva-CLI refuses the whole project on it, so no skill registers. Skillgate still decides each item on its own.',
  },
  'eva.scan.symlink-ignored': {
    fix: 'Eva-CLI skips symbolic links in configuration directories. Replace the link by the real file if Eva should load it.',
  },
  'eva.scan.limit': {
    fix: 'Move manifests into subdirectories, or remove the ones you do not need: past the limit, files are neither read nor shown.',
  },
  'eva.scan.unreadable': {
    fix: 'Give the user who runs Skillgate read and search permission on the directory, so that the manifests Eva-CLI would load there can be shown and gated; or remove it.',
  },
  'eva.manifest.too-large': {
    fix: "Keep the manifest under 1 MiB (or the project's lower `discovery.limits.max_manifest_bytes`).",
  },
  'eva.manifest.read': {
    fix: 'Save the manifest as UTF-8 (a UTF-8 byte order mark is fine; UTF-16 and Latin-1 are not).',
  },
  'eva.yaml.parse': {
    fix: 'Fix the YAML at the line and column given: one document only, no duplicate keys, and no alias expansion past the limit.',
  },
  'eva.schema.required': {
    fix: "Add the field the message names; Eva's schema requires it (`<<` merge keys are not applied, so a key only supplied through them is missing).",
  },
  'eva.schema.type': {
    fix: 'Write the value with the type the message names: only `true`/`false` are booleans (`yes` is a string), `1.0` is a number (quote it for a string), and a tag such as `!!js/function` gives no type: Eva reads a scalar under it as its text (`!!js/function "…"` is a string, never run).',
    quickFix:
      'Write the boolean as true/false (when the value is a YAML 1.1 word such as yes or no, with no tag or anchor of its own)',
  },
  'eva.schema.enum': { fix: 'Use one of the values the message lists.' },
  'eva.schema.pattern': { fix: 'Use ASCII letters, digits, `_`, `.` and `-`, starting with a letter or digit.' },
  'eva.schema.additional': { fix: "Remove or correct the key: this object of Eva's schema is closed." },
  'eva.id.invalid': {
    fix: "Follow Eva's identifier rules: non-empty, no edge whitespace, at most 128 bytes, no path separators, only ASCII letters, digits, `.`, `_`, `-` and `:`.",
  },
  'eva.field.empty': { fix: 'Give `name` and `version` a value without leading or trailing whitespace.' },
  'eva.capability.name-invalid': {
    fix: 'Write the capability as dot-separated segments of ASCII letters, digits, `_` and `-` (`workflow.review`).',
  },
  'eva.provider.invalid': {
    fix: 'List in `permissions.env` only portable names (an ASCII letter or `_`, then letters, digits, `_`; at most 128 bytes), each once and none the supervisor reserves (`PATH`, `LD_*`, `DYLD_*`, `EVA_PROVIDER_SESSION_*`, …); give `restart` mode `none` zero `max_attempts` and `backoff_ms`, or an automatic mode both positive, within u32 attempts; declare `run_as` uid/gid (u32) only for `unix` and an account only for `windows`, and a non-current identity or automatic restart only on a process-backed adapter; map each `credentials.vault` entry to a `permissions.env` name and a `vault://path[#key]` reference.',
  },
  'eva.adapter.transport-unsupported': {
    fix: 'Use one of `builtin`, `stdio`, `http`, `eventbus`, `mcp`, `skill`, `hardware`, `lua_capability`, in lower case.',
  },
  'eva.capability.kind-unsupported': {
    fix: "Use one of `adapter_capability`, `lua_capability`, `mcp_tool`, `skill` (or `lua_skill`, which only Eva's design knows).",
  },
  'eva.capability.provider-missing': { fix: 'Name an existing adapter id, or add the adapter manifest.' },
  'eva.compat.lua-skill': {
    fix: "Nothing to fix for the design: today's Eva-CLI refuses the whole project on a `lua_skill` manifest, until it learns the kind.",
  },
  'eva.compat.gate-mapping': {
    fix: "If today's Eva-CLI must invoke this adapter, write the gate as the string `normal`.",
  },
  'eva.skill.block-missing': {
    fix: 'Add a `skill` mapping with `id`, `kind`, `runtime_gate`, `input_schema` and `output_schema`.',
  },
  'eva.skill.id-missing': { fix: "Add `skill.id`: the skill's id in its source namespace." },
  'eva.skill.kind-missing': { fix: 'Add `skill.kind: workflow_skill` (or `runtime_worker` for a team surface).' },
  'eva.skill.kind-invalid': {
    fix: 'Use `workflow_skill` or `runtime_worker`; `lua_skill` belongs in a capability manifest.',
  },
  'eva.skill.gate-missing': { fix: 'Add a runtime gate: `normal`, or a mapping with `allowed_modes`.' },
  'eva.skill.gate-invalid': {
    fix: 'Write the gate as a mode string, or a mapping with a non-empty `allowed_modes` list and boolean flags.',
  },
  'eva.skill.schema-missing': {
    fix: 'Add the missing schema (an object schema at least). A user-local skill cannot declare one: wrap it in a project skill adapter.',
    quickFix: 'Add an object-schema stub to the skill mapping (block style, when the key is not written there at all)',
  },
  'eva.skill.schema-type': {
    fix: 'Give the input schema `type: object`; Eva invokes skills only with an object input.',
    quickFix: 'Write type: object in place of the type written (not where the schema writes no type)',
  },
  'eva.skill.schema-file-missing': { fix: 'Create the schema file, or fix the path (relative to the project root).' },
  'eva.skill.schema-file-invalid': { fix: 'Make the schema file well-formed JSON with an object at the top.' },
  'eva.path.not-allowed': {
    fix: 'Keep `skill.path` inside the project, `~/.codex/skills` or `~/.agents/skills`, and scripts and schema files inside the project, reached without symbolic links that lead out.',
  },
  'eva.skill.path-missing': {
    fix: 'Install the skill at `skill.path` on this machine (or fix the path), so its instructions can be reviewed; trust records it as missing meanwhile.',
  },
  'eva.lua.script-missing': { fix: 'Create the Lua script, or fix `lua.script` (relative to the project root).' },
  'eva.manifest.disabled': {
    fix: 'Nothing to fix: Eva honours `enabled: false`. Set it to `true` to register the skill.',
  },
  'eva.user.manifest-required': {
    fix: 'Wrap the skill in a project adapter manifest (`transport: skill`, `skill.source` and `skill.id` naming it) to make it registrable.',
  },
  'eva.user.policy': {
    fix: 'Informational: `adapter_policy.skill.allow_user_local_skills` is false; even when it is true, a user skill needs a project manifest.',
  },
  'eva.user.frontmatter': {
    fix: 'Fix the front matter between the `---` lines so it parses as YAML with `name` and `description`.',
  },
  'eva.user.symlink': { fix: 'Replace the link by the real `SKILL.md` so it can be reviewed.' },
  'eva.user.unreadable': {
    fix: 'Give the user who runs Skillgate read and search permission on the folder (and on `~/.codex` or `~/.agents` above it), so that its skills can be listed; or remove it. Eva only displays user skills, so nothing there runs unseen.',
  },
  'eva.user.scan-limit': {
    fix: 'Eva reads at most 500 skill folders per directory, in byte order of their names; remove the ones you do not need so this one is among them.',
  },
  'eva.kind.runtime-worker': {
    fix: 'Informational: a `runtime_worker` registers only into its team runtime. To see it as registered, run Skillgate with that runtime (`--eva-runtime team` or the `skillgate.eva.runtimeMode` setting).',
  },
  'eva.policy.invalid': {
    fix: 'Fix the policy field the message names; while the policy cannot be read every Eva skill of the project is denied.',
  },
  'eva.policy.write-denied': {
    fix: "Drop the write permission, or add the skill's id to `adapter_policy.allow_write_workspace` if the project accepts it.",
  },
  'eva.policy.network-denied': {
    fix: 'Drop `network: true`, or allow network in `adapter_policy.defaults` if the project accepts it.',
  },
  'eva.policy.shell-denied': {
    fix: 'Drop `shell: true`, or allow shell in `adapter_policy.defaults` if the project accepts it.',
  },
  'eva.policy.capability-denied': { fix: 'Remove the capability: the policy denies it globally.' },
  'eva.policy.kind-denied': { fix: "Change the skill's kind, or remove it from `adapter_policy.skill.deny_kinds`." },
  'eva.policy.gate-denied': {
    fix: 'Add the mode to `adapter_policy.skill.allowed_runtime_gates`, or gate the skill to an allowed mode.',
  },
  'eva.policy.credentials': {
    fix: 'Give the skill a runner command, or drop `permissions.env` and `credentials`: a process-free skill cannot receive provider credentials.',
  },
  'eva.policy.fail-closed': {
    fix: "Fix the policy file's error (see `eva.policy.invalid`); then the skills are decided again.",
  },
  'eva.gate.mismatch': {
    fix: 'Informational: the gate does not admit the assumed runtime. Change the assumed runtime in your user settings (`skillgate.eva.*`) or with `--eva-runtime`, `--eva-team-worker`, `--eva-interactive`.',
  },
  'eva.gate.unknown-mode': { fix: 'Use one of `normal`, `team`, `swarm`, `ralph`.' },
  'eva.capability.unknown': {
    fix: 'Declare at least one `workflow.*` capability: skills expose only workflow capabilities.',
  },
  'eva.capability.allow-unknown-ignored': {
    fix: 'Remove `allow_unknown_capability`: no policy knob allows it, so it has no effect.',
    quickFix:
      'Remove allow_unknown_capability (where it is a top-level key on a line of its own, not in a flow mapping nor anchored)',
  },
  'eva.conflict.duplicate-adapter-id': {
    fix: 'Give each adapter manifest its own id; the first in path order wins and the shipped Eva-CLI refuses the project.',
  },
  'eva.conflict.duplicate-capability-id': {
    fix: 'Give each capability manifest its own id; the first in path order wins and the shipped Eva-CLI refuses the project.',
  },
  'eva.conflict.shadowed': {
    fix: 'Informational: the project manifest that wraps this user skill is what Eva registers.',
  },
  'eva.conflict.cross-namespace-id': {
    fix: 'Informational: a selector by name is ambiguous; rename one of them if that matters.',
  },
  'eva.conflict.same-skill-multiple-directory': {
    fix: 'Keep the skill in one of `~/.codex/skills` and `~/.agents/skills`.',
  },
  'eva.conflict.multiple-providers': {
    fix: 'Informational: Eva-CLI routes to the adapter named; remove or disable the others if that is not the one you want.',
  },
  'eva.capability.skill-provider-not-skill': { fix: 'Point `default_provider` at a `transport: skill` adapter.' },
  'eva.capability.skill-provider-none': {
    fix: 'Name the skill adapter that provides it in `default_provider`, or remove the manifest if nothing should.',
  },
  'eva.trust.symlink': { fix: 'Replace the link by the real file, so trust can cover its bytes.' },
  'eva.trust.limit': {
    fix: 'Keep the skill folder (and the other files the skill covers) under 4096 files and 64 MiB: move large data out of it. Eva-CLI registers the skill all the same, so `check` fails until it can be reviewed.',
  },
  'eva.trust.unreadable': {
    fix: 'Give the user who runs Skillgate read permission on the file (and search permission on the folders on its way), so trust can cover its bytes. Eva-CLI run by a user who may read it takes the skill all the same, so `check` fails until it can be reviewed.',
  },
  'eva.trust.outside': {
    fix: 'Name the skill by its path under `~/.codex/skills` or `~/.agents/skills` (or the project), not by where that folder leads, so trust can name its files. Eva-CLI registers the skill all the same, so `check` fails until it can be reviewed.',
  },
  'skillgate.hidden-unicode': {
    fix: 'Remove the invisible or bidirectional characters, or make sure you have read the text as the agent will.',
  },
  'skillgate.read-failed': { fix: 'Check that the file exists and that you may read it.' },
  'skillgate.internal': { fix: 'Refresh; if the error stays, report it with the message.' },
  'skillgate.lock.new': {
    fix: 'Review the bundle (`skillgate review <name>`); when you accept what it can do, run `skillgate lock` and commit `skillgate.lock` with the bundle, so code owners see both.',
  },
  'skillgate.lock.changed': {
    fix: 'Review what changed (`skillgate review <name>` shows it when your trust store holds the reviewed copy); when you accept it, run `skillgate lock` and commit the new token.',
  },
  'skillgate.lock.gone': {
    fix: 'If the bundle was removed on purpose, run `skillgate lock` to drop it from the lock; otherwise restore it.',
  },
  'skillgate.lock.unpinnable': {
    fix: 'The bundle runs a file its review token cannot cover (a hook script outside the workspace or behind a symbolic link): move the file into the repository as a regular file, then review and lock again.',
  },
  'skillgate.lock.unread': {
    fix: "Bring the files within Skillgate's Eva limits so that it reads them: at most `max_files_per_dir` manifests in each directory (move some into subdirectories, or remove those you do not need), each manifest within `max_manifest_bytes`, and no lower `discovery.limits` in the project's `config/eva.yaml`; then review what it reads and run `skillgate lock`. `skillgate validate` names each place.",
  },
  'skillgate.diagnostics.truncated': {
    fix: 'Fix the problems listed for the file, starting with the one this diagnostic names; the rest are listed as the count falls below the cap. The file is usually generated or hostile: a list of thousands of values no agent accepts.',
  },
  'skillgate.sarif.truncated': {
    fix: 'Run `skillgate validate` (or `skillgate check --lock`), as text or with `--json`, to see the findings (the first 100 of each file, and a count of the rest), and fix the errors first; the exit code counts them all.',
  },
};
