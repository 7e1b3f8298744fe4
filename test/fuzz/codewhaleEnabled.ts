import type { Rng } from './random';
import { fileEntry, shapePath, type Shape, type ShapeEntry } from './shapeTree';
import type { LifecycleFate, LifecycleStep, ShapeFate } from './shapeFates';

/**
 * Codewhale bundles taken through trust and enable (codewhale.md §8, trust.md "Operations"),
 * so that an active bundle's decisions are reached: each bundle of its own name, in the
 * user's root or the workspace's, in `plugin.toml` or `plugin.json` (+ `mcp.json`), with 0-2
 * skills and 0-3 MCP servers, each configured on (by default or `enabled = true`) or off
 * (`enabled = false`; in `mcp.json` also `extensions["net.codewhale"].disabled`, §3.3, §3.4);
 * at times `[when] os = []` (never applicable, §4.9) or only an `lsp` component (unsupported,
 * §6.3). Each bundle then goes through one sequence of the lifecycle (none, trust, trust then
 * enable, enable alone, trust-enable-trust, trust-enable-disable), run with the CLI's own
 * commands at the token `list --json` shows, and the fate of each step and of each item
 * after them is worked out from §8.3/§8.4 and decisions.md, never from Skillgate:
 *
 * - trust always succeeds (§8.4, also for an unsupported bundle) and sets `enabled = false`;
 * - enable is refused, writing nothing, unless trusted, applicable and not unsupported (§8.4 1-4);
 * - disable sets `enabled = false` and keeps trust;
 * - `active = enabled ∧ trusted ∧ applicable ∧ compatibility ≠ unsupported` (§8.3; these bundles
 *   have no error diagnostic and a snapshot that verifies): the bundle `registered` (`active`),
 *   its skills and the servers configured on `registered` (`component_active`); Codewhale starts
 *   no server configured off (§9.1 `configured-off`), so such a server is never shown loaded;
 * - otherwise `disabled` (`not_reviewed` first untrusted, else `not_enabled`), every child
 *   `disabled` with `bundle_inactive`; an unsupported bundle `display_only`
 *   (`unsupported_components`).
 */

type Format = 'plugin.toml' | 'plugin.json';
export type Server = {
  readonly id: string;
  readonly remote: boolean;
  readonly off: 'no' | 'explicit-on' | 'enabled' | 'disabled';
};
export type Kind = 'plain' | 'never-applicable' | 'unsupported';
export type Sequence = readonly LifecycleStep['op'][];

interface Bundle {
  readonly scope: 'user' | 'workspace';
  readonly dir: string;
  readonly name: string;
  readonly format: Format;
  readonly kind: Kind;
  readonly skills: readonly string[];
  readonly servers: readonly Server[];
  readonly steps: Sequence;
}

/** What the lifecycle's fates depend on, whatever the manifest format (codewhaleKimi.ts writes another). */
export type LifecycleBundle = Omit<Bundle, 'format'>;

export const SEQUENCES: readonly (readonly [number, Sequence])[] = [
  [2, []],
  [2, ['trust']],
  [6, ['trust', 'enable']],
  [1, ['enable']],
  [1, ['enable', 'trust']],
  [1, ['trust', 'enable', 'trust']],
  [1, ['trust', 'enable', 'disable']],
];

export const SKILL = (n: string) => `---\nname: ${n}\ndescription: Skill ${n}.\n---\nBody of ${n}.\n`;

/** Whether Codewhale starts the server when its bundle is active (§3.4 defaults: `enabled` true, `disabled` false). */
export function configuredOn(s: Server): boolean {
  return s.off === 'no' || s.off === 'explicit-on';
}

/** The server's `extensions["net.codewhale"]` as written for `off` (§3.4), or none: what `configuredOn` reads back. */
export function switchWritten(s: Server): { enabled: boolean } | { disabled: true } | undefined {
  return s.off === 'explicit-on'
    ? { enabled: true }
    : s.off === 'enabled'
      ? { enabled: false }
      : s.off === 'disabled'
        ? { disabled: true }
        : undefined;
}

/** A bundle with a remote server declares its host: the declared hosts must equal the servers' (§4.4). */
function remote(b: Bundle): boolean {
  return b.servers.some((s) => s.remote);
}

function tomlText(b: Bundle): string {
  const lines = ['schema_version = 1', '[plugin]', `name = "${b.name}"`, 'version = "1.0.0"'];
  if (b.kind === 'unsupported') lines.push('[lsp]', 'path = "lsp"');
  if (b.skills.length) lines.push('[skills]', 'path = "skills"');
  for (const s of b.servers) {
    lines.push(`[mcp_servers.${s.id}]`);
    lines.push(s.remote ? 'url = "https://example.invalid/mcp"' : 'command = "node"\nargs = ["server.js"]');
    // `disabled` is not a TOML key (§3.1): off is `enabled = false` there.
    if (s.off === 'explicit-on') lines.push('enabled = true');
    else if (s.off !== 'no') lines.push('enabled = false');
  }
  if (remote(b)) lines.push('[capabilities]', 'network_hosts = ["example.invalid"]');
  if (b.kind === 'never-applicable') lines.push('[when]', 'os = []');
  return `${lines.join('\n')}\n`;
}

