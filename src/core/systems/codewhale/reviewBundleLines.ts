import type { Capabilities } from '../../capabilities';
import type { Item } from '../../model';

/**
 * What Codewhale's own review of a bundle states besides its MCP servers (`/plugin show`,
 * `/plugin trust`; codewhale.md §9.1), in its words: upstream `render_permissions` and
 * the lines `render_bundle_detail` appends, in crates/tui/src/commands/groups/plugins/render.rs.
 */

/** The bundle's inventory (when its detail holds one), then upstream `render_permissions`. */
export function codewhaleInventoryAndPermissions(bundle: Item, caps: Capabilities): string[] {
  const inventory = bundle.detail.inventory as { readonly summary?: unknown } | undefined;
  return [
    ...(typeof inventory?.summary === 'string' ? [`inventory: ${inventory.summary}`] : []),
    `permissions: ${codewhalePermissions(caps)}`,
  ];
}

/** Upstream `render_permissions`: what the bundle may reach, every field printed (`none` when empty). */
function codewhalePermissions(caps: Capabilities): string {
  const list = (v: readonly string[] | undefined) => (v?.length ? v.join(', ') : 'none');
  // §6.1: a stdio server has a command and no URL.
  const stdio = Object.values(caps.mcpServers ?? {}).filter((s) => s.command && s.url === null).length;
  const runtime =
    stdio === 0
      ? 'none'
      : `${stdio} local child process(es) with host-user filesystem/network authority; MCP tool approvals still apply`;
  return `filesystem_roots=[${list(caps.filesystemRoots)}] network_hosts=[${list(caps.networkHosts)}] (exact allowlist for Codewhale-managed remote requests; redirects stay same-origin) lifecycle_mutation=${caps.lifecycleMutation ?? false} stdio_runtime=[${runtime}]`;
}

/**
 * The lines upstream appends after the bundle's fields: its compatibility, the component
 * kinds active now (the supported ones, only while the bundle itself is active: its
 * decision is `registered`), the kinds it inventories but never activates, and the
 * bundle's skills as Codewhale exposes them (`plugin:skill`). `bundle` is the review's
 * own reading; `current` is the bundle as the index decides it now (trust, enable,
 * `[when]`, the staged skills): without it the active kinds are not stated at all,
 * rather than said to be none while Codewhale runs them.
 */
export function codewhaleActivationLines(
  bundle: Item,
  current: Pick<Item, 'decision'> | undefined,
  skills: readonly string[],
): string[] {
  const list = (v: readonly string[]) => `[${v.length ? v.join(', ') : 'none'}]`;
  const activation = bundle.detail.activation;
  const active = current?.decision === 'registered' ? (activation?.supportedComponents ?? []) : [];
  return [
    `Compatibility: ${bundle.compatibility ?? 'unknown'}`,
    ...(current ? [`Active components: ${list(active)}`] : []),
    `Inactive components: ${list(activation?.inactiveComponents ?? [])}`,
    `Qualified skills: ${list(skills)}`,
  ];
}
