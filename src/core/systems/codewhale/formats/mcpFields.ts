import { located, type McpServerDecl, type NamedValue, type Where } from '../manifest';

/** MCP server fields in Codewhale's internal (snake_case) names, as every format maps them (codewhale.md §3.4). */
export interface McpFields {
  command?: string | undefined;
  args?: string[] | undefined;
  env?: Record<string, string> | undefined;
  cwd?: string | undefined;
  url?: string | undefined;
  transport?: string | undefined;
  connect_timeout?: number | undefined;
  execute_timeout?: number | undefined;
  read_timeout?: number | undefined;
  enabled?: boolean | undefined;
  disabled?: boolean | undefined;
  required?: boolean | undefined;
  enabled_tools?: string[] | undefined;
  disabled_tools?: string[] | undefined;
  headers?: Record<string, string> | undefined;
  env_headers?: Record<string, string> | undefined;
  env_http_headers?: Record<string, string> | undefined;
  bearer_token_env_var?: string | undefined;
  scopes?: string[] | undefined;
  oauth?: { client_id?: string | undefined } | undefined;
  oauth_resource?: string | undefined;
}

/** Builds a server declaration; `where(field)` says where each field sits in its source file. */
export function mcpServerFromFields(
  id: string,
  at: Where,
  f: McpFields,
  where: (field: string) => Where,
  envHeadersKey: string = 'env_headers',
): McpServerDecl {
  const one = <T>(v: T | undefined, field: string) => (v === undefined ? undefined : { value: v, at: where(field) });
  const list = (values: string[] | undefined, field: string) =>
    (values ?? []).map((v, i) => ({ value: v, at: { ...where(field), path: where(field).path.concat(i) } }));
  const named = (map: Record<string, string> | undefined, field: string): NamedValue[] =>
    Object.entries(map ?? {}).map(([name, value]) => ({
      name,
      value,
      at: { ...where(field), path: where(field).path.concat(name) },
    }));
  const timeouts = (['connect_timeout', 'execute_timeout', 'read_timeout'] as const)
    .filter((label) => f[label] !== undefined)
    .map((label) => ({ ...located(f[label] as number, where(label).file, where(label).path), label }));
  const envHeaders = f.env_headers ?? f.env_http_headers;
  const decl: McpServerDecl = {
    id,
    at,
    args: list(f.args, 'args'),
    env: named(f.env, 'env'),
    timeouts,
    enabled: f.enabled ?? true,
    disabled: f.disabled ?? false,
    enabledTools: list(f.enabled_tools, 'enabled_tools'),
    disabledTools: list(f.disabled_tools, 'disabled_tools'),
    headers: named(f.headers, 'headers'),
    envHeaders: named(envHeaders, envHeadersKey),
    ...opt('command', one(f.command, 'command')),
    ...opt('cwd', one(f.cwd, 'cwd')),
    ...opt('url', one(f.url, 'url')),
    ...opt('transport', one(f.transport, 'transport')),
    ...opt('required', one(f.required, 'required')),
    ...opt('bearerTokenEnvVar', one(f.bearer_token_env_var, 'bearer_token_env_var')),
    // Upstream's lists default to empty, and an empty one counts as none (codewhale.md §4.7).
    ...opt('scopes', one(f.scopes !== undefined && f.scopes.length > 0 ? f.scopes : undefined, 'scopes')),
    ...opt(
      'oauth',
      f.oauth === undefined
        ? undefined
        : { value: f.oauth.client_id === undefined ? {} : { clientId: f.oauth.client_id }, at: where('oauth') },
    ),
    ...opt('oauthResource', one(f.oauth_resource, 'oauth_resource')),
  };
  return decl;
}

function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
