import { trustGate, type GateContext } from '../../decisions/gates';
import { POLICY_V3 } from './activationPolicy';
import { onlyReason } from '../../decisions/reasonList';
import { flatJoin } from '../../text/detached';
import { summarizedInventory } from './inventory';
import { codewhaleCapabilities } from './capabilities';
import { FILE_START, type Diagnostic, type Item, type ReasonCode, type Decision } from '../../model';
import { agentItem } from '../../agentItem';
import type { CodewhaleBundle } from './codewhaleBundle';
import { osBytes } from '../../fs/rawNames';
import { manifestStart, nameAnchor } from './bundleLocation';
import { bundleDecision } from './bundleDecision';
import { brokenServers, configuredOn } from './mcpServerFates';

/** The detail of a part that has none: one frozen object for all of them (19,000 at 10,000 bundles). */
const NO_DETAIL: Item['detail'] = Object.freeze({});

/**
 * The items of one bundle: the bundle's own, then one per skill, per MCP server and per
 * component kind it declares, each child inheriting the bundle's fate unless its own
 * part is broken or left inactive.
 */
export function bundleItems(
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
  const { decision, reasons } = bundleDecision(b, shadowedBy, diagnostics, gate);
  const active = decision === 'registered';
  const bundle = agentItem(
    {
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
    },
    {
      shadowedBy,
      trust: gate.trust,
      enabled: gate.enabled,
      compatibility: b.compatibility?.compatibility,
      contentHash: b.contentHash,
      capabilityHash: b.capabilityHash,
      reviewToken: b.reviewToken,
    },
  );
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
    return agentItem({
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
      detail,
    });
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
