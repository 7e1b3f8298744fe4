import type { Rng } from './random';
import { fileEntry, shapePath, type Shape, type ShapeEntry } from './shapeTree';
import type { ShapeFate } from './shapeFates';
import {
  lifecycleFate,
  place as placeOf,
  SEQUENCES,
  SKILL,
  switchWritten,
  type LifecycleBundle,
  type Server,
} from './codewhaleEnabled';

/**
 * Kimi-format Codewhale bundles (`kimi.plugin.json`, codewhale.md §3.5) with MCP servers,
 * taken through trust and enable as codewhaleEnabled.ts takes the other formats, and decided
 * by the same rules (§8.3, §8.4, decisions.md: `lifecycleFate`). What is Kimi's own:
 *
 * - the name rule (§3.5, §3.8): `_` and a trailing `-` or `_` pass, where no other format
 *   allows them, so a Skillgate reading the name by another format's rule rejects a bundle
 *   Codewhale loads;
 * - servers sit inline in `mcpServers`, their `type` absent (inferred from `command` or
 *   `url`, §3.3) or written in any case; a remote server needs no declared host, because
 *   `capabilities.network_hosts` is derived from the URL hosts (§3.5; a `capabilities` key
 *   would fail the closed root);
 * - each server is configured on unless its `extensions["net.codewhale"]` turns it off.
 *   §3.5 names `extensions` among a Kimi server's fields without saying what it holds;
 *   upstream reads it exactly as `mcp.json`'s (§3.3): `KimiMcpServer::into_config` builds a
 *   `StandardMcpServer` and calls `standard_server_to_config`, the function `parse_mcp_json`
 *   uses (Hmbown/Codewhale crates/tui/src/plugins/agent_plugin.rs), so `enabled` (default
 *   true) and `disabled` (default false) are the §3.4 switches there too;
 * - skills declared as a string or a list (`"skills"`, `["./skills/"]`); none declared and
 *   no root `SKILL.md` is no skills;
 * - `when.os` comes from `interface.platforms` (§3.5): the host among them is applicable,
 *   a list without it never is (§4.9), so enable is refused (§8.4 3). An empty list is no
 *   `[when]` at all, so applicable: upstream sets `when` only for a non-empty list
 *   (`parse_kimi_plugin_json`, same file), where §3.5 alone would read it as `os = []`, which
 *   never applies. No Kimi field declares an inactive component (`lsp`, `native`, ...), so no
 *   Kimi bundle is unsupported.
 *
 * Left out, the spec being unclear: a root `SKILL.md` (its skills path is `.` per §3.5, yet
 * §5.1 takes no `SKILL.md` directly in a skills root).
 */

interface KimiServer extends Server {
  /** The `type` written, if any. */
  readonly type?: string;
}

interface KimiBundle extends LifecycleBundle {
  readonly servers: readonly KimiServer[];
  readonly skillsAs: 'string' | 'list';
  readonly platforms?: readonly string[];
}

/** §4.9's OS names; the host's as Skillgate maps Node's `process.platform` there. */
const OS_NAMES = ['windows', 'linux', 'macos', 'freebsd', 'openbsd', 'netbsd', 'android', 'ios'];

function hostOs(): string {
  const p = process.platform;
  return p === 'darwin' ? 'macos' : p === 'win32' ? 'windows' : p;
}

function kimiText(b: KimiBundle): string {
  const servers: Record<string, unknown> = {};
  for (const s of b.servers) {
    const flag = switchWritten(s);
    servers[s.id] = {
      ...(s.type === undefined ? {} : { type: s.type }),
      ...(s.remote ? { url: 'https://example.invalid/mcp' } : { command: 'node', args: ['server.js'] }),
      ...(flag ? { extensions: { 'net.codewhale': flag } } : {}),
    };
  }
  return JSON.stringify({
    name: b.name,
    version: '1.0.0',
    ...(b.skills.length ? { skills: b.skillsAs === 'list' ? ['./skills/'] : 'skills' } : {}),
    ...(b.servers.length ? { mcpServers: servers } : {}),
    ...(b.platforms ? { interface: { platforms: b.platforms } } : {}),
  });
}

function entries(b: KimiBundle): ShapeEntry[] {
  const at = (...parts: string[]) => shapePath(placeOf(b), ...parts);
  return [
    fileEntry(at('kimi.plugin.json'), kimiText(b)),
    ...b.skills.map((s) => fileEntry(at('skills', s, 'SKILL.md'), SKILL(s))),
  ];
}

export function generateCodewhaleKimi(rng: Rng): Shape {
  const host = hostOs();
  const elsewhere = OS_NAMES.filter((os) => os !== host);
  const bundles: KimiBundle[] = [];
  for (let i = 0, n = rng.range(1, 3); i < n; i++) {
    const platforms = rng.weighted<'none' | 'empty' | 'with-host' | 'without-host'>([
      [6, 'none'],
      [1, 'empty'],
      [2, 'with-host'],
      [2, 'without-host'],
    ]);
    const other = rng.pick(elsewhere);
    bundles.push({
      scope: rng.bool(0.3) ? 'user' : 'workspace',
      dir: `kite-${i}`,
      // Names only the Kimi rule allows, beside one every format does.
      name: rng.pick([`kite_${i}`, `kite-${i}-`, `kite-${i}_`, `kite-${i}`]),
      kind: platforms === 'without-host' ? 'never-applicable' : 'plain',
      skills: ['one', 'two'].slice(0, rng.int(3)),
      skillsAs: rng.bool() ? 'string' : 'list',
      ...(platforms === 'none'
        ? {}
        : { platforms: platforms === 'empty' ? [] : platforms === 'with-host' ? [other, host] : [other] }),
      servers: Array.from(
        {
          length: rng.weighted<number>([
            [1, 0],
            [3, 1],
            [3, 2],
            [2, 3],
          ]),
        },
        (_, k) => {
          const remote = rng.bool(0.35);
          const typed = rng.bool(0.4);
          return {
            id: `srv-${k}`,
            remote,
            ...(typed
              ? { type: remote ? rng.pick(['streamable-http', 'sse', 'SSE']) : rng.pick(['stdio', 'Stdio']) }
              : {}),
            off: rng.weighted<Server['off']>([
              [4, 'no'],
              [1, 'explicit-on'],
              [1, 'enabled'],
              [1, 'disabled'],
            ]),
          };
        },
      ),
      steps: rng.weighted(SEQUENCES),
    });
  }
  const worked = bundles.map(lifecycleFate);
  // Before any step: each bundle is discovered and kept (§2.5 step 8); none is unsupported.
  const fates: ShapeFate[] = bundles.map((b) => ({ system: 'codewhale', dir: placeOf(b), fate: 'registry' }));
  return {
    shape: 'codewhale-kimi',
    entries: bundles.flatMap(entries),
    owns: bundles.map(placeOf),
    fates,
    lifecycle: { steps: worked.flatMap((w) => w.steps), fates: worked.map((w) => w.fate) },
    userBundles: bundles.some((b) => b.scope === 'user'),
  };
}
