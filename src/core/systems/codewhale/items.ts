import type { GateContext } from '../../decisions/gates';
import { FILE_START, type Diagnostic, type Item, type Range } from '../../model';
import type { CodewhaleBundle } from './codewhaleBundle';
import { manifestStart, nameAnchor } from './bundleLocation';
import { cachedBundleItems, memoOf, ownDiagnostics, type BundleMemo } from './bundleMemo';

export interface CodewhaleScan {
  readonly bundle: CodewhaleBundle;
  /** The workspace folder for workspace bundles; null for user bundles. */
  readonly workspace: string | null;
}

/**
 * Items for every Codewhale bundle, with shadowing across scopes (codewhale.md §2.6):
 * user beats workspace; only valid bundles shadow by name; a canonical root seen twice,
 * valid or not, is a duplicate discovery.
 */
export interface CodewhaleItems {
  readonly items: readonly Item[];
  readonly diagnostics: readonly Diagnostic[];
  readonly layout: CodewhaleLayout;
}

/** Where each bundle's output sits, for patching it (itemCache.ts). */
export interface CodewhaleLayout {
  /** Each bundle's position in output order (the index into the per-bundle lists below). */
  readonly positions: Map<CodewhaleBundle, number>;
  readonly workspaces: (string | null)[];
  /**
   * How many items and diagnostics each bundle placed, as placed: the cache cuts the flat
   * lists into one part per bundle by them once; a patch then replaces parts, not these.
   */
  readonly itemCounts: number[];
  readonly diagnosticCounts: number[];
  /** How many bundles that shadow by name (valid ones) have each name. */
  readonly names: Map<string, number>;
  /** How many bundles, valid or not, have each canonical root. */
  readonly roots: Map<string, number>;
}

export function codewhaleItems(scans: readonly CodewhaleScan[], ctx: GateContext): CodewhaleItems {
  const items: Item[] = [];
  const diagnostics: Diagnostic[] = [];
  const layout: CodewhaleLayout = {
    positions: new Map(),
    workspaces: [],
    itemCounts: [],
    diagnosticCounts: [],
    names: new Map(),
    roots: new Map(),
  };
  const laidOut = (
    bundle: CodewhaleBundle,
    workspace: string | null,
    itemsBefore: number,
    diagnosticsBefore: number,
  ) => {
    layout.positions.set(bundle, layout.workspaces.length);
    layout.workspaces.push(workspace);
    layout.itemCounts.push(items.length - itemsBefore);
    layout.diagnosticCounts.push(diagnostics.length - diagnosticsBefore);
    if (shadowsByName(bundle)) layout.names.set(bundle.name, (layout.names.get(bundle.name) ?? 0) + 1);
    if (bundle.canonicalRoot !== undefined)
      layout.roots.set(bundle.canonicalRoot, (layout.roots.get(bundle.canonicalRoot) ?? 0) + 1);
  };
  // Codewhale runs in one workspace at a time: each workspace folder sees the user
  // bundles and its own, never another folder's.
  // Winners by name and by canonical root, each the id of the item that holds it.
  const user = { winners: new Map<string, string>(), roots: new Map<string, string>() };
  const place = (list: readonly CodewhaleScan[], winners: Map<string, string>, roots: Map<string, string>) => {
    for (const { scan, memo } of inPrecedenceOrder(list)) {
      const { bundle, workspace } = scan;
      const id = memo.id;
      const itemsBefore = items.length;
      const diagnosticsBefore = diagnostics.length;
      let own = ownDiagnostics(bundle, memo);
      let shadowedBy: string | null = null;
      if (bundle.canonicalRoot !== undefined) {
        const holder = roots.get(bundle.canonicalRoot);
        if (holder !== undefined) {
          // The same directory, loaded again (a workspace opened at the home directory):
          // it has no item of its own and its findings repeat the holder's, so the one
          // warning names the item that holds the root (every itemId names an item). An
          // invalid bundle too: Codewhale discovers it nowhere, and a second item of it
          // would, in one scope, repeat the holder's id (§7.6: scope, root and name).
          diagnostics.push(duplicateRoot(bundle, holder));
          laidOut(bundle, workspace, itemsBefore, diagnosticsBefore);
          continue;
        }
        roots.set(bundle.canonicalRoot, id);
      }
      if (shadowsByName(bundle)) {
        const winner = winners.get(bundle.name);
        if (winner) {
          shadowedBy = winner;
          const w = items.find((i) => i.id === winner);
          own = [...own, nameConflict(bundle, id, w)];
        } else winners.set(bundle.name, id);
      }
      for (const d of own) diagnostics.push(d);
      for (const item of cachedBundleItems(bundle, memo, workspace, shadowedBy, own, ctx)) items.push(item);
      laidOut(bundle, workspace, itemsBefore, diagnosticsBefore);
    }
  };
  const byWorkspace = new Map<string, CodewhaleScan[]>();
  const userScans: CodewhaleScan[] = [];
  for (const s of scans) {
    if (s.workspace === null) userScans.push(s);
    else {
      const list = byWorkspace.get(s.workspace);
      if (list) list.push(s);
      else byWorkspace.set(s.workspace, [s]);
    }
  }
  place(userScans, user.winners, user.roots);
  // A root is one directory however many folders reach it: two folders whose `.codewhale` links to one
  // place have one bundle there, of one plugin id (§7.6) and one trust record. The first folder lists
  // it; a later one has a duplicate discovery, as for a root met twice in one folder, never a second
  // item of the same id.
  const rootsSeen = new Map(user.roots);
  for (const list of byWorkspace.values()) {
    const roots = new Map(rootsSeen);
    place(list, new Map(user.winners), roots);
    for (const [root, holder] of roots) if (!rootsSeen.has(root)) rootsSeen.set(root, holder);
  }
  return { items, diagnostics, layout };
}

