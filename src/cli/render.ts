import { displayPath, scopedPath } from '../core/report/contract';
import { isLoadedUnreviewed } from '../core/decisions/loadedUnreviewed';
import { agentSystems, ofSystem, systemOf } from '../core/systems/registry';
import { displayText } from '../core/text/displayText';
import { childrenOf, type Snapshot } from '../core/index/snapshot';
import type { Item } from '../core/model';

/** Text for `list`: per workspace and system, each item with its decision and reasons. */
export function listText(snapshot: Snapshot): string {
  const lines: (string | ListRow)[] = [];
  const groups = new Map<string, Item[]>();
  for (const item of snapshot.items.filter((i) => i.parent === null)) {
    const key = item.workspace ?? 'User bundles';
    // Appended in place: a copy per item was quadratic, 8 s of `list` for 30,000 bundles.
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  for (const [group, items] of groups) {
    lines.push(group === 'User bundles' ? 'User bundles' : `Workspace ${group}`);
    for (const system of agentSystems()) {
      const mine = ofSystem(items, system.id);
      if (!mine.length) continue;
      lines.push(`  ${system.label}`);
      for (const item of mine) {
        lines.push(listRow(item, false));
        for (const c of childrenOf(snapshot, item.id)) lines.push(listRow(c, true));
      }
    }
  }
  const out = withColumns(lines);
  if (out.length === 0)
    out.push(
      `No agent extensions found (${agentSystems()
        .map((s) => s.lookedFor)
        .join(', ')}).`,
    );
  const counts = count(snapshot.items.filter((i) => i.parent === null));
  out.push('', counts);
  return screenLines(out);
}

/** An item's row; a child is indented under its bundle. */
interface ListRow {
  readonly item: Item;
  readonly child: boolean;
  /** Its name as the terminal may show it (displayText.ts). */
  readonly name: string;
}

function listRow(item: Item, child: boolean): ListRow {
  return { item, child, name: displayText(item.qualifiedName) };
}

/** Past this, a name overflows its column instead of widening every row. */
const NAME_COLUMN_CAP = 40;
const CHILD_INDENT = '  ';

/**
 * The listing's rows in columns as wide as its cells (Eva's `skill-adapter` and
 * `review-skill (skill review)` fit), the same for every agent and workspace; a child's indent
 * is taken from its kind's column, so its name and decision line up with its bundle's.
 */
function withColumns(lines: readonly (string | ListRow)[]): string[] {
  const kindOf = (r: ListRow) => (r.child ? CHILD_INDENT : '') + r.item.kind;
  // A loop, not `Math.max(...widths)`: a listing can hold more rows than a call takes arguments.
  let kindWidth = 0;
  let nameWidth = 0;
  let decisionWidth = 0;
  for (const l of lines) {
    if (typeof l === 'string') continue;
    kindWidth = Math.max(kindWidth, kindOf(l).length);
    nameWidth = Math.max(nameWidth, Math.min(NAME_COLUMN_CAP, l.name.length));
    decisionWidth = Math.max(decisionWidth, l.item.decision.length);
  }
  return lines.map((l) => {
    if (typeof l === 'string') return l;
    const { item } = l;
    const trust = item.trust ? `  [${item.trust}${item.enabled ? ', enabled' : ''}]` : '';
    return `    ${kindOf(l).padEnd(kindWidth)} ${l.name.padEnd(nameWidth)} ${item.decision.padEnd(decisionWidth)} ${item.reasons.join(', ')}${trust}`.trimEnd();
  });
}

function count(items: readonly Item[]): string {
  const by = (d: Item['decision']) => items.filter((i) => i.decision === d).length;
  // What Rivumi loads unreviewed is registered, and said so: it is the risk `check` fails on.
  const unreviewed = items.filter(isLoadedUnreviewed).length;
  return `${items.length} top-level item(s): ${by('registered')} registered${unreviewed ? ` (${unreviewed} loaded although not reviewed)` : ''}, ${by('disabled')} disabled, ${by('rejected')} rejected, ${by('display_only')} display only, ${by('shadowed')} shadowed`;
}

/** Compiler-style lines (`file:line:col: severity code: message`) that terminals link. */
export function diagnosticsText(snapshot: Snapshot): string {
  const lines = snapshot.diagnostics.map(
    (d) =>
      `${displayPath(d.file, snapshot.workspaces)}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code}: ${d.message}`,
  );
  const errors = snapshot.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = snapshot.diagnostics.filter((d) => d.severity === 'warning').length;
  lines.push(
    `${errors} error(s), ${warnings} warning(s), ${snapshot.diagnostics.length - errors - warnings} information`,
  );
  return screenLines(lines);
}

export function showText(snapshot: Snapshot, item: Item): string {
  const where = (p: string) => scopedPath(item, p, snapshot.workspaces);
  const lines = [
    `${item.qualifiedName} (${item.system} ${item.kind}, ${item.scope})`,
    `  id: ${item.id}`,
    `  path: ${where(item.path)}`,
    `  decision: ${item.decision} (${item.reasons.join(', ')})`,
  ];
  // As explain and review say it: a bundle of an agent without an enable switch has no enable bit.
  if (item.trust !== null)
    lines.push(
      `  trust: ${item.trust}, ${item.enabled === null ? `no enable switch (${systemOf(item.system).label} has none)` : `enabled: ${String(item.enabled)}`}`,
    );
  if (item.compatibility) lines.push(`  compatibility: ${item.compatibility}`);
  if (item.contentHash)
    lines.push(
      `  content hash: ${item.contentHash}`,
      `  capability hash: ${item.capabilityHash}`,
      `  review token: ${item.reviewToken}`,
    );
  const summary = item.detail.inventory?.summary;
  if (summary) lines.push(`  inventory: ${summary}`);
  const files = item.detail.files ?? [];
  if (files.length) {
    lines.push(`  files (${files.length}):`);
    for (const f of files)
      lines.push(`    ${f.executable ? 'x' : '-'} ${String(f.size).padStart(8)}  ${f.sha256.slice(0, 12)}  ${f.path}`);
  }
  const kids = childrenOf(snapshot, item.id);
  if (kids.length) {
    lines.push('  parts:');
    for (const c of kids) lines.push(`    ${c.kind} ${c.qualifiedName}: ${c.decision} (${c.reasons.join(', ')})`);
  }
  const diags = snapshot.diagnostics.filter((d) => d.itemId === item.id);
  lines.push(`  diagnostics (${diags.length}):`);
  for (const d of diags)
    lines.push(
      `    ${where(d.file)}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code}: ${d.message}`,
    );
  return screenLines(lines);
}

/** One output line per entry: a newline or control character a repository put in a name or message is escaped, never acted on. */
function screenLines(lines: readonly string[]): string {
  return lines.map((line) => displayText(line)).join('\n') + '\n';
}
