import { argumentKind, startsProcess } from '../../mcpServers';
import type { McpServer } from '../../capabilities';
import type { AgentServerCard } from '../agentSystem';

/** Upstream's word for the authority of the process a local (stdio) server starts (`render_mcp_server`). */
const LOCAL_AUTHORITY = 'host-user-filesystem/network-authority';
/** What upstream fixes for every remote server: redirects stay on the endpoint's origin, and it runs no OAuth flow. */
const REDIRECTS = 'same-origin-only';
const OAUTH = 'disabled';

/**
 * One MCP server as Codewhale's own review shows it (`/plugin show`, `/plugin trust`;
 * codewhale.md §9.1), field for field, in its order and with its defaults, so a reviewer
 * who reads both sees the same line: upstream `render_mcp_server` in
 * crates/tui/src/commands/groups/plugins/render.rs. Every field is always printed, a
 * timeout unset as `default`, an empty list as `none`: a field missing from the line
 * would read as a limit the bundle does not set.
 *
 * Upstream also Markdown-escapes each field (`PLUGIN\_TOKEN`); Skillgate does not (its
 * review is plain text, §10.8 case 2) and instead makes every invisible character
 * visible when the line is printed (displayText.ts).
 */
export function codewhaleMcpEntry(id: string, s: McpServer, files: ReadonlySet<string>): string {
  const common = `timeouts=${timeouts(s)} required=${s.required} enabled_tools=[${list(s.enabledTools)}] disabled_tools=[${list(s.disabledTools)}]`;
  if (startsProcess(s)) {
    // Each argument JSON-quoted (upstream `render_review_argv_value`: lossless, whatever it holds), joined by `, `.
    const argv = s.args.map((a, i) => `#${i + 1} ${argumentKind(a, files)}=${JSON.stringify(a)}`).join(', ');
    // A value that is not `${NAME}` has no source name: upstream says `invalid`.
    const env = sorted(Object.entries(s.env).map(([dest, src]) => `${dest} <- ${src ?? 'invalid'}`));
    return `${id}: transport=stdio command=${s.command ?? ''} argv=[${argv}] cwd=${s.cwd ?? 'plugin-root'} env=[${list(env)}] ${common} ${LOCAL_AUTHORITY} ${switchWord(s)}`;
  }
  if (s.url !== null) {
    const headers = sorted(Object.entries(s.envHeaders).map(([h, src]) => `${h} <- ${src}`));
    // Upstream's transport label is `http` for every remote server, SSE included (`transport_label`).
    return `${id}: transport=http endpoint=${endpoint(s.url)} redirects=${REDIRECTS} env_headers=[${list(headers)}] bearer_env=${s.bearerTokenEnvVar ?? 'none'} oauth=${OAUTH} ${common} ${switchWord(s)}`;
  }
  return `${id}: invalid`;
}

/**
 * The same server in the review panel's card, in the same words: the fields of the line
 * above the card does not show as rows of its own (its command, argv, cwd, env, endpoint,
 * credentials and tool filters it does). Every timeout, unset ones as `default`; the
 * authority of a local server's process; for a remote one, its redirects and OAuth; then
 * `required` and the manifest's switch, which a card whose bundle is not active states
 * nowhere else.
 */
export function codewhaleServerCard(s: McpServer): AgentServerCard {
  const local = startsProcess(s);
  return {
    timeouts: timeouts(s),
    authority: local ? LOCAL_AUTHORITY : null,
    facts: [
      ...(!local && s.url !== null
        ? [
            { label: 'redirects', value: REDIRECTS },
            { label: 'oauth', value: OAUTH },
          ]
        : []),
      { label: 'required', value: String(s.required) },
      { label: 'switch', value: switchWord(s) },
    ],
  };
}

/** `configured-on` when the manifest's `enabled` is true and `disabled` false (codewhale.md §9.1). */
function switchWord(s: McpServer): string {
  return s.enabled ? 'configured-on' : 'configured-off';
}

/** The URL as the parser serializes it (`reqwest::Url::parse(url).as_str()`; both are WHATWG parsers): what the client connects to. */
function endpoint(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return 'invalid-url';
  }
}

/** Upstream `render_mcp_timeouts`: all three, each in seconds or `default`. */
function timeouts(s: McpServer): string {
  const t = (key: string) => (s.timeouts[key] === undefined ? 'default' : `${s.timeouts[key]}s`);
  return `connect=${t('connect_timeout')}/execute=${t('execute_timeout')}/read=${t('read_timeout')}`;
}

/** Upstream `render_review_values` (and its lists of mappings): in order, `none` when empty. */
function list(v: readonly string[]): string {
  return v.length ? v.join(', ') : 'none';
}

/**
 * Upstream sorts the mappings as it prints them (`sort_unstable` on the escaped strings,
 * byte order), so the order is that of their Markdown-escaped form: `X\-B` after `XA`.
 */
function sorted(entries: string[]): string[] {
  const key = (e: string) => Buffer.from(e.replace(/[\\`*_{}[\]<>()#+\-.!|]/g, '\\$&'), 'utf8');
  return entries.sort((a, b) => Buffer.compare(key(a), key(b)));
}
