import type { Capabilities } from '../../capabilities';
import type { Item } from '../../model';
import type { ReviewContract, ReviewFact } from '../agentSystem';

/**
 * What Codewhale's own review of a bundle states besides its MCP servers (`/plugin show`,
 * `/plugin trust`; codewhale.md §9.1), in its words: upstream `render_permissions` and
 * the lines `render_bundle_detail` appends, in crates/tui/src/commands/groups/plugins/render.rs.
 * Each fact is worded once here: the text review prints it as upstream lays it out, the
 * review panel shows it as a row (`codewhaleReviewContract`).
 */

/** The bundle's inventory (when its detail holds one), then upstream `render_permissions`. */
export function codewhaleInventoryAndPermissions(bundle: Item, caps: Capabilities): string[] {
  const inventory = inventoryFact(bundle);
  return [
    ...(inventory ? [`${inventory.label}: ${inventory.value}`] : []),
    `permissions: ${permissionFields(caps)
      .map((f) => `${f.label}=${f.value}`)
      .join(' ')}`,
  ];
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
  return [
    { label: 'Compatibility', value: bundle.compatibility ?? 'unknown' },
    ...(current ? [activeFact(bundle, current)] : []),
    inactiveFact(bundle),
    { label: 'Qualified skills', value: list(skills) },
  ].map((f) => `${f.label}: ${f.value}`);
}

/**
 * The same statement as the review panel's section, from the same facts: the inventory,
 * every permission field, the active and inactive components. The compatibility and the
 * qualified skills are left out: the panel states them already, word for word (the
 * header's compatibility pill, the skills list), and says nothing twice.
 */
export function codewhaleReviewContract(
  bundle: Item,
  caps: Capabilities,
  current: Pick<Item, 'decision'>,
): ReviewContract {
  const inventory = inventoryFact(bundle);
  return {
    title: 'What Codewhale states',
    rows: [
      ...(inventory ? [inventory] : []),
      ...permissionFields(caps),
      activeFact(bundle, current),
      inactiveFact(bundle),
    ],
  };
}

function inventoryFact(bundle: Item): ReviewFact | null {
  const inventory = bundle.detail.inventory as { readonly summary?: unknown } | undefined;
  return typeof inventory?.summary === 'string' ? { label: 'inventory', value: inventory.summary } : null;
}

/** Upstream `render_permissions`: what the bundle may reach, every field in its order (`none` when empty). */
function permissionFields(caps: Capabilities): ReviewFact[] {
  const names = (v: readonly string[] | undefined) => (v?.length ? v.join(', ') : 'none');
  // §6.1: a stdio server has a command and no URL.
  const stdio = Object.values(caps.mcpServers ?? {}).filter((s) => s.command && s.url === null).length;
  const runtime =
    stdio === 0
      ? 'none'
      : `${stdio} local child process(es) with host-user filesystem/network authority; MCP tool approvals still apply`;
  return [
    { label: 'filesystem_roots', value: `[${names(caps.filesystemRoots)}]` },
    {
      label: 'network_hosts',
      value: `[${names(caps.networkHosts)}] (exact allowlist for Codewhale-managed remote requests; redirects stay same-origin)`,
    },
    { label: 'lifecycle_mutation', value: String(caps.lifecycleMutation ?? false) },
    { label: 'stdio_runtime', value: `[${runtime}]` },
  ];
}

/** The supported kinds, active only while the bundle itself is (its decision is `registered`). */
function activeFact(bundle: Item, current: Pick<Item, 'decision'>): ReviewFact {
  const active = current.decision === 'registered' ? (bundle.detail.activation?.supportedComponents ?? []) : [];
  return { label: 'Active components', value: list(active) };
}

/** The kinds the policy inventories but never activates (codewhale.md §6.3). */
function inactiveFact(bundle: Item): ReviewFact {
  return { label: 'Inactive components', value: list(bundle.detail.activation?.inactiveComponents ?? []) };
}

function list(v: readonly string[]): string {
  return `[${v.length ? v.join(', ') : 'none'}]`;
}
