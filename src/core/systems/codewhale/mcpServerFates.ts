import type { Diagnostic, Range } from '../../model';
import type { CodewhaleBundle } from './codewhaleBundle';

/**
 * The MCP servers an error belongs to (`component_invalid`): the server its message names
 * (`server \`id\``), else, for a finding of an MCP rule in upstream's words that name none
 * (a bad command, URL or tool filter), the server whose declaration holds it: the last
 * server key at or before it in its file.
 */
export function brokenServers(
  servers: readonly { readonly id: string; readonly at: { readonly file: string; readonly range: Range } }[],
  diagnostics: readonly Diagnostic[],
): Set<string> {
  const broken = new Set<string>();
  for (const d of diagnostics) {
    if (d.severity !== 'error') continue;
    const named = SERVER_NAMED.exec(d.message)?.[1];
    const mcpRule = d.code.startsWith('codewhale.mcp.');
    let owner: (typeof servers)[number] | undefined;
    for (const s of servers) {
      if (s.at.file !== d.file) continue;
      if (named !== undefined) {
        if (s.id === named) owner = s;
      } else if (
        mcpRule &&
        !isBefore(d.range.start, s.at.range.start) &&
        (!owner || isBefore(owner.at.range.start, s.at.range.start))
      )
        owner = s;
    }
    if (owner) broken.add(owner.id);
  }
  return broken;
}

const SERVER_NAMED = /server `([^`]*)`/;

function isBefore(a: Range['start'], b: Range['start']): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

/**
 * Whether the manifest turns an MCP server on (`enabled` and not `disabled`, codewhale.md
 * §9.1's `configured-on`): Codewhale starts no server configured off, however active its
 * bundle, so such a server is never said to be loaded.
 */
export function configuredOn(b: CodewhaleBundle, server: string): boolean {
  const s = b.capabilities?.mcpServers?.[server];
  return s === undefined || s.enabled;
}
