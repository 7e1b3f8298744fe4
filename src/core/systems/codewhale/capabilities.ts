import { emptyOwnRecord, ownRecordOf } from '../../documents/ownRecord';
import type { Capabilities, HostCondition, McpServer } from '../../capabilities';
import type { CodewhaleBundle } from './codewhaleBundle';
import type { CompatibilityReport, Inventory } from './inventory';
import type { Manifest } from './manifest';

/**
 * Everything a Codewhale bundle can do: the model its review shows and its receipt
 * stores (capabilities.ts), made once when the bundle loads (`declaredCapabilities`)
 * and shared by every snapshot and review of it.
 */
export function codewhaleCapabilities(b: CodewhaleBundle): Capabilities {
  return b.capabilities ?? declaredCapabilities(undefined, b.inventory, b.compatibility);
}

/**
 * The capability model from the typed manifest, its values only: the bundle keeps this
 * and not the manifest, whose places (`{file, path}` on every field) only the loader's
 * rules read (docs/memory.md, "What the bundle keeps"). The capability hash
 * is not computed from this (capabilityHash.ts hashes Codewhale's own pairs).
 */
export function declaredCapabilities(
  m: Manifest | undefined,
  inv: Inventory | undefined,
  compatibility: CompatibilityReport | undefined,
): Capabilities {
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
    compatibility: compatibility?.compatibility ?? null,
    components,
    mcpServers,
    // The inventory's own lists: nobody changes either, and the model is made once per bundle.
    networkHosts: inv?.network_hosts ?? [],
    filesystemRoots: inv?.filesystem_roots ?? [],
    lifecycleMutation: inv?.lifecycle_mutation ?? false,
    when: declaredWhen(m),
    inventory: inv ? { ...inv } : null,
  };
}

/** The `[when]` table's values (null: the manifest has none). */
export function declaredWhen(m: Manifest | undefined): HostCondition | null {
  return m?.when
    ? { os: m.when.os?.map((o) => o.value) ?? null, binaries: m.when.binaries?.map((b) => b.value) ?? null }
    : null;
}

/**
 * A recalled model (parse cache, JSON) made prototype-free again where names are keys,
 * as `declaredCapabilities` made it: JSON.parse keeps a `__proto__` key as an own
 * property, but leaves the record open to `Object.prototype` for every name it lacks.
 * Literals, so every recalled model has the shape of a made one.
 */
export function recalledCapabilities(c: StoredCapabilities): Capabilities {
  const mcpServers = emptyOwnRecord<McpServer>();
  for (const [id, s] of Object.entries(c.mcpServers)) {
    mcpServers[id] = {
      transport: s.transport,
      command: s.command,
      args: s.args,
      cwd: s.cwd,
      env: ownRecordOf(Object.entries(s.env)),
      url: s.url,
      envHeaders: ownRecordOf(Object.entries(s.envHeaders)),
      bearerTokenEnvVar: s.bearerTokenEnvVar,
      timeouts: ownRecordOf(Object.entries(s.timeouts)),
      required: s.required,
      enabled: s.enabled,
      enabledTools: s.enabledTools,
      disabledTools: s.disabledTools,
    };
  }
  return {
    system: 'codewhale',
    compatibility: c.compatibility,
    components: ownRecordOf(Object.entries(c.components)),
    mcpServers,
    networkHosts: c.networkHosts,
    filesystemRoots: c.filesystemRoots,
    lifecycleMutation: c.lifecycleMutation,
    when: c.when,
    inventory: c.inventory,
  };
}

/** A Codewhale capability model as `declaredCapabilities` makes it: every section present. */
export type StoredCapabilities = Required<
  Pick<
    Capabilities,
    | 'compatibility'
    | 'components'
    | 'mcpServers'
    | 'networkHosts'
    | 'filesystemRoots'
    | 'lifecycleMutation'
    | 'when'
    | 'inventory'
  >
>;