/**
 * Whether a bundle shadows same-named ones (codewhale.md §2.6: only bundles that validated;
 * an invalid user bundle `demo` does not shadow a valid workspace bundle `demo`).
 */
export function shadowsByName(b: CodewhaleBundle): boolean {
  return b.valid;
}

/** A bundle's output when no other bundle shares its name or root: its own diagnostics and items. */
export function placedAlone(
  bundle: CodewhaleBundle,
  workspace: string | null,
  ctx: GateContext,
): { items: readonly Item[]; diagnostics: readonly Diagnostic[] } {
  const memo = memoOf(bundle);
  const own = ownDiagnostics(bundle, memo);
  return { items: cachedBundleItems(bundle, memo, workspace, null, own, ctx), diagnostics: own };
}

/** The list in precedence order, by each bundle's memoized key. */
function inPrecedenceOrder(list: readonly CodewhaleScan[]): { scan: CodewhaleScan; memo: BundleMemo }[] {
  return list
    .map((scan) => ({ scan, memo: memoOf(scan.bundle) }))
    .sort((a, b) => Buffer.compare(a.memo.orderKey, b.memo.orderKey));
}

/** A root met again (§2.6 `duplicate-root`), at the later bundle's manifest, naming the item that holds the root. */
function duplicateRoot(bundle: CodewhaleBundle, holder: string): Diagnostic {
  return warning(
    'codewhale.duplicate-root',
    `Ignoring duplicate plugin discovery at ${bundle.dir}`,
    manifestStart(bundle).file,
    holder,
  );
}

/** A name met again (§2.6 `name-conflict`), on the shadowed bundle's item; `w` is the item that wins. */
function nameConflict(bundle: CodewhaleBundle, id: string, w: Item | undefined): Diagnostic {
  const at = nameAnchor(bundle);
  return {
    // Upstream's message, at the conflicting `name`; the winner and where it lives as related information.
    ...warning(
      'codewhale.name-conflict',
      `Plugin \`${bundle.name}\` at ${bundle.dir} is shadowed by the higher-precedence bundle with the same name`,
      at.file,
      id,
      at.range,
    ),
    ...(w
      ? {
          related: [
            {
              file: w.location.file,
              range: w.location.range,
              message: `The ${w.scope} bundle \`${w.name}\` in ${w.path} wins: Codewhale loads it instead of this one. Rename this bundle to load both.`,
            },
          ],
        }
      : {}),
  };
}

function warning(
  code: 'codewhale.duplicate-root' | 'codewhale.name-conflict',
  message: string,
  file: string,
  itemId: string,
  range: Range = FILE_START,
): Diagnostic {
  return { file, range, severity: 'warning', code, message, itemId };
}
