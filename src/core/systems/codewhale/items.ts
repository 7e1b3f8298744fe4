import { bundleKey } from '../../hashing/identity';
import { codewhalePluginId } from './identity';
import { trustGate, type GateContext } from '../../decisions/gates';
import { POLICY_V3 } from './activationPolicy';
import { onlyReason } from '../../decisions/reasonList';
import { flatJoin } from '../../text/detached';
import { summarizedInventory } from './inventory';
import { codewhaleCapabilities } from './capabilities';
import { FILE_START, type Diagnostic, type Item, type ReasonCode, type Decision, type Range } from '../../model';
import type { CodewhaleBundle } from './codewhaleBundle';
import { osBytes } from '../../fs/rawNames';

/** The detail of a part that has none: one frozen object for all of them (19,000 at 10,000 bundles). */
const NO_DETAIL: Item['detail'] = Object.freeze({});

export interface CodewhaleScan {
  readonly bundle: CodewhaleBundle;
  /** The workspace folder for workspace bundles; null for user bundles. */
  readonly workspace: string | null;
}

/**
 * Items for every Codewhale bundle, with shadowing across scopes (codewhale.md §2.6):
 * user beats workspace; only valid bundles take part; a canonical root seen twice is
 * a duplicate discovery.
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
  /** How many bundles taking part in shadowing (valid, with a root) have each name and each canonical root. */
  readonly names: Map<string, number>;
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
    if (takesPart(bundle)) {
      layout.names.set(bundle.name, (layout.names.get(bundle.name) ?? 0) + 1);
      layout.roots.set(bundle.canonicalRoot, (layout.roots.get(bundle.canonicalRoot) ?? 0) + 1);
    }
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
      if (takesPart(bundle)) {
        const holder = roots.get(bundle.canonicalRoot);
        if (holder !== undefined) {
          // The same directory, loaded again (a workspace opened at the home directory):
          // it has no item of its own and its findings repeat the holder's, so the one
          // warning names the item that holds the root (every itemId names an item).
          diagnostics.push(
            warning(
              'codewhale.duplicate-root',
              `Ignoring duplicate plugin discovery at ${bundle.dir}`,
              manifestStart(bundle).file,
              holder,
            ),
          );
          laidOut(bundle, workspace, itemsBefore, diagnosticsBefore);
          continue;
        }
        roots.set(bundle.canonicalRoot, id);
        const winner = winners.get(bundle.name);
        if (winner) {
          shadowedBy = winner;
          const w = items.find((i) => i.id === winner);
          const at = nameAnchor(bundle);
          own = [
            ...own,
            {
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
            },
          ];
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

/** Whether a bundle takes part in shadowing and duplicate detection (codewhale.md §2.6). */
export function takesPart(b: CodewhaleBundle): b is CodewhaleBundle & { readonly canonicalRoot: string } {
  return b.valid && !!b.canonicalRoot;
}

/** The start of a bundle's manifest; its directory when no manifest was resolved (bundleJob.ts). */
function manifestStart(b: CodewhaleBundle): { file: string; range: Range } {
  return { file: b.manifestFile ?? b.dir, range: FILE_START };
}

/** Where a bundle is shown: its `name` in the manifest, else the manifest's start. */
function nameAnchor(b: CodewhaleBundle): { file: string; range: Range } {
  return b.anchors['name'] ?? manifestStart(b);
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

/**
 * What is worked out once per loaded bundle and reused by every snapshot until the
 * bundle is re-read: its precedence key, ids, tagged diagnostics and last items.
 * One lookup per bundle per snapshot keeps a snapshot after a one-bundle change
 * cheap in a workspace of thousands of bundles.
 */
interface BundleMemo {
  readonly orderKey: Buffer;
  readonly id: string;
  key?: string;
  own?: readonly Diagnostic[];
  items?: { readonly inputs: ItemInputs; readonly items: Item[] };
}

/**
 * What decides a bundle's items besides the bundle itself: unchanged inputs, the same items.
 * The id is the memo's own, and the diagnostics are the bundle's plus, exactly when it is
 * shadowed, the name-conflict warning: neither can change while these stay the same.
 */
interface ItemInputs {
  readonly workspace: string | null;
  readonly shadowedBy: string | null;
  /** The trust state as JSON ('null' when the store has none for the bundle). */
  readonly state: string;
  readonly workspaceTrusted: boolean;
}

const memos = new WeakMap<CodewhaleBundle, BundleMemo>();

function memoOf(b: CodewhaleBundle): BundleMemo {
  let memo = memos.get(b);
  if (!memo) {
    memo = {
      orderKey: precedenceKey(b),
      id: b.pluginId ?? codewhalePluginId(b.scope, osBytes(b.canonicalRoot ?? b.dir), b.name),
    };
    memos.set(b, memo);
  }
  return memo;
}

/**
 * Precedence within one scope (codewhale.md §2.6) as one byte string: name, then
 * canonical root, compared as UTF-8 (raw) bytes as upstream compares them; UTF-16
 * order would keep the other of two roots such as `！` (U+FF01) and `😀` (U+1F600).
 * Neither a name nor a path holds a NUL, so the NUL-joined key orders field by field.
 * Scope comes first by the order of the passes: every list placed is of one scope
 * (user bundles, or one workspace's), and the user's pass runs first.
 */
function precedenceKey(b: CodewhaleBundle): Buffer {
  return Buffer.concat([osBytes(b.name), NUL, osBytes(b.canonicalRoot ?? b.dir)]);
}

const NUL = Buffer.from([0]);

/** The list in precedence order, by each bundle's memoized key. */
function inPrecedenceOrder(list: readonly CodewhaleScan[]): { scan: CodewhaleScan; memo: BundleMemo }[] {
  return list
    .map((scan) => ({ scan, memo: memoOf(scan.bundle) }))
    .sort((a, b) => Buffer.compare(a.memo.orderKey, b.memo.orderKey));
}

/** The bundle's trust-store key. */
function keyOf(b: CodewhaleBundle, memo: BundleMemo): string {
  return (memo.key ??= bundleKey('codewhale', b.scope, b.canonicalRoot ?? b.dir, b.name));
}

/** The bundle's own diagnostics, tagged with its item id. */
function ownDiagnostics(b: CodewhaleBundle, memo: BundleMemo): readonly Diagnostic[] {
  return (memo.own ??= b.diagnostics.map((d) => ({ ...d, itemId: memo.id })));
}

function cachedBundleItems(
  b: CodewhaleBundle,
  memo: BundleMemo,
  workspace: string | null,
  shadowedBy: string | null,
  diagnostics: readonly Diagnostic[],
  ctx: GateContext,
): Item[] {
  const state = ctx.trust.available ? ctx.trust.lookup(keyOf(b, memo)) : 'unavailable';
  const inputs: ItemInputs = {
    workspace,
    shadowedBy,
    state: JSON.stringify(state ?? null),
    workspaceTrusted: ctx.workspaceTrusted,
  };
  if (memo.items && sameInputs(memo.items.inputs, inputs)) return memo.items.items;
  const items = bundleItems(b, memo.id, workspace, shadowedBy, diagnostics, ctx, keyOf(b, memo));
  memo.items = { inputs, items };
  return items;
}

function sameInputs(a: ItemInputs, b: ItemInputs): boolean {
  return (
    a.workspace === b.workspace &&
    a.shadowedBy === b.shadowedBy &&
    a.state === b.state &&
    a.workspaceTrusted === b.workspaceTrusted
  );
}

function bundleItems(
  b: CodewhaleBundle,
  id: string,
  workspace: string | null,
  shadowedBy: string | null,
  diagnostics: readonly Diagnostic[],
  ctx: GateContext,
  key: string,
): Item[] {
  const gate = trustGate(
    { bundleKey: key, contentHash: b.contentHash ?? null, capabilityHash: b.capabilityHash ?? null },
    ctx,
  );
  let decision: Decision;
  let reasons: readonly ReasonCode[];
  if (!b.valid) {
    decision = 'rejected';
    reasons = onlyReason('manifest_invalid');
  } else if (shadowedBy) {
    decision = 'shadowed';
    reasons = onlyReason('name_conflict');
  } else {
    const gateReasons: ReasonCode[] = [...gate.reasons];
    if (!b.when.applicable) gateReasons.push('not_applicable');
    // Any skill diagnostic fails Codewhale's trusted snapshot (codewhale.md §5.3, §8.6): it holds
    // whatever the gates say, so it is listed with them; trusting and enabling would not activate it.
    if (diagnostics.some((d) => d.code === 'codewhale.skill-invalid')) gateReasons.push('staged_skill_invalid');
    if (b.compatibility?.compatibility === 'unsupported') {
      decision = 'display_only';
      reasons = ['unsupported_components', ...gateReasons];
    } else if (gateReasons.length > 0) {
      decision = 'disabled';
      reasons = gateReasons;
    } else {
      decision = 'registered';
      reasons = onlyReason('active');
    }
  }
  const active = decision === 'registered';
  const bundle: Item = {
    id,
    system: 'codewhale',
    kind: 'plugin',
    name: b.name,
    qualifiedName: b.name,
    scope: b.scope,
    workspace,
    path: b.dir,
    location: nameAnchor(b),
    parent: null,
    decision,
    reasons,
    shadowedBy,
    trust: gate.trust,
    enabled: gate.enabled,
    compatibility: b.compatibility?.compatibility ?? null,
    contentHash: b.contentHash ?? null,
    capabilityHash: b.capabilityHash ?? null,
    reviewToken: b.reviewToken ?? null,
    detail: {
      bundleKey: key,
      ...(typeof b.description === 'string' ? { description: b.description } : {}),
      ...(b.version ? { version: b.version } : {}),
      ...(b.label ? { manifest: b.label } : {}),
      ...(b.inventory ? { inventory: summarizedInventory(b.inventory) } : {}),
      // The walk's own list, shared: nobody changes it, and a copy per snapshot cost 95,000 objects at 10,000 bundles.
      files: b.files,
      capabilities: codewhaleCapabilities(b),
      activation: {
        policy: POLICY_V3.version,
        applicable: b.when.applicable,
        whenReasons: b.when.reasons,
        supportedComponents: b.compatibility?.supportedLabels ?? [],
        inactiveComponents: b.compatibility?.unsupportedLabels ?? [],
      },
      agentIdentity: { pluginId: b.pluginId ?? null, canonicalRoot: b.canonicalRoot ?? null },
    },
  };
  const items: Item[] = [bundle];
  const child = (
    kind: Item['kind'],
    suffix: string,
    name: string,
    qualifiedName: string,
    decisionOf: () => [Decision, readonly ReasonCode[]],
    location: Item['location'],
    detail: Item['detail'] = NO_DETAIL,
  ): Item => {
    const [d, r] = decisionOf();
    return {
      id: flatJoin(id, '#', suffix),
      system: 'codewhale',
      kind,
      name,
      qualifiedName,
      scope: b.scope,
      workspace,
      path: location.file,
      location,
      parent: id,
      decision: d,
      reasons: r,
      shadowedBy: null,
      trust: null,
      enabled: null,
      compatibility: null,
      contentHash: null,
      capabilityHash: null,
      reviewToken: null,
      detail,
    };
  };
  const inherited = (): [Decision, readonly ReasonCode[]] =>
    active ? ['registered', onlyReason('component_active')] : ['disabled', onlyReason('bundle_inactive')];
  const skillNames = new Map<string, number>();
  for (const s of b.skills) skillNames.set(s.name, (skillNames.get(s.name) ?? 0) + 1);
  for (const s of b.skills) {
    const hasError = diagnostics.some((d) => d.file === s.file && d.severity === 'error');
    items.push(
      child(
        'skill',
        skillSuffix(s.name, s.rel, (skillNames.get(s.name) ?? 0) > 1),
        s.name,
        flatJoin(b.name, ':', s.name),
        () => (hasError ? ['rejected', onlyReason('skill_invalid')] : inherited()),
        { file: s.file, range: FILE_START },
        { description: s.description },
      ),
    );
  }
  const servers = (b.mcpServerIds ?? []).map((s) => ({ id: s, at: b.anchors[`mcp:${s}`] ?? manifestStart(b) }));
  const broken = brokenServers(servers, diagnostics);
  for (const { id: server, at: anchor } of servers) {
    items.push(
      child(
        'mcp-server',
        `mcp/${server}`,
        server,
        flatJoin(b.name, ':', server),
        () =>
          broken.has(server)
            ? ['rejected', onlyReason('component_invalid')]
            : active && !configuredOn(b, server)
              ? ['disabled', onlyReason('disabled_by_manifest')]
              : inherited(),
        anchor,
      ),
    );
  }
  const inactive = new Set<string>(b.compatibility?.unsupportedLabels);
  const componentKinds: string[] = Object.keys(b.capabilities?.components ?? {}).filter((k) => k !== 'skills');
  if ((b.inventory?.filesystem_roots.length ?? 0) > 0) componentKinds.push('filesystem-roots');
  if (b.inventory?.lifecycle_mutation) componentKinds.push('lifecycle-mutation');
  for (const kind of componentKinds) {
    const anchor = b.anchors[`component:${kind}`] ?? nameAnchor(b);
    items.push(
      child(
        'component',
        `component/${kind}`,
        kind,
        flatJoin(b.name, ':', kind),
        () => (inactive.has(kind) ? ['display_only', onlyReason('component_inactive')] : inherited()),
        anchor,
      ),
    );
  }
  return items;
}

/**
 * A skill's id suffix: `skill/<name>`, stable and readable, while the name is the
 * bundle's only skill of that name. Names that normalise alike (`a b`, `A-B`, `a_b`
 * are all `a-b`, a fatal duplicate) would share it, so each of those adds its
 * bundle-relative path, percent-encoded by its bytes: `skill/a-b@skills/a%20b/SKILL.md`.
 * A normalised name holds no `@`, so the two forms never meet.
 */
function skillSuffix(name: string, rel: string, shared: boolean): string {
  if (!shared) return `skill/${name}`;
  let encoded = '';
  for (const byte of osBytes(rel))
    encoded += ID_SAFE.test(String.fromCharCode(byte))
      ? String.fromCharCode(byte)
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return `skill/${name}@${encoded}`;
}

/** Tested on one character at a time. */
const ID_SAFE = /[A-Za-z0-9._~/-]/;

/**
 * The MCP servers an error belongs to (`component_invalid`): the server its message names
 * (`server \`id\``), else, for a finding of an MCP rule in upstream's words that name none
 * (a bad command, URL or tool filter), the server whose declaration holds it: the last
 * server key at or before it in its file.
 */
function brokenServers(
  servers: readonly { readonly id: string; readonly at: { readonly file: string; readonly range: Range } }[],
  diagnostics: readonly Diagnostic[],
): Set<string> {
  const broken = new Set<string>();
  for (const d of diagnostics) {
    if (d.severity !== 'error') continue;
    const named = SERVER_NAMED.exec(d.message)?.[1];
    const mcpRule = d.code.startsWith('codewhale.mcp.');
    let owner: (typeof servers)[number] | undefined;
    for (const s of servers) {
      if (s.at.file !== d.file) continue;
      if (named !== undefined) {
        if (s.id === named) owner = s;
      } else if (
        mcpRule &&
        !isBefore(d.range.start, s.at.range.start) &&
        (!owner || isBefore(owner.at.range.start, s.at.range.start))
      )
        owner = s;
    }
    if (owner) broken.add(owner.id);
  }
  return broken;
}

const SERVER_NAMED = /server `([^`]*)`/;

function isBefore(a: Range['start'], b: Range['start']): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
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

/**
 * Whether the manifest turns an MCP server on (`enabled` and not `disabled`, codewhale.md
 * §9.1's `configured-on`): Codewhale starts no server configured off, however active its
 * bundle, so such a server is never said to be loaded.
 */
function configuredOn(b: CodewhaleBundle, server: string): boolean {
  const s = b.capabilities?.mcpServers?.[server];
  return s === undefined || s.enabled;
}
