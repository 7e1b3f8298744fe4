import { emptyOwnRecord, ownRecordOf } from '../../documents/ownRecord';
import type { Capabilities, McpServer } from '../../capabilities';
import type { CodewhaleBundle } from './bundle';

/**
 * Everything a Codewhale bundle can do, from its typed manifest: the model its review
 * shows and its receipt stores (capabilities.ts). The capability hash is not computed
 * from this (capabilityHash.ts hashes Codewhale's own pairs).
 */
export function codewhaleCapabilities(b: CodewhaleBundle): Capabilities {
  const m = b.manifest;
  const inv = b.inventory;
  // Names the bundle chooses are keys of prototype-free maps: a server called `__proto__` is kept.
  const mcpServers = emptyOwnRecord<McpServer>();
  for (const s of m?.mcpServers ?? []) {
    mcpServers[s.id] = {
      transport: s.command ? 'stdio' : s.url ? (s.transport?.value ?? 'streamable-http') : 'invalid',
      command: s.command?.value ?? null,
      args: s.args.map((a) => a.value),
      cwd: s.cwd?.value ?? null,
      // Mappings as maps, so a review names each added or removed mapping (`DEST ← SOURCE`).
      env: ownRecordOf(s.env.map((e) => [e.name, /^\$\{(.*)\}$/.exec(e.value)?.[1] ?? null])),
      url: s.url?.value ?? null,
      envHeaders: ownRecordOf(s.envHeaders.map((h) => [h.name, h.value])),
      bearerTokenEnvVar: s.bearerTokenEnvVar?.value ?? null,
      timeouts: ownRecordOf(s.timeouts.map((t) => [t.label, t.value])),
      required: s.required?.value ?? false,
      enabled: s.enabled && !s.disabled,
      enabledTools: s.enabledTools.map((t) => t.value),
      disabledTools: s.disabledTools.map((t) => t.value),
    };
  }
  const components = emptyOwnRecord<string[]>();
  for (const [kind, spec] of Object.entries(m?.components ?? {})) components[kind] = spec.paths.map((p) => p.value);
  // The key order is the order receipts have always been written in.
  return {
    system: 'codewhale',
    compatibility: b.compatibility?.compatibility ?? null,
    components,
    mcpServers,
    networkHosts: inv ? [...inv.network_hosts] : [],
    filesystemRoots: inv ? [...inv.filesystem_roots] : [],
    lifecycleMutation: inv?.lifecycle_mutation ?? false,
    when: m?.when
      ? { os: m.when.os?.map((o) => o.value) ?? null, binaries: m.when.binaries?.map((x) => x.value) ?? null }
      : null,
    inventory: inv ? { ...inv } : null,
  };
}
