import * as path from 'node:path';
import { DECISION_TEXT } from '../decisions/reasonText';
import { scopedPath } from './contract';
import { displayText } from '../text/displayText';
import { childrenOf, itemById, type Snapshot } from '../index/snapshot';
import { reasonTextOf, systemOf } from '../systems/registry';
import type { Item } from '../model';

export interface ExplainSection {
  readonly title: string;
  readonly lines: readonly string[];
}

/**
 * What `explain` shows, in decisions.md's order: the decision and every reason first,
 * then source, schema, gates, capabilities, conflicts and diagnostics. The CLI prints
 * it as text, the editor renders it as Markdown.
 */
export function explainItem(snapshot: Snapshot, item: Item): ExplainSection[] {
  const where = (f: string) => scopedPath(item, f, snapshot.workspaces);
  const agent = systemOf(item.system);
  const activation = item.detail.activation;
  const capabilities = item.detail.capabilities;
  const sections: ExplainSection[] = [];
  sections.push({
    title: `${item.qualifiedName}: ${DECISION_TEXT[item.decision]}`,
    lines: item.reasons.map((r) => `${r}: ${reasonTextOf(item, r)}`),
  });
  // What the agent itself decides, where it says more than the shared sections (Eva's design order).
  for (const s of systemOf(item.system).explain?.(item) ?? []) sections.push(s);
  const parent = item.parent ? itemById(snapshot, item.parent) : undefined;
  const winner = item.shadowedBy ? itemById(snapshot, item.shadowedBy) : undefined;
  const losers = snapshot.items.filter((i) => i.shadowedBy === item.id);
  const at = (i: Item) => `${i.id} at ${scopedPath(i, i.path, snapshot.workspaces)}`;
  sections.push({
    title: 'Source',
    lines: [
      `system: ${item.system}, kind: ${item.kind}, scope: ${item.scope}`,
      `path: ${where(item.path)}`,
      `id: ${item.id}`,
      ...(parent ? [`part of: ${parent.qualifiedName} (${parent.decision})`] : []),
      // Who shadows whom, from either side (decisions.md "Explain": the source).
      ...(winner ? [`shadowed by: ${at(winner)}`] : []),
      ...losers.map((i) => `shadows: ${at(i)}`),
    ],
  });
  const schema: string[] = [];
  // A manifest is a bundle's file name (Codewhale) or a path, stated as `path:` is (Eva).
  const manifest = item.detail.manifest;
  if (manifest) schema.push(`manifest: ${path.isAbsolute(manifest) ? where(manifest) : manifest}`);
  if (item.detail.version) schema.push(`version: ${item.detail.version}`);
  if (item.detail.description) schema.push(`description: ${item.detail.description}`);
  if (schema.length) sections.push({ title: 'Schema', lines: schema });
  if (item.trust !== null) {
    const gates = [
      `trust: ${item.trust}`,
      `enabled: ${item.enabled === null ? `no enable switch (${agent.label} has none)` : String(item.enabled)}`,
      `content hash: ${item.contentHash ?? 'none (not hashable)'}`,
      `capability hash: ${item.capabilityHash ?? 'none (not hashable)'}`,
    ];
    if (activation)
      gates.push(
        `applies to this host: ${activation.applicable ? 'yes' : `no (${activation.whenReasons.join('; ')})`}`,
      );
    // The activation policy is a gate (decisions.md "Explain"): an unsupported bundle is never active.
    if (item.compatibility)
      gates.push(`compatibility: ${item.compatibility} (activation policy v${activation?.policy ?? 3})`);
    // The agent's loads, each as it touches this bundle (decisions.md).
    const loads = item.detail.loads;
    if (loads)
      gates.push(
        `${agent.label}: ${Object.entries(loads)
          .map(([k, v]) => `${k}: ${v}`)
          .join('; ')}`,
      );
    if (item.detail.hooksOptIn !== undefined && agent.hooks)
      gates.push(`${agent.hooks.optIn}: ${item.detail.hooksOptIn ? 'yes' : 'no'}`);
    if (snapshot.trustProblem) gates.push(`trust store: ${snapshot.trustProblem}`);
    for (const n of item.detail.notCovered ?? []) gates.push(`not covered by this trust (trust is refused): ${n}`);
    sections.push({ title: 'Gates', lines: gates });
  }
  const caps: string[] = [];
  if (item.detail.inventory?.summary) caps.push(item.detail.inventory.summary);
  // Every permission the unit declares (decisions.md "Explain": the declared capabilities and permissions).
  if (capabilities?.networkHosts?.length) caps.push(`network hosts: ${capabilities.networkHosts.join(', ')}`);
  if (capabilities?.filesystemRoots?.length) caps.push(`filesystem roots: ${capabilities.filesystemRoots.join(', ')}`);
  if (capabilities?.lifecycleMutation) caps.push('lifecycle mutation: true');
  if (activation?.inactiveComponents.length)
    caps.push(`inactive components: ${activation.inactiveComponents.join(', ')}`);
  // The pairs the agent hashes, as it states them (one line each; a multi-line value on one line).
  for (const [k, v] of Object.entries(capabilities?.pairs ?? {})) caps.push(`${k}: ${v.split('\n').join(', ') || '-'}`);
  for (const c of childrenOf(snapshot, item.id))
    caps.push(`${c.kind} ${c.qualifiedName}: ${c.decision} (${c.reasons.join(', ')})`);
  if (caps.length) sections.push({ title: 'Capabilities', lines: caps });
  const conflicts = losers.map((i) => `shadows ${at(i)}`);
  if (winner) conflicts.unshift(`loses to ${winner.id}`);
  // The agent's own conflicts, where no item is shadowed (Rivumi's same-named skills all load; a selection picks one).
  const named = (id: string) => {
    const other = itemById(snapshot, id);
    return other ? at(other) : id;
  };
  conflicts.push(...(agent.conflicts?.(item, named) ?? []));
  if (conflicts.length) sections.push({ title: 'Conflicts', lines: conflicts });
  const diags = snapshot.diagnostics.filter((d) => d.itemId === item.id);
  sections.push({
    title: 'Diagnostics',
    lines: diags.length
      ? diags.map(
          (d) =>
            `${where(d.file)}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code}: ${d.message}`,
        )
      : ['none'],
  });
  return sections;
}

/** Text for the terminal: each title and line escaped as one line (displayText.ts). */
export function explainText(sections: readonly ExplainSection[]): string {
  const line = (l: string) => displayText(l);
  return (
    sections
      .map((s, i) => `${line(s.title)}\n${s.lines.map((l) => `  ${i === 0 ? '- ' : ''}${line(l)}`).join('\n')}`)
      .join('\n\n') + '\n'
  );
}
