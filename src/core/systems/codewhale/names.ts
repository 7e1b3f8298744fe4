/** Name rules of each manifest format (codewhale.md §3.8). */

/** plugin.toml: 1-64 of `[a-z0-9-]`, first and last `[a-z0-9]`; `--` runs are allowed. */
export function isTomlPluginName(n: string): boolean {
  return /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/.test(n);
}

/** Agent Plugins: 1-64 of `[a-z0-9.-]`, first and last `[a-z0-9]`, never `--` or `..`. */
export function isAgentPluginsName(n: string): boolean {
  return /^[a-z0-9](?:[a-z0-9.-]{0,62}[a-z0-9])?$/.test(n) && !n.includes('--') && !n.includes('..');
}

/** Kimi: 1-64 characters, first `[a-z0-9]`, all `[a-z0-9_-]`. */
export function isKimiPluginName(n: string): boolean {
  return /^[a-z0-9][a-z0-9_-]{0,63}$/.test(n);
}

/** MCP server ids: 1-64 of `[A-Za-z0-9_-]`, not starting or ending with `-` or `_`. */
export function isMcpServerName(n: string): boolean {
  return /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,62}[A-Za-z0-9])?$/.test(n);
}

export const AGENT_PLUGINS_PARSE_MESSAGE = (label: string, n: string): string =>
  `${label} name \`${n}\` is invalid under the Agent Plugins standard (1-64 lowercase ASCII letters, digits, or internal single \`-\`/\`.\`; never \`--\` or \`..\`)`;

export const NAME_RULE_MESSAGES = {
  toml: (n: string) => `plugin name \`${n}\` must be 1-64 lowercase ASCII letters, digits, or internal hyphens`,
  'agent-plugins': (n: string) =>
    `plugin name \`${n}\` violates the Agent Plugins name rule (1-64 lowercase ASCII letters, digits, or internal single hyphens or dots; never \`--\` or \`..\`)`,
  kimi: (n: string) => `plugin name \`${n}\` violates the Kimi plugin name rule`,
} as const;

export const NAME_RULES = {
  toml: isTomlPluginName,
  'agent-plugins': isAgentPluginsName,
  kimi: isKimiPluginName,
} as const;

/** The valid slug closest to an invalid name (for a quick fix): lowercase, runs of others → `-`. */
export function slugForName(n: string): string {
  const slug = n
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/g, '');
  return slug === '' ? 'plugin' : slug;
}
