import * as path from 'node:path';
import { canonicalPath } from '../../fs/safeFs';
import { respelled } from '../../fs/folderSpellings';
import { isAncestor } from '../../fs/portablePath';

/**
 * Another spelling of a discovery root, or of the folder above it: `real`, where the links on
 * the way lead (a canonical path), and `own`, the root's spelling of that same directory. A
 * watcher reports a change under the spelling of the watcher that saw it (the folder as opened,
 * a linked `.codewhale`'s target, Codewhale's home as given), and an item is spelled under the
 * root that keeps it, which need not be the root whose discovery the change touches: with
 * `~/.codewhale -> ws/.codewhale` both roots list one directory (codewhale.md §2.6
 * `duplicate-root`), and an edit of the user's item, spelled `~/.codewhale/plugins/…`, changes
 * the workspace's discovery of it too.
 */
export interface RootAlias {
  readonly own: string;
  readonly real: string;
}

/**
 * The aliases of a root, read when the root is listed: its canonical path (`canonicalRoot`, or,
 * for a root that was not canonicalized, where it leads: a root that is a link is refused,
 * codewhale.md §2.2 `root-symlink`, but a change spelled through it is one in its target, which
 * another root may list), and its parent's (a root made later, `plugins` created under a linked
 * `.codewhale` or a linked home, has no canonical path yet). None that is the spelling itself.
 */
export function rootAliases(root: string, canonicalRoot: string | undefined): RootAlias[] {
  const aliases: RootAlias[] = [];
  const add = (own: string, real: string | undefined) => {
    if (real !== undefined && real !== own) aliases.push({ own, real });
  };
  add(root, canonicalRoot ?? canonicalPath(root));
  // A root canonicalized is no link (scanRoot refuses one first): its parent leads where its real path's does.
  const parent = path.dirname(root);
  add(parent, canonicalRoot !== undefined ? path.dirname(canonicalRoot) : canonicalPath(parent));
  return aliases;
}

/**
 * The aliases of a root when a change is tried against it: `listed`, read when it was listed, and,
 * for a root that did not resolve then (`canonicalRoot` undefined), where it leads now. A root
 * behind a link whose target did not exist yet (`~/.codewhale -> /data/cw`, `/data/cw` made later
 * with `plugins/x/plugin.toml`) had no real path, nor had its parent, so `listed` is empty, and
 * the change that makes the target, reported under another root that leads there (the workspace's
 * `.codewhale -> /data/cw`, or `~/.codewhale -> ws/.codewhale`), re-read that root alone: the
 * duplicate discovery a fresh index lists (codewhale.md §2.6) stayed missing. The change comes
 * after the target is made, so it resolves now. A root that resolved when listed has both aliases
 * already and costs no I/O; one that did not costs two `realpath` calls per batch of changes.
 */
export function aliasesAtChange(
  root: string,
  canonicalRoot: string | undefined,
  listed: readonly RootAlias[],
): RootAlias[] {
  if (canonicalRoot !== undefined) return [...listed];
  const now = rootAliases(root, undefined).filter(
    (alias) => !listed.some((old) => old.own === alias.own && old.real === alias.real),
  );
  return [...listed, ...now];
}

/**
 * A reported change under each root's real path: as reported, and respelled from every root's
 * spelling to where it leads (`all`: every root's aliases). A change spelled under one root
 * (`~/.codewhale/plugins/…`, the path of the user's item) so reaches every root that leads to
 * the same directory (the workspace's `.codewhale/plugins`, which `~/.codewhale` links to), and
 * the reverse. Respelling is folderSpellings.ts `respelled`: no I/O, and each path is one the
 * changed file may be named by while the links stand.
 */
export function realSpellings(reported: string, all: readonly RootAlias[]): Set<string> {
  const reals = new Set([reported]);
  for (const alias of all) {
    const real = respelled(reported, alias.own, alias.real);
    if (real !== undefined) reals.add(real);
  }
  return reals;
}

/**
 * The paths under which a change (`reals`, from `realSpellings`) is tried against one root:
 * each one spelled under `root` by the root's `own` aliases, and also as it is (a `.codewhale`
 * that leads back up, `-> .`, replaced and reported as `ws/.codewhale`, is respelled
 * `ws/.codewhale/.codewhale`, above no root, and lists the root again only as reported). One
 * already spelled under `root` stays as it is: a root that leads back into its own real path
 * (`plugins/.codewhale -> ..` makes the root the workspace folder) would otherwise be respelled a
 * second time, to a bundle that is none.
 */
export function spellingsInRoot(reals: ReadonlySet<string>, root: string, own: readonly RootAlias[]): Set<string> {
  const spellings = new Set<string>();
  for (const p of reals) {
    if (p === root || isAncestor(root, p)) {
      spellings.add(p);
      continue;
    }
    for (const alias of own) {
      const spelled = respelled(p, alias.real, alias.own);
      if (spelled !== undefined) spellings.add(spelled);
    }
    spellings.add(p);
  }
  return spellings;
}
