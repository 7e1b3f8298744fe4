import type { Rng } from './random';
import { fileEntry, shapePath, type Shape, type ShapeEntry } from './shapeTree';
import type { ShapeFate } from './shapeFates';

/**
 * A workspace folder opened at the Codewhale home (codewhale.md §2.6): the home is
 * `<workspace>/.codewhale`, so the user root `<home>/plugins` and the workspace root
 * `<workspace>/.codewhale/plugins` are one directory. Codewhale sorts what it loaded by scope
 * (user first), then name, then canonical root; a canonical root already seen is a
 * `duplicate-root` warning and the later discovery is dropped, so every bundle there is the
 * user's: its plugin id, trust and enable state are the user scope's (§7.6, §8.1), and a
 * workspace-scope item for it would bind trust to an id Codewhale never uses. Two bundles of
 * one name there shadow within the user scope, the first canonical root in byte order winning;
 * an invalid one is not discovered (§2.3 step 5) and takes no part.
 */

type Kind = 'plain' | 'json' | 'unsupported' | 'bad-name';

interface Bundle {
  readonly dir: string;
  readonly name: string;
  readonly kind: Kind;
}

function entries(b: Bundle): ShapeEntry[] {
  const at = (...parts: string[]) => shapePath('ws/.codewhale/plugins', b.dir, ...parts);
  if (b.kind === 'json')
    return [
      fileEntry(
        at('plugin.json'),
        JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/plugin.json', name: b.name, version: '1.0.0' }),
      ),
    ];
  const toml = ['schema_version = 1', '[plugin]', `name = "${b.name}"`, 'version = "1.0.0"'];
  if (b.kind === 'unsupported') toml.push('[lsp]', 'path = "lsp"');
  return [
    fileEntry(at('plugin.toml'), `${toml.join('\n')}\n`),
    ...(b.kind === 'unsupported' ? [fileEntry(at('lsp', 'server.json'), '{}\n')] : []),
  ];
}

export function generateCodewhaleDuplicateRoot(rng: Rng): Shape {
  const bundles: Bundle[] = [];
  const n = rng.range(1, 3);
  // Directory names in byte order `d0` < `d1` < `d2`: a name met twice is won by the lower one.
  const shared = rng.bool(0.35) ? 'twin' : undefined;
  for (let i = 0; i < n; i++) {
    const kind = rng.weighted<Kind>([
      [4, 'plain'],
      [2, 'json'],
      [1, 'unsupported'],
      [1, 'bad-name'],
    ]);
    // §3.8: upper case and `_` fail both the TOML and the Agent Plugins name rules.
    const name = kind === 'bad-name' ? `Bad_${i}` : shared && rng.bool(0.7) ? shared : `solo-${i}`;
    bundles.push({ dir: `d${i}`, name, kind });
  }
  const where = (b: Bundle) => shapePath('ws/.codewhale/plugins', b.dir);
  const winners = new Map<string, Bundle>();
  const fates: ShapeFate[] = bundles.map((b) => {
    if (b.kind === 'bad-name') return { system: 'codewhale', dir: where(b), scope: 'user', fate: 'rejected' };
    const winner = winners.get(b.name);
    if (winner) return { system: 'codewhale', dir: where(b), scope: 'user', fate: 'shadowed', winner: where(winner) };
    winners.set(b.name, b);
    return {
      system: 'codewhale',
      dir: where(b),
      scope: 'user',
      fate: b.kind === 'unsupported' ? 'inactive' : 'registry',
    };
  });
  return {
    shape: 'codewhale-duplicate-root',
    // `--eva-home` still names `home`, which must exist (the CLI refuses a home that does not).
    entries: [{ kind: 'dir', path: 'home' }, ...bundles.flatMap(entries)],
    owns: bundles.map(where),
    fates,
    userBundles: true,
    codewhaleHome: 'ws/.codewhale',
  };
}
