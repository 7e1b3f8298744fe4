import type { Rng } from './random';
import { shapePath, type Shape, type ShapeEntry } from './shapeTree';
import type { ShapeFate } from './shapeFates';
import { drawOneRootBundles, oneRootEntries, oneRootFates, type OneRootBundle } from './codewhaleDuplicateRoot';

/**
 * The workspace's Codewhale root reached as the user's through a symbolic link, with
 * Codewhale's home at `cw` (beside `home`, which the other shapes and the copied user
 * bundles use). Which discovery Codewhale keeps turns on where the link is, because a root is
 * checked with lstat, which looks at its last component only (codewhale.md §2.2; upstream
 * discovery.rs `scan_root`, `fs::symlink_metadata(root)`):
 *
 * - `home-link`: the home `cw` is a link to `ws/.codewhale`. The user root `cw/plugins` is no
 *   link, and canonicalizes to the workspace root: each bundle is discovered twice, the user's
 *   first (§2.6: by scope, user before workspace), and the workspace's is a `duplicate-root`
 *   warning and dropped. The bundle is the user's, listed as spelled under the home given.
 * - `plugins-link`: the user root `cw/plugins` is itself a link to `ws/.codewhale/plugins`:
 *   `root-symlink`, and nothing is discovered through it (§2.2), so each bundle there is the
 *   workspace's alone. The worst direction for Skillgate: a Skillgate that followed the link
 *   and took the user root as the same directory (the user winning, as in `home-link`) would
 *   show every bundle Codewhale loads as shadowed, or not at all, and `check` would pass it.
 *
 * Either way the other spelling of a bundle names a discovery Codewhale never keeps (`alias`).
 */

export type Link = 'home-link' | 'plugins-link';

const WS_ROOT = 'ws/.codewhale/plugins';
const USER_ROOT = 'cw/plugins';

const LINKS: readonly Link[] = ['home-link', 'plugins-link'];

export function generateCodewhaleLinkedRoot(rng: Rng): Shape {
  const link = rng.pick(LINKS);
  const bundles = drawOneRootBundles(rng);
  const at = (root: string) => (b: OneRootBundle) => shapePath(root, b.dir);
  // The spelling Codewhale keeps, and the one it drops or never makes.
  const [kept, dropped] = link === 'home-link' ? [USER_ROOT, WS_ROOT] : [WS_ROOT, USER_ROOT];
  const fates: ShapeFate[] = oneRootFates(bundles, at(kept)).map((f, n) => ({
    ...f,
    alias: at(dropped)(bundles[n] as OneRootBundle),
  }));
  const linkEntry: ShapeEntry =
    link === 'home-link'
      ? { kind: 'link', path: 'cw', target: 'ws/.codewhale' }
      : { kind: 'link', path: USER_ROOT, target: '../ws/.codewhale/plugins' };
  return {
    shape: 'codewhale-linked-root',
    // The bundles are written where they are, then the link; `--eva-home` still names `home`.
    entries: [
      { kind: 'dir', path: 'home' },
      { kind: 'dir', path: WS_ROOT },
      ...(link === 'plugins-link' ? [{ kind: 'dir' as const, path: 'cw' }] : []),
      ...bundles.flatMap((b) => oneRootEntries(b, WS_ROOT)),
      linkEntry,
    ],
    // The link and every bundle: an op on either spelling, or above one, voids the fates.
    owns: [link === 'home-link' ? 'cw' : USER_ROOT, ...bundles.map(at(WS_ROOT))],
    fates,
    userBundles: true,
    codewhaleHome: 'cw',
  };
}

const SECOND_FOLDER = 'ws2';

/**
 * The shape with a second workspace folder, `ws2`, whose `.codewhale` is a link to `ws`'s: both
 * folders' roots canonicalize to one directory, so each bundle there is one bundle of one plugin
 * id (codewhale.md §7.6: scope, canonical root, name), listed in `ws`, and `ws2`'s discovery of it
 * is a duplicate (§2.6 `duplicate-root`), valid or not. Only two folders give two workspace
 * discoveries of one id: `ws` given twice is one folder (the index folds spellings of a folder),
 * and the home's discovery is the user scope's. Two items of one id (an invalid bundle listed in
 * both folders) were `ids-unique`'s to find; the fates stay `ws`'s and the home's.
 */
export function withSecondFolder(shape: Shape): Shape {
  return {
    ...shape,
    entries: [
      ...shape.entries,
      { kind: 'dir', path: SECOND_FOLDER },
      { kind: 'link', path: `${SECOND_FOLDER}/.codewhale`, target: '../ws/.codewhale' },
    ],
    owns: [...shape.owns, SECOND_FOLDER],
    workspaces: [SECOND_FOLDER],
  };
}