function jsonText(b: Bundle): string {
  const ext: Record<string, unknown> = {};
  if (b.kind === 'unsupported') ext.lsp = { path: 'lsp' };
  if (b.kind === 'never-applicable') ext.when = { os: [] };
  if (remote(b)) ext.capabilities = { network_hosts: ['example.invalid'] };
  // Skills default to `skills/` when that directory exists (§3.2).
  return JSON.stringify({
    $schema: 'https://agent-plugins.org/schemas/plugin.json',
    name: b.name,
    version: '1.0.0',
    ...(Object.keys(ext).length ? { extensions: { 'net.codewhale': ext } } : {}),
  });
}

function mcpText(b: Bundle): string {
  const servers: Record<string, unknown> = {};
  for (const s of b.servers) {
    const flag = switchWritten(s);
    servers[s.id] = {
      ...(s.remote ? { url: 'https://example.invalid/mcp' } : { command: 'node', args: ['server.js'] }),
      ...(flag ? { extensions: { 'net.codewhale': flag } } : {}),
    };
  }
  return JSON.stringify({ mcpServers: servers });
}

export function place(b: Pick<Bundle, 'scope' | 'dir'>): string {
  return shapePath(b.scope === 'user' ? 'home/plugins' : 'ws/.codewhale/plugins', b.dir);
}

function entries(b: Bundle): ShapeEntry[] {
  const at = (...parts: string[]) => shapePath(place(b), ...parts);
  const out: ShapeEntry[] = [fileEntry(at(b.format), b.format === 'plugin.toml' ? tomlText(b) : jsonText(b))];
  if (b.format === 'plugin.json' && b.servers.length) out.push(fileEntry(at('mcp.json'), mcpText(b)));
  if (b.kind === 'unsupported') out.push(fileEntry(at('lsp', 'server.json'), '{}\n'));
  for (const s of b.skills) out.push(fileEntry(at('skills', s, 'SKILL.md'), SKILL(s)));
  return out;
}

/** What each step does to the state (§8.4), and the fate of the bundle and its children after them (§8.3). */
export function lifecycleFate(b: LifecycleBundle): { steps: LifecycleStep[]; fate: LifecycleFate } {
  let trusted = false;
  let enabled = false;
  const applicable = b.kind !== 'never-applicable';
  const supported = b.kind !== 'unsupported';
  const dir = place(b);
  const steps: LifecycleStep[] = b.steps.map((op) => {
    if (op === 'trust') {
      trusted = true;
      enabled = false;
      return { op, dir, ok: true };
    }
    if (op === 'disable') {
      enabled = false;
      return { op, dir, ok: true };
    }
    const ok = trusted && applicable && supported;
    if (ok) enabled = true;
    return { op, dir, ok };
  });
  const active = trusted && enabled && applicable && supported;
  const inherited = active ? 'component_active' : 'bundle_inactive';
  return {
    steps,
    fate: {
      dir,
      trust: trusted ? 'trusted' : 'not-reviewed',
      enabled,
      decision: !supported ? 'display_only' : active ? 'registered' : 'disabled',
      reason: !supported ? 'unsupported_components' : active ? 'active' : trusted ? 'not_enabled' : 'not_reviewed',
      children: [
        ...b.skills.map((name) => ({ kind: 'skill' as const, name, loaded: active, reason: inherited })),
        ...b.servers.map((s) => ({
          kind: 'mcp-server' as const,
          name: s.id,
          loaded: active && configuredOn(s),
          // A server configured off in an active bundle: decisions.md names no Codewhale reason for it.
          ...(active && !configuredOn(s) ? {} : { reason: inherited }),
        })),
      ],
    },
  };
}

export function generateCodewhaleEnabled(rng: Rng): Shape {
  const bundles: Bundle[] = [];
  for (let i = 0, n = rng.range(1, 3); i < n; i++) {
    const format = rng.pick<Format>(['plugin.toml', 'plugin.json']);
    const kind = rng.weighted<Kind>([
      [8, 'plain'],
      [1, 'never-applicable'],
      [1, 'unsupported'],
    ]);
    const unsupported = kind === 'unsupported';
    bundles.push({
      scope: rng.bool(0.3) ? 'user' : 'workspace',
      dir: `lamp-${i}`,
      name: `lamp-${i}`,
      format,
      kind,
      skills: unsupported ? [] : ['one', 'two'].slice(0, rng.int(3)),
      servers: unsupported
        ? []
        : Array.from(
            {
              length: rng.weighted<number>([
                [2, 0],
                [3, 1],
                [3, 2],
                [2, 3],
              ]),
            },
            (_, k) => ({
              id: `srv-${k}`,
              remote: rng.bool(0.3),
              off: rng.weighted<Server['off']>([
                [3, 'no'],
                [1, 'explicit-on'],
                [2, 'enabled'],
                [format === 'plugin.json' ? 2 : 0, 'disabled'],
              ]),
            }),
          ),
      steps: rng.weighted(SEQUENCES),
    });
  }
  const worked = bundles.map(lifecycleFate);
  // Before any step (the first listing, empty store): each bundle is discovered and kept (§2.5 step 8).
  const fates: ShapeFate[] = bundles.map((b) => ({
    system: 'codewhale',
    dir: place(b),
    fate: b.kind === 'unsupported' ? 'inactive' : 'registry',
  }));
  return {
    shape: 'codewhale-enabled',
    entries: bundles.flatMap(entries),
    owns: bundles.map(place),
    fates,
    lifecycle: { steps: worked.flatMap((w) => w.steps), fates: worked.map((w) => w.fate) },
    userBundles: bundles.some((b) => b.scope === 'user'),
  };
}
