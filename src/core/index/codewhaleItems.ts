import { bundleKey, codewhalePluginId } from '../hashing/identity';
import { trustGate, type GateContext } from '../decisions/gates';
import { POLICY_V3 } from '../hashing/activationPolicy';
import { inventorySummary } from '../codewhale/inventory';
import { FILE_START, type Diagnostic, type Item, type ReasonCode, type Decision } from '../model';
import type { CodewhaleBundle } from '../codewhale/bundle';

export interface CodewhaleScan {
  readonly bundle: CodewhaleBundle;
  /** The workspace folder for workspace bundles; null for user bundles. */
  readonly workspace: string | null;
}

const SCOPE_RANK = { user: 1, workspace: 2 } as const;

/**
 * Items for every Codewhale bundle, with shadowing across scopes (codewhale.md §2.6):
 * user beats workspace; only valid bundles take part; a canonical root seen twice is
 * a duplicate discovery.
 */
export function codewhaleItems(scans: readonly CodewhaleScan[], ctx: GateContext): { items: Item[]; diagnostics: Diagnostic[] } {
  const items: Item[] = [];
  const diagnostics: Diagnostic[] = [];
  const order = (list: readonly CodewhaleScan[]) => [...list].sort((a, b) => cmp(orderKey(a.bundle), orderKey(b.bundle)));
  // Codewhale runs in one workspace at a time: each workspace folder sees the user
  // bundles and its own, never another folder's.
  const user = { winners: new Map<string, string>(), roots: new Set<string>() };
  const place = (list: readonly CodewhaleScan[], winners: Map<string, string>, roots: Set<string>) => {
    for (const { bundle, workspace } of order(list)) {
      const id = idOf(bundle);
      const own: Diagnostic[] = [...ownDiagnostics(bundle, id)];
      let shadowedBy: string | null = null;
      if (bundle.valid && bundle.canonicalRoot) {
        if (roots.has(bundle.canonicalRoot)) {
          own.push(warning('codewhale.duplicate-root', `Ignoring duplicate plugin discovery at ${bundle.dir}`, bundle.manifestFile ?? bundle.dir, id));
          diagnostics.push(...own);
          continue;
        }
        roots.add(bundle.canonicalRoot);
        const winner = winners.get(bundle.name);
        if (winner) {
          shadowedBy = winner;
          const w = items.find((i) => i.id === winner);
          own.push({
            ...warning('codewhale.name-conflict', `Plugin \`${bundle.name}\` at ${bundle.dir} is shadowed by the higher-precedence bundle with the same name`, bundle.manifestFile ?? bundle.dir, id),
            ...(w ? { related: [{ file: w.location.file, range: w.location.range, message: `the ${w.scope} bundle \`${w.name}\` wins` }] } : {}),
          });
        } else winners.set(bundle.name, id);
      }
      for (const d of own) diagnostics.push(d);
      for (const item of cachedBundleItems(bundle, workspace, id, shadowedBy, own, ctx)) items.push(item);
    }
  };
  place(scans.filter((s) => s.workspace === null), user.winners, user.roots);
  const workspaces = [...new Set(scans.map((s) => s.workspace).filter((w): w is string => w !== null))];
  for (const ws of workspaces) place(scans.filter((s) => s.workspace === ws), new Map(user.winners), new Set(user.roots));
  return { items, diagnostics };
}

/**
 * Items of an unchanged bundle are reused as long as what decides them is the same:
 * its shadowing, its trust state and the host gates. This keeps a snapshot after a
 * one-bundle change proportional to that bundle, not to the workspace.
 */
interface ItemInputs {
  readonly workspace: string | null;
  readonly id: string;
  readonly shadowedBy: string | null;
  /** The trust state as JSON ('' when the store has none for the bundle). */
  readonly state: string;
  readonly workspaceTrusted: boolean;
  readonly diagnosticCount: number;
}
const itemCache = new WeakMap<CodewhaleBundle, { inputs: ItemInputs; items: Item[] }>();
const keyCache = new WeakMap<CodewhaleBundle, string>();
const diagnosticCache = new WeakMap<CodewhaleBundle, { id: string; diagnostics: Diagnostic[] }>();

const orderKeys = new WeakMap<CodewhaleBundle, string>();

/** Precedence order, as one string per loaded bundle: scope rank, then name, then canonical root. */
function orderKey(b: CodewhaleBundle): string {
  let key = orderKeys.get(b);
  if (key === undefined) {
    key = `${SCOPE_RANK[b.scope]}\0${b.name}\0${b.canonicalRoot ?? b.dir}`;
    orderKeys.set(b, key);
  }
  return key;
}

