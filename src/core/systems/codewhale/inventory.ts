import type { ActivationPolicy, CapabilityLabel } from './activationPolicy';
import type { Compatibility } from '../../model';
import type { Manifest } from './manifest';
import { asciiLower } from '../../text/rustText';
import { detached } from '../../text/detached';

/** A bundle's capability inventory (codewhale.md §6.1). */
export interface Inventory {
  readonly skills: number;
  readonly mcp_servers: number;
  readonly stdio_mcp_servers: number;
  readonly remote_mcp_servers: number;
  readonly commands: number;
  readonly agents: number;
  readonly hooks: number;
  readonly lsp: number;
  readonly native: number;
  readonly filesystem_roots: readonly string[];
  readonly network_hosts: readonly string[];
  readonly lifecycle_mutation: boolean;
}

export function inventoryOf(m: Manifest, networkHosts: readonly string[]): Inventory {
  const count = (k: 'skills' | 'commands' | 'agents' | 'hooks' | 'lsp' | 'native') =>
    m.components[k]?.paths.length ?? 0;
  return {
    skills: count('skills'),
    mcp_servers: m.mcpServers.length,
    stdio_mcp_servers: m.mcpServers.filter((s) => s.command && !s.url).length,
    remote_mcp_servers: m.mcpServers.filter((s) => s.url && !s.command).length,
    commands: count('commands'),
    agents: count('agents'),
    hooks: count('hooks'),
    lsp: count('lsp'),
    native: count('native'),
    filesystem_roots: m.filesystemRoots.map((r) => r.value),
    network_hosts: networkHosts,
    lifecycle_mutation: m.lifecycleMutation,
  };
}

/** The 12 pairs of the v3 capability hash (codewhale.md §7.5). */
export function capabilityPairs(inv: Inventory): Map<string, string> {
  const byteSorted = (xs: readonly string[]) =>
    [...new Set(xs)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return new Map([
    ['agents', String(inv.agents)],
    ['commands', String(inv.commands)],
    ['filesystem', byteSorted(inv.filesystem_roots).join('\n')],
    ['hooks', String(inv.hooks)],
    ['lifecycle', String(inv.lifecycle_mutation)],
    ['lsp', String(inv.lsp)],
    ['mcp', String(inv.mcp_servers)],
    ['mcp-remote', String(inv.remote_mcp_servers)],
    ['mcp-stdio', String(inv.stdio_mcp_servers)],
    ['native', String(inv.native)],
    ['network', byteSorted(inv.network_hosts.map(asciiLower)).join('\n')],
    ['skills', String(inv.skills)],
  ]);
}

/** Declared capabilities, in policy order (codewhale.md §6.2). */
export function declaredCapabilities(inv: Inventory): CapabilityLabel[] {
  const out: CapabilityLabel[] = [];
  if (inv.skills > 0) out.push('skills');
  if (inv.stdio_mcp_servers > 0) out.push('mcp-stdio');
  if (inv.remote_mcp_servers > 0) out.push('mcp-remote');
  if (inv.commands > 0) out.push('commands');
  if (inv.agents > 0) out.push('agents');
  if (inv.hooks > 0) out.push('hooks');
  if (inv.lsp > 0) out.push('lsp');
  if (inv.native > 0) out.push('native');
  if (inv.filesystem_roots.length > 0) out.push('filesystem-roots');
  if (inv.lifecycle_mutation) out.push('lifecycle-mutation');
  return out;
}

export interface CompatibilityReport {
  readonly compatibility: Compatibility;
  readonly supportedLabels: string[];
  readonly unsupportedLabels: CapabilityLabel[];
}

export function compatibilityOf(inv: Inventory, policy: ActivationPolicy): CompatibilityReport {
  const declared = declaredCapabilities(inv);
  const unsupportedLabels = declared.filter((c) => !policy.supported.includes(c));
  const supported = declared.filter((c) => policy.supported.includes(c));
  const supportedLabels: string[] = [];
  for (const c of supported) {
    const label = c === 'mcp-stdio' || c === 'mcp-remote' ? 'mcp' : c;
    if (!supportedLabels.includes(label)) supportedLabels.push(label);
  }
  const compatibility: Compatibility =
    unsupportedLabels.length === 0 ? 'full' : supported.length > 0 ? 'partial' : 'unsupported';
  return { compatibility, supportedLabels, unsupportedLabels };
}

/**
 * The inventory with its summary, as a bundle item's detail shows it. Copied with
 * `Object.assign`, not a spread and a key more: V8 gives every object made that way a
 * hidden class of its own (one per bundle, 6 % of the index's live data at 10,000
 * bundles: docs/memory.md). Typed as a mapped type, which the item's detail takes as a record.
 */
export function summarizedInventory(inv: Inventory): Pick<Inventory, keyof Inventory> & { readonly summary: string } {
  return Object.assign({}, inv, { summary: inventorySummary(inv) });
}

export function inventorySummary(inv: Inventory): string {
  // Kept in every bundle item's detail: flat, not the tree of pieces a template literal leaves (docs/memory.md).
  return detached(
    `skills=${inv.skills} mcp=${inv.mcp_servers} (stdio=${inv.stdio_mcp_servers} remote=${inv.remote_mcp_servers}) commands=${inv.commands} agents=${inv.agents} hooks=${inv.hooks} lsp=${inv.lsp} native=${inv.native}`,
  );
}
