import type { Capabilities, McpServer } from './capabilities';

/**
 * How every face reads an MCP server (the review panel, the text review, the trust
 * confirmation): one place for the order, the host, the kind of each argument, the
 * timeouts and the credentials taken from the environment.
 */

/**
 * A unit's MCP servers in id order: the byte order of the ids, as Codewhale sorts its review's
 * entries (codewhale.md §9.1) and the index its server items, not UTF-16 order (U+FF21 before U+1F600).
 */
export function serversById(caps: Pick<Capabilities, 'mcpServers'> | null): [string, McpServer][] {
  // UTF-8 byte order: a valid bundle's ids are well-formed text (serde_json refuses a lone
  // surrogate), whose UTF-8 bytes order as fs/rawNames.ts `byteOrder` does (not imported: the
  // core's root files import none of its folders, which import the root's model).
  return Object.entries(caps?.mcpServers ?? {}).sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** A server started as a local process (stdio), rather than reached over the network. */
export function startsProcess(s: McpServer): boolean {
  return !!s.command;
}

/** The host a remote server reaches; null without a URL, or when the URL does not parse. */
export function mcpHost(s: McpServer): string | null {
  if (!s.url) return null;
  try {
    return new URL(s.url).hostname;
  } catch {
    return null;
  }
}

/** An argument that names one of the bundle's files (`server.js`, `./server.js`) is a plugin path; anything else is a value. */
export function argumentKind(arg: string, files: ReadonlySet<string>): 'plugin-path' | 'value' {
  return files.has(arg.replace(/^\.\//, '')) ? 'plugin-path' : 'value';
}

/** Timeouts by their short name (`connect_timeout` → `connect`), in seconds. */
export function timeoutsOf(s: McpServer): { readonly name: string; readonly seconds: number }[] {
  return Object.entries(s.timeouts).map(([label, seconds]) => ({ name: label.replace('_timeout', ''), seconds }));
}