const idCache = new WeakMap<CodewhaleBundle, string>();

/** The item id: the plugin id, or for a bundle that never got one (invalid), the same id from its directory. */
function idOf(b: CodewhaleBundle): string {
  if (b.pluginId) return b.pluginId;
  let id = idCache.get(b);
  if (id === undefined) {
    id = codewhalePluginId(b.scope, Buffer.from(b.canonicalRoot ?? b.dir), b.name);
    idCache.set(b, id);
  }
  return id;
}

/** The bundle's trust-store key, computed once per loaded bundle. */
function keyOf(b: CodewhaleBundle): string {
  let key = keyCache.get(b);
  if (key === undefined) {
    key = bundleKey('codewhale', b.scope, b.canonicalRoot ?? b.dir, b.name);
    keyCache.set(b, key);
  }
  return key;
}

/** The bundle's own diagnostics, tagged with its item id, computed once per loaded bundle. */
function ownDiagnostics(b: CodewhaleBundle, id: string): readonly Diagnostic[] {
  const hit = diagnosticCache.get(b);
  if (hit && hit.id === id) return hit.diagnostics;
  const diagnostics = b.diagnostics.map((d) => ({ ...d, itemId: id }));
  diagnosticCache.set(b, { id, diagnostics });
  return diagnostics;
}

function cachedBundleItems(b: CodewhaleBundle, workspace: string | null, id: string, shadowedBy: string | null, diagnostics: Diagnostic[], ctx: GateContext): Item[] {
  const state = ctx.trust.available ? ctx.trust.lookup(keyOf(b)) : 'unavailable';
  const inputs: ItemInputs = { workspace, id, shadowedBy, state: state === undefined ? '' : JSON.stringify(state), workspaceTrusted: ctx.workspaceTrusted, diagnosticCount: diagnostics.length };
  const hit = itemCache.get(b);
  if (hit && sameInputs(hit.inputs, inputs)) return hit.items;
  const items = bundleItems(b, workspace, id, shadowedBy, diagnostics, ctx);
  itemCache.set(b, { inputs, items });
  return items;
}

function sameInputs(a: ItemInputs, b: ItemInputs): boolean {
  return a.workspace === b.workspace && a.id === b.id && a.shadowedBy === b.shadowedBy && a.state === b.state && a.workspaceTrusted === b.workspaceTrusted && a.diagnosticCount === b.diagnosticCount;
}

