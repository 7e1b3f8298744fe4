import { displayText } from '../text/displayText';
import { argvText } from '../text/argvText';
import { serversById, startsProcess } from '../mcpServers';
import type { Capabilities, McpServer } from '../capabilities';

/** At most this many lines per kind in a modal: the review panel lists the rest. */
const MAX_PER_KIND = 5;

/**
 * What trusting a bundle lets run, in a few lines for the trust confirmation (issue 14
 * #13): the commands it will start (MCP servers over stdio, hooks), the remote MCP
 * servers, the network hosts. Built from the same capabilities the review shows, every
 * value escaped; "nothing that runs" is said rather than left blank. Hooks whose agent
 * runs them only under an opt-in that is not set here (`hooks`) are listed apart, with it.
 */
export function trustEssentials(
  r: { readonly capabilities: Pick<Capabilities, 'mcpServers' | 'hooks' | 'networkHosts'> | null },
  hooks: { readonly optIn: string; readonly set: boolean } | null = null,
): string[] {
  const v = (x: string) => displayText(x);
  const argv = (command: string, args: readonly string[]) => argvText([command, ...args]);
  const servers = serversById(r.capabilities);
  const declaredHooks = Object.values(r.capabilities?.hooks ?? {});
  // A server the manifest configures off is never started under this trust (codewhale.md §9.1):
  // its bytes are reviewed, but it is listed apart, as the review's "configured off" says.
  const on = servers.filter(([, s]) => s.enabled);
  const local = ([id, s]: [string, McpServer]) => `${argv(s.command ?? '', s.args)}  (MCP server ${v(id)})`;
  const hookLines = declaredHooks.map((h) => `${argv(h.argv[0] ?? '', h.argv.slice(1))}  (hook ${v(h.event)})`);
  const hooksWait = hooks !== null && !hooks.set;
  const runs = [...on.filter(([, s]) => startsProcess(s)).map(local), ...(hooksWait ? [] : hookLines)];
  const remote = on.filter(([, s]) => !startsProcess(s) && s.url).map(([id, s]) => `${v(id)} → ${v(s.url ?? '')}`);
  const off = servers
    .filter(([, s]) => !s.enabled)
    .map((e) => (startsProcess(e[1]) ? local(e) : `${v(e[0])} → ${v(e[1].url ?? '')}`));
  const hosts = (r.capabilities?.networkHosts ?? []).map(v);
  const out: string[] = [];
  const list = (title: string, lines: string[]) => {
    if (lines.length === 0) return;
    out.push(`${title}:`, ...lines.slice(0, MAX_PER_KIND).map((l) => `  • ${l}`));
    if (lines.length > MAX_PER_KIND) out.push(`  • and ${lines.length - MAX_PER_KIND} more (see the review)`);
  };
  if (r.capabilities === null) return ['What this bundle can do cannot be read (its manifest does not load).'];
  list('Commands it will run', runs);
  list('Remote MCP servers', remote);
  list('Network hosts', hosts);
  list('MCP servers configured off (never started)', off);
  if (hooksWait) list(`Hooks it runs once ${hooks.optIn} is set (not set here)`, hookLines);
  if (out.length === 0) out.push('It runs no commands and declares no MCP servers, hooks or network hosts.');
  return out;
}
