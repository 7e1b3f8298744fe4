import * as z from 'zod';
import type { DocPath } from '../../../documents/document';

/**
 * serde's derived `Deserialize` reads a struct from a JSON array as well as from an object:
 * the elements fill the fields in declaration order (serde_json's `deserialize_struct`
 * takes either). So Codewhale loads `"s": ["stdio", "node", ["server.js"]]` in `mcp.json`
 * as the server `{type, command, args}`, and `extensions["net.codewhale"]: []` as an
 * empty extension (every field has a default). The array is read as the object it stands
 * for; `null` stays `null`, which an `Option` field takes as None and a list refuses, as
 * serde does. An array longer than the struct is left as it is, and refused as serde
 * refuses it ("fewer elements in array").
 */
export function sequenceAsStruct<T extends z.ZodType>(fields: readonly string[], schema: T) {
  return z.preprocess((v) => structOfSequence(v, fields), schema);
}

function structOfSequence(value: unknown, fields: readonly string[]): unknown {
  if (!Array.isArray(value) || value.length > fields.length) return value;
  const out: Record<string, unknown> = {};
  value.forEach((v, i) => (out[fields[i] as string] = v));
  return out;
}

/**
 * The toml crate reads a struct from an array the same way (`deserialize_struct` goes to
 * `deserialize_any`, which visits an array as a sequence), but its sequence access never
 * looks past the struct's last field: elements beyond it are not read, so whatever they hold
 * passes (`capabilities = [[], ["h.example"], true, "x"]` loads). Read as the struct of the
 * first elements. TOML has no null, so every element present is a value.
 */
export function tomlSequenceAsStruct<T extends z.ZodType>(fields: readonly string[], schema: T) {
  return z.preprocess((v) => structOfSequence(Array.isArray(v) ? v.slice(0, fields.length) : v, fields), schema);
}

/** Field orders of upstream's structs (agent_plugin.rs `StandardMcpFile`, `StandardMcpServer`, `CodewhaleMcpExtension`; mcp.rs `McpServerOAuthConfig`). */
export const MCP_FILE_FIELDS = ['$schema', 'mcpServers'] as const;
export const MCP_SERVER_FIELDS = ['type', 'command', 'args', 'env', 'cwd', 'url', 'headers', 'extensions'] as const;
export const MCP_EXTENSION_FIELDS = [
  'env_headers',
  'bearer_token_env_var',
  'connect_timeout',
  'execute_timeout',
  'read_timeout',
  'enabled',
  'disabled',
  'required',
  'enabled_tools',
  'disabled_tools',
  'scopes',
  'oauth',
  'oauth_resource',
] as const;
export const OAUTH_FIELDS = ['client_id'] as const;

/** `plugin.json` (agent_plugin.rs `StandardPluginManifest`, `StandardAuthor`, `CodewhalePluginExtension`; manifest.rs `PluginPathSpec`, `PluginCapabilities`, `PluginWhen`). */
export const PLUGIN_FIELDS = [
  '$schema',
  'name',
  'version',
  'description',
  'author',
  'homepage',
  'repository',
  'license',
  'keywords',
  'extensions',
] as const;
export const AUTHOR_FIELDS = ['name', 'email', 'url'] as const;
// The order of the v3-era builds Skillgate follows (docs/codewhale-version.md): `icon` after
// `display_name`, and no `providers`, which policy v5's builds declare between `native` and
// `capabilities` (there an array's 9th element is `providers`; in a v3 build, `capabilities`).
export const PLUGIN_EXTENSION_FIELDS = [
  'display_name',
  'icon',
  'skills',
  'commands',
  'agents',
  'hooks',
  'lsp',
  'native',
  'capabilities',
  'when',
] as const;
export const PATH_SPEC_FIELDS = ['path', 'paths'] as const;
export const CAPABILITIES_FIELDS = ['filesystem_roots', 'network_hosts', 'lifecycle_mutation'] as const;
export const WHEN_FIELDS = ['os', 'binaries'] as const;

/**
 * `plugin.toml` (manifest.rs `PluginManifest`, `PluginMeta`): the root is always a table; its
 * `[plugin]` may be an array, `icon` after `display_name` as the v3-era builds declare it.
 */
const TOML_ROOT_FIELDS = [
  'schema_version',
  'plugin',
  'skills',
  'commands',
  'agents',
  'hooks',
  'lsp',
  'native',
  'mcp_servers',
  'capabilities',
  'when',
] as const;
export const TOML_PLUGIN_FIELDS = [
  'name',
  'description',
  'version',
  'author',
  'display_name',
  'icon',
  'homepage',
  'repository',
  'license',
  'keywords',
] as const;

/** `kimi.plugin.json` (agent_plugin.rs `KimiPluginManifest`, `KimiInterface`, `KimiMcpInterfaceOverride`, `KimiMcpServer`). */
export const KIMI_FIELDS = [
  '$schema',
  'name',
  'version',
  'description',
  'keywords',
  'author',
  'homepage',
  'repository',
  'license',
  'skills',
  'commands',
  'agents',
  'mcpServers',
  'interface',
] as const;
export const KIMI_INTERFACE_FIELDS = [
  'displayName',
  'shortDescription',
  'longDescription',
  'developerName',
  'websiteURL',
  'iconUrl',
  'category',
  'hostKind',
  'platforms',
  'mcpOverrides',
] as const;
export const KIMI_OVERRIDE_FIELDS = ['displayName', 'iconUrl'] as const;
export const KIMI_SERVER_FIELDS = [...MCP_SERVER_FIELDS, 'enabledTools'] as const;