function bundleItems(b: CodewhaleBundle, workspace: string | null, id: string, shadowedBy: string | null, diagnostics: Diagnostic[], ctx: GateContext): Item[] {
  const key = keyOf(b);
  const gate = trustGate({ bundleKey: key, contentHash: b.contentHash ?? null, capabilityHash: b.capabilityHash ?? null }, ctx);
  let decision: Decision;
  let reasons: ReasonCode[];
  if (!b.valid) {
    decision = 'rejected';
    reasons = ['manifest_invalid'];
  } else if (shadowedBy) {
    decision = 'shadowed';
    reasons = ['name_conflict'];
  } else {
    const gateReasons: ReasonCode[] = [...gate.reasons];
    if (!b.when.applicable) gateReasons.push('not_applicable');
    if (b.compatibility?.compatibility === 'unsupported') {
      decision = 'display_only';
      reasons = ['unsupported_components', ...gateReasons];
    } else if (gateReasons.length > 0) {
      decision = 'disabled';
      reasons = gateReasons;
    } else if (diagnostics.some((d) => d.code === 'codewhale.skill-invalid')) {
      // Any skill diagnostic fails Codewhale's trusted snapshot (codewhale.md §5.3, §8.6).
      decision = 'disabled';
      reasons = ['staged_skill_invalid'];
    } else {
      decision = 'registered';
      reasons = ['active'];
    }
  }
  const active = decision === 'registered';
  const m = b.manifest;
  const bundle: Item = {
    id,
    system: 'codewhale',
    kind: 'plugin',
    name: b.name,
    qualifiedName: b.name,
    scope: b.scope,
    workspace,
    path: b.dir,
    location: b.anchors.name ?? { file: b.manifestFile ?? b.dir, range: FILE_START },
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
      ...(m?.description ? { description: m.description.value } : {}),
      ...(b.version ? { version: b.version } : {}),
      ...(b.label ? { manifest: b.label } : {}),
      ...(b.inventory ? { inventory: { ...b.inventory, summary: inventorySummary(b.inventory) } } : {}),
      files: b.files.map(({ path, size, sha256, executable }) => ({ path, size, sha256, executable })),
      facts: {
        pluginId: b.pluginId ?? null,
        canonicalRoot: b.canonicalRoot ?? null,
        policy: POLICY_V3.version,
        applicable: b.when.applicable,
        whenReasons: b.when.reasons,
        supportedComponents: b.compatibility?.supportedLabels ?? [],
        inactiveComponents: b.compatibility?.unsupportedLabels ?? [],
        qualifiedSkills: b.skills.map((s) => `${b.name}:${s.name}`),
        mcpServers: (m?.mcpServers ?? []).map((s) => ({
          id: s.id,
          transport: s.command ? 'stdio' : s.url ? (s.transport?.value ?? 'streamable-http') : 'invalid',
          command: s.command?.value ?? null,
          args: s.args.map((a) => a.value),
          cwd: s.cwd?.value ?? null,
          env: s.env.map((e) => ({ destination: e.name, source: /^\$\{(.*)\}$/.exec(e.value)?.[1] ?? null })),
          url: s.url?.value ?? null,
          envHeaders: s.envHeaders.map((h) => ({ header: h.name, source: h.value })),
          bearerTokenEnvVar: s.bearerTokenEnvVar?.value ?? null,
          timeouts: Object.fromEntries(s.timeouts.map((t) => [t.label, t.value])),
          required: s.required?.value ?? false,
          enabled: s.enabled && !s.disabled,
          enabledTools: s.enabledTools.map((t) => t.value),
          disabledTools: s.disabledTools.map((t) => t.value),
        })),
        when: m?.when ? { os: m.when.os?.map((o) => o.value) ?? null, binaries: m.when.binaries?.map((x) => x.value) ?? null } : null,
      },
    },
  };
  const items: Item[] = [bundle];
  const child = (kind: Item['kind'], suffix: string, name: string, qualifiedName: string, decisionOf: () => [Decision, ReasonCode[]], location: Item['location'], detail: Item['detail'] = {}): Item => {
    const [d, r] = decisionOf();
    return { id: `${id}#${suffix}`, system: 'codewhale', kind, name, qualifiedName, scope: b.scope, workspace, path: location.file, location, parent: id, decision: d, reasons: r, shadowedBy: null, trust: null, enabled: null, compatibility: null, contentHash: null, capabilityHash: null, reviewToken: null, detail };
  };
  const inherited = (): [Decision, ReasonCode[]] => (active ? ['registered', ['component_active']] : ['disabled', ['bundle_inactive']]);
  for (const s of b.skills) {
    const hasError = diagnostics.some((d) => d.file === s.file && d.severity === 'error');
    items.push(child('skill', `skill/${s.name}`, s.name, `${b.name}:${s.name}`, () => (hasError ? ['rejected', ['skill_invalid']] : inherited()), { file: s.file, range: FILE_START }, { description: s.description }));
  }
  for (const s of m?.mcpServers ?? []) {
    const anchor = b.anchors[`mcp:${s.id}`] ?? { file: b.manifestFile ?? b.dir, range: FILE_START };
    const broken = diagnostics.some((d) => d.severity === 'error' && d.file === anchor.file && namesServer(d.message, s.id));
    items.push(child('mcp-server', `mcp/${s.id}`, s.id, `${b.name}:${s.id}`, () => (broken ? ['rejected', ['component_invalid']] : inherited()), anchor));
  }
  const inactive = new Set<string>(b.compatibility?.unsupportedLabels ?? []);
  const componentKinds: string[] = Object.keys(m?.components ?? {}).filter((k) => k !== 'skills');
  if ((b.inventory?.filesystem_roots.length ?? 0) > 0) componentKinds.push('filesystem-roots');
  if (b.inventory?.lifecycle_mutation) componentKinds.push('lifecycle-mutation');
  for (const kind of componentKinds) {
    const anchor = b.anchors[`component:${kind}`] ?? b.anchors.name ?? { file: b.manifestFile ?? b.dir, range: FILE_START };
    items.push(child('component', `component/${kind}`, kind, `${b.name}:${kind}`, () => (inactive.has(kind) ? ['display_only', ['component_inactive']] : inherited()), anchor));
  }
  return items;
}

/** A diagnostic belongs to an MCP server when it names the server (every MCP message does, in backticks). */
function namesServer(message: string, id: string): boolean {
  return message.includes(`\`${id}\``);
}

function warning(code: 'codewhale.duplicate-root' | 'codewhale.name-conflict', message: string, file: string, itemId: string): Diagnostic {
  return { file, range: FILE_START, severity: 'warning', code, message, itemId };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
