import * as path from 'node:path';
import type { Diagnostic, Item } from '../model';
import type { McpServer } from '../capabilities';
import type { Snapshot } from '../index/snapshot';
import { insideSuffix, leavesBase, portableRelative } from '../fs/portablePath';
import { JsonList } from './jsonText';

/**
 * The CLI's JSON contract (spec/cli.md "JSON output"): outside checks read it, so
 * every field is here by name, in this shape, and nowhere else.
 */
export interface ContractItem {
  id: string;
  system: Item['system'];
  kind: Item['kind'];
  name: string;
  qualifiedName: string;
  scope: Item['scope'];
  workspace: string | null;
  path: string;
  parent: string | null;
  decision: Item['decision'];
  reasons: string[];
  shadowedBy: string | null;
  trust: Item['trust'];
  enabled: boolean | null;
  compatibility: Item['compatibility'];
  contentHash: string | null;
  capabilityHash: string | null;
  reviewToken: string | null;
}

export interface ContractDiagnostic {
  /** The workspace folder (absolute) that `file` is relative to; null for user-level files. */
  workspace: string | null;
  file: string;
  range: Diagnostic['range'];
  severity: Diagnostic['severity'];
  code: string;
  message: string;
  itemId: string | null;
}

export interface ContractEnvelope {
  schemaVersion: 1;
  items: ContractItem[];
  diagnostics: ContractDiagnostic[];
}

/** Workspace-relative with `/` for files inside a workspace folder; absolute otherwise. */
export function displayPath(file: string, workspaces: readonly string[]): string {
  const ws = owningWorkspace(file, workspaces);
  if (ws === undefined) return file;
  return portableRelative(ws, file) || '.';
}

/** A file of an item as the reports show it: absolute for a user bundle (it lives outside every workspace), else as `displayPath`. */
export function scopedPath(item: Pick<Item, 'scope'>, file: string, workspaces: readonly string[]): string {
  return item.scope === 'user' ? file : displayPath(file, workspaces);
}

export function owningWorkspace(file: string, workspaces: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const ws of workspaces) {
    const rel = insideSuffix(ws, file) ?? path.relative(ws, file);
    if (!leavesBase(rel) && (!best || ws.length > best.length)) best = ws;
  }
  return best;
}

export function contractItem(item: Item, workspaces: readonly string[]): ContractItem {
  return {
    id: item.id,
    system: item.system,
    kind: item.kind,
    name: item.name,
    qualifiedName: item.qualifiedName,
    scope: item.scope,
    workspace: item.workspace,
    path: scopedPath(item, item.path, item.workspace ? [item.workspace] : workspaces),
    parent: item.parent,
    decision: item.decision,
    reasons: [...item.reasons],
    shadowedBy: item.shadowedBy,
    trust: item.trust,
    enabled: item.enabled,
    compatibility: item.compatibility,
    contentHash: item.contentHash,
    capabilityHash: item.capabilityHash,
    reviewToken: item.reviewToken,
  };
}

/**
 * The workspace folder a diagnostic belongs to: its item's folder when it has an item
 * (null for user items), else the folder that holds its file, else null (a user-level
 * file). `file` is then relative to that folder, so a diagnostic without an item is
 * still tied to one folder when several `--workspace` are given (issue 11, item 13).
 */
export function diagnosticWorkspace(
  d: Diagnostic,
  workspaces: readonly string[],
  items?: ReadonlyMap<string, Item>,
): string | null {
  const item = d.itemId !== null ? items?.get(d.itemId) : undefined;
  if (item) return item.workspace;
  return owningWorkspace(d.file, workspaces) ?? null;
}

export function contractDiagnostic(
  d: Diagnostic,
  workspaces: readonly string[],
  items?: ReadonlyMap<string, Item>,
): ContractDiagnostic {
  const workspace = diagnosticWorkspace(d, workspaces, items);
  return {
    workspace,
    file: displayPath(d.file, workspace === null ? [] : [workspace]),
    range: d.range,
    severity: d.severity,
    code: d.code,
    message: d.message,
    itemId: d.itemId,
  };
}

/**
 * The items the diagnostics name, by id, to find each diagnostic's workspace. Only
 * those: a map of every item held 57,000 entries at 10,000 bundles for the few hundred
 * a report's findings name (docs/memory.md).
 */