/**
 * Where structs sit in a document, so a path can name a field of a struct written as an
 * array: a struct (its fields in order, and the layouts of some of them), a map every value
 * of which has a layout, or a map of `serde_json::Value` some keys of which are read further.
 */
export type SerdeLayout =
  | { readonly struct: readonly string[]; readonly fields?: Readonly<Record<string, SerdeLayout>> }
  | { readonly values: SerdeLayout }
  | { readonly keys: Readonly<Record<string, SerdeLayout>> };

export function innerLayout(layout: SerdeLayout | undefined, key: string | number): SerdeLayout | undefined {
  if (!layout) return undefined;
  if ('values' in layout) return layout.values;
  const named = 'struct' in layout ? layout.fields : layout.keys;
  return typeof key === 'string' && named && Object.hasOwn(named, key) ? named[key] : undefined;
}

function child(node: unknown, key: string | number): unknown {
  return typeof node === 'object' && node !== null ? (node as Record<string | number, unknown>)[key] : undefined;
}

/**
 * The document's path to what `path` names through struct fields: where a struct is written
 * as an array, its field's index. A path that leaves the document is mapped as far as it goes.
 */
export function documentPath(value: unknown, path: DocPath, layout: SerdeLayout): DocPath {
  let node = value;
  let at: SerdeLayout | undefined = layout;
  // By `map`, an exact-length array (docs/memory.md: paths are kept by the thousand).
  return path.map((key) => {
    const index = at && 'struct' in at && Array.isArray(node) && typeof key === 'string' ? at.struct.indexOf(key) : -1;
    const step = index >= 0 ? index : key;
    node = child(node, step);
    at = innerLayout(at, key);
    return step;
  });
}

const OAUTH: SerdeLayout = { struct: OAUTH_FIELDS };
const MCP_EXTENSION: SerdeLayout = { struct: MCP_EXTENSION_FIELDS, fields: { oauth: OAUTH } };
/** A server of `mcp.json`, its `extensions["net.codewhale"]` read from the `Value` it is. */
export const MCP_SERVER_LAYOUT: SerdeLayout = {
  struct: MCP_SERVER_FIELDS,
  fields: { extensions: { keys: { 'net.codewhale': MCP_EXTENSION } } },
};
export const KIMI_SERVER_LAYOUT: SerdeLayout = { ...MCP_SERVER_LAYOUT, struct: KIMI_SERVER_FIELDS };
export const MCP_JSON_LAYOUT: SerdeLayout = {
  struct: MCP_FILE_FIELDS,
  fields: { mcpServers: { values: MCP_SERVER_LAYOUT } },
};
const AUTHOR: SerdeLayout = { struct: AUTHOR_FIELDS };
const PATH_SPEC: SerdeLayout = { struct: PATH_SPEC_FIELDS };
/** The component path specs, `capabilities` and `when`, as plugin.json's extension and plugin.toml both declare them. */
const COMPONENT_LAYOUTS: Readonly<Record<string, SerdeLayout>> = {
  skills: PATH_SPEC,
  commands: PATH_SPEC,
  agents: PATH_SPEC,
  hooks: PATH_SPEC,
  lsp: PATH_SPEC,
  native: PATH_SPEC,
  capabilities: { struct: CAPABILITIES_FIELDS },
  when: { struct: WHEN_FIELDS },
};
export const PLUGIN_JSON_LAYOUT: SerdeLayout = {
  struct: PLUGIN_FIELDS,
  fields: {
    author: AUTHOR,
    extensions: {
      keys: {
        'net.codewhale': {
          struct: PLUGIN_EXTENSION_FIELDS,
          fields: COMPONENT_LAYOUTS,
        },
      },
    },
  },
};
/**
 * `plugin.toml`: the component tables under their names and serde aliases. `mcp_servers` has
 * none: upstream refuses a server or its `oauth` that is not a table before serde reads them.
 */
export const PLUGIN_TOML_LAYOUT: SerdeLayout = {
  struct: TOML_ROOT_FIELDS,
  fields: {
    plugin: { struct: TOML_PLUGIN_FIELDS },
    ...COMPONENT_LAYOUTS,
    profiles: PATH_SPEC,
    lsp_servers: PATH_SPEC,
    native_extension: PATH_SPEC,
  },
};
// An array `author` is the untagged `KimiAuthor`'s `Detailed` variant: the struct.
export const KIMI_JSON_LAYOUT: SerdeLayout = {
  struct: KIMI_FIELDS,
  fields: {
    author: AUTHOR,
    mcpServers: { values: KIMI_SERVER_LAYOUT },
    interface: {
      struct: KIMI_INTERFACE_FIELDS,
      fields: { mcpOverrides: { values: { struct: KIMI_OVERRIDE_FIELDS } } },
    },
  },
};
/** A Claude bundle's `.mcp.json`, a `Value` first: servers by id, or under `mcpServers`. */
export const CLAUDE_MCP_LAYOUT: SerdeLayout = { values: KIMI_SERVER_LAYOUT };
export const CLAUDE_WRAPPED_MCP_LAYOUT: SerdeLayout = { keys: { mcpServers: { values: KIMI_SERVER_LAYOUT } } };
