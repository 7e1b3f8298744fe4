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

/** A bundle of one Codewhale root: its directory (`d0` < `d1` < `d2`), plugin name and kind. */
export interface OneRootBundle {
  readonly dir: string;
  readonly name: string;
  readonly kind: Kind;
}

/** Its entries under the root `base` (root-relative). */
export function oneRootEntries(b: OneRootBundle, base: string): ShapeEntry[] {
  const at = (...parts: string[]) => shapePath(base, b.dir, ...parts);
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

/** 1-3 bundles, valid in either format, unsupported, or of a name no format allows, at times two of one name. */
export function drawOneRootBundles(rng: Rng): OneRootBundle[] {
  const bundles: OneRootBundle[] = [];
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
  return bundles;
}

/**
 * Their fates, all of one scope in one canonical root (§2.6): an invalid one is not discovered
 * (§2.3 step 5); of one name the first canonical root in byte order wins; an unsupported one is
 * kept, and shadows, but can never be enabled (§6.3). `where` gives a bundle's directory as listed.
 */
export function oneRootFates(
  bundles: readonly OneRootBundle[],
  where: (b: OneRootBundle) => string,
): Extract<ShapeFate, { system: 'codewhale' }>[] {
  const winners = new Map<string, OneRootBundle>();
  return bundles.map((b) => {
    if (b.kind === 'bad-name') return { system: 'codewhale', dir: where(b), fate: 'rejected' };
    const winner = winners.get(b.name);
    if (winner) return { system: 'codewhale', dir: where(b), fate: 'shadowed', winner: where(winner) };
    winners.set(b.name, b);
    return { system: 'codewhale', dir: where(b), fate: b.kind === 'unsupported' ? 'inactive' : 'registry' };
  });
}

export function generateCodewhaleDuplicateRoot(rng: Rng): Shape {
  const bundles = drawOneRootBundles(rng);
  const where = (b: OneRootBundle) => shapePath('ws/.codewhale/plugins', b.dir);
  const fates: ShapeFate[] = oneRootFates(bundles, where).map((f) => ({ ...f, scope: 'user' }));
  return {
    shape: 'codewhale-duplicate-root',
    // `--eva-home` still names `home`, which must exist (the CLI refuses a home that does not).
    entries: [{ kind: 'dir', path: 'home' }, ...bundles.flatMap((b) => oneRootEntries(b, 'ws/.codewhale/plugins'))],
    owns: bundles.map(where),
    fates,
    userBundles: true,
    codewhaleHome: 'ws/.codewhale',
  };
}