export function itemsById(
  snapshot: Snapshot,
  diagnostics: readonly Diagnostic[] = snapshot.diagnostics,
): Map<string, Item> {
  const named = new Set<string>();
  for (const d of diagnostics) if (d.itemId !== null) named.add(d.itemId);
  const byId = new Map<string, Item>();
  if (named.size === 0) return byId;
  for (const i of snapshot.items) if (named.has(i.id)) byId.set(i.id, i);
  return byId;
}

export function envelope(
  snapshot: Snapshot,
  items: readonly Item[] = snapshot.items,
  diagnostics: readonly Diagnostic[] = snapshot.diagnostics,
): ContractEnvelope {
  const lists = envelopeToWrite(snapshot, items, diagnostics);
  return { schemaVersion: 1, items: lists.items.toJSON(), diagnostics: lists.diagnostics.toJSON() };
}

/**
 * The same envelope for `writeJsonText`: each item and diagnostic takes its contract
 * form only as it is written, so a large snapshot's contract copies never all exist at
 * once (about 20 MB at 10,000 bundles). Its text is the text of `envelope`.
 */
export function envelopeToWrite(
  snapshot: Snapshot,
  items: readonly Item[] = snapshot.items,
  diagnostics: readonly Diagnostic[] = snapshot.diagnostics,
): {
  schemaVersion: 1;
  items: JsonList<Item, ContractItem>;
  diagnostics: JsonList<Diagnostic, ContractDiagnostic>;
} {
  const byId = itemsById(snapshot, diagnostics);
  return {
    schemaVersion: 1,
    items: new JsonList(items, (i) => contractItem(i, snapshot.workspaces)),
    diagnostics: new JsonList(diagnostics, (d) => contractDiagnostic(d, snapshot.workspaces, byId)),
  };
}

/**
 * The `detail` object of `show --json` (spec/cli.md): the item's detail in the shape the
 * contract has always had, built from the typed detail. `capabilities` there are the
 * pairs the agent hashes (a Rivumi unit's); `facts` hold what the agent says about the
 * item (its identity, activation, MCP servers as a list, loads, a hook's command).
 * `parts` are the item's children (a Codewhale bundle's qualified skills).
 */
export function contractDetail(
  item: Item,
  parts: readonly Item[],
): Record<string, unknown> & { readonly facts?: Record<string, unknown> } {
  // `sameName` is what explain states as conflicts; cli.md's detail has no place for it.
  const {
    capabilities,
    activation,
    agentIdentity,
    discovery,
    hooksOptIn,
    loads,
    hook,
    sameName: _,
    ...plain
  } = item.detail;
  const facts: Record<string, unknown> = {};
  if (agentIdentity)
    Object.assign(facts, { pluginId: agentIdentity.pluginId, canonicalRoot: agentIdentity.canonicalRoot });
  if (activation) {
    const { policy, applicable, whenReasons, supportedComponents, inactiveComponents } = activation;
    Object.assign(facts, {
      policy,
      applicable,
      whenReasons,
      supportedComponents,
      inactiveComponents,
      qualifiedSkills: parts.filter((p) => p.kind === 'skill').map((p) => p.qualifiedName),
    });
  }
  if (capabilities?.mcpServers)
    facts.mcpServers = Object.entries(capabilities.mcpServers).map(([id, s]) => mcpServerFact(id, s));
  if (capabilities && capabilities.when !== undefined) facts.when = capabilities.when;
  if (discovery) facts.discovery = discovery;
  if (hooksOptIn !== undefined) facts.optIn = hooksOptIn;
  if (loads) facts.load = loads;
  if (hook) Object.assign(facts, hook);
  return {
    ...plain,
    ...(capabilities?.pairs ? { capabilities: { ...capabilities.pairs } } : {}),
    ...(Object.keys(facts).length ? { facts } : {}),
  };
}

/** One MCP server as `show --json` lists it: mappings as lists of pairs. */
function mcpServerFact(id: string, s: McpServer): Record<string, unknown> {
  return {
    id,
    transport: s.transport,
    command: s.command,
    args: s.args,
    cwd: s.cwd,
    env: Object.entries(s.env).map(([destination, source]) => ({ destination, source })),
    url: s.url,
    envHeaders: Object.entries(s.envHeaders).map(([header, source]) => ({ header, source })),
    bearerTokenEnvVar: s.bearerTokenEnvVar,
    timeouts: { ...s.timeouts },
    required: s.required,
    enabled: s.enabled,
    enabledTools: s.enabledTools,
    disabledTools: s.disabledTools,
  };
}
