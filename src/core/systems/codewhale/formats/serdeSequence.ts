import * as z from 'zod';

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

export function structOfSequence(value: unknown, fields: readonly string[]): unknown {
  if (!Array.isArray(value) || value.length > fields.length) return value;
  const out: Record<string, unknown> = {};
  value.forEach((v, i) => (out[fields[i] as string] = v));
  return out;
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

/** Where a struct's field sits in the document: its name, or its index when the struct is written as an array. */
export function fieldPath(value: unknown, at: readonly (string | number)[], field: string, order: readonly string[]) {
  const node = at.reduce<unknown>((n, k) => (n as Record<string | number, unknown> | undefined)?.[k], value);
  return [...at, Array.isArray(node) ? order.indexOf(field) : field];
}
