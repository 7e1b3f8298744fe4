import * as os from 'node:os';
import * as path from 'node:path';
import { DECISION_TEXT, REASON_TEXT } from '../core/decisions/reasonText';
import { displayText } from '../core/text/displayText';
import { escapeMarkdown } from './markdownEscape';
import { quickPickText } from './uiText';
import type { Diagnostic, Item, Severity } from '../core/model';

/** How an item reads in the tree and the QuickPick; every repository string is escaped for its surface. */

export function itemLabel(item: Item): string {
  return displayText(item.parent ? item.name : item.qualifiedName);
}

export function itemDescription(item: Item): string {
  // What the agent loads although it is not reviewed reads as loaded, never as disabled (decisions.md).
  if (isLoadedUnreviewed(item)) return `loaded · ${(item.reasons[1] ?? 'not_reviewed').replace(/_/g, ' ')}`;
  return displayText(`${item.decision} · ${item.reasons[0] ?? ''}`);
}

/** `registered` with `loaded_unreviewed` first: the agent loads it, unreviewed (a risk, shown in the warning colour). */
export function isLoadedUnreviewed(item: Item): boolean {
  return item.decision === 'registered' && item.reasons[0] === 'loaded_unreviewed';
}

/** The review panel's tab title. */
export function reviewPanelTitle(item: Item): string {
  return `Review: ${displayText(item.name)}`;
}

/** The one command a tooltip may run: its Markdown is otherwise untrusted, and no bundle text ever becomes a link. */
export const TOOLTIP_COMMANDS = ['workbench.actions.view.problems'] as const;

/** What the tooltip needs beyond the item: its own diagnostics and, when shadowed, the bundle that wins. */
export interface TooltipContext {
  readonly diagnostics: readonly Diagnostic[];
  readonly winner?: Item;
}

const SHOWN_DIAGNOSTICS = 3;
const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, information: 2 };

/**
 * The tooltip's Markdown: every reason in plain words, who wins over a shadowed bundle,
 * trust and the hashes (shortened once; Copy Review Token copies them in full), the
 * workspace-relative path, and the first diagnostics' messages with a link to the Problems panel.
 */
export function itemTooltipMarkdown(item: Item, context: TooltipContext): string {
  let md = `**${escapeMarkdown(item.qualifiedName, true)}** — ${DECISION_TEXT[item.decision]}\n\n`;
  for (const r of item.reasons) md += `- \`${r}\`: ${REASON_TEXT[r]}\n`;
  if (context.winner) {
    const w = context.winner;
    md += `\n$(arrow-right) Codewhale loads the ${w.scope} bundle **${escapeMarkdown(w.qualifiedName, true)}** from ${escapeMarkdown(shownPath(w), true)} instead.\n`;
  }
  if (item.trust) {
    md += `\n$(shield) Trust: \`${item.trust}\` · ${item.enabled === null ? 'no enable switch: Rivumi loads it whatever Skillgate says' : `enabled: \`${String(item.enabled)}\``}\n\n`;
    if (item.contentHash) md += `Content \`${item.contentHash.slice(0, 12)}…\` · capabilities \`${(item.capabilityHash ?? '').slice(0, 12)}…\` (Copy Review Token copies them in full)\n\n`;
  }
  md += `$(file) ${escapeMarkdown(shownPath(item), true)}\n\n`;
  const diagnostics = [...context.diagnostics].sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  if (diagnostics.length === 0) return md + '$(pass) no diagnostics';
  md += `$(warning) ${diagnostics.length} diagnostic${diagnostics.length === 1 ? '' : 's'}:\n\n`;
  for (const d of diagnostics.slice(0, SHOWN_DIAGNOSTICS)) {
    md += `- ${SEVERITY_ICON[d.severity]} ${escapeMarkdown(d.message, true)} (${escapeMarkdown(path.basename(d.file), true)}:${d.range.start.line + 1})\n`;
  }
  if (diagnostics.length > SHOWN_DIAGNOSTICS) md += `- and ${diagnostics.length - SHOWN_DIAGNOSTICS} more\n`;
  return md + `\n[Show in Problems](command:${TOOLTIP_COMMANDS[0]})`;
}

const SEVERITY_ICON: Record<Severity, string> = { error: '$(error)', warning: '$(warning)', information: '$(info)' };

/** A workspace item's path relative to its folder; a user bundle's under `~`. */
function shownPath(item: Item): string {
  if (item.workspace) return path.relative(item.workspace, item.path) || '.';
  const home = os.homedir();
  return home && (item.path === home || item.path.startsWith(home + path.sep)) ? `~${item.path.slice(home.length)}` : item.path;
}

export function itemPick(item: Item): { label: string; description: string; detail: string } {
  return {
    label: quickPickText(item.qualifiedName),
    description: quickPickText(`${item.system} ${item.kind} · ${item.decision} · ${item.reasons[0] ?? ''}`),
    detail: quickPickText(item.scope === 'user' ? item.path : path.relative(item.workspace ?? '', item.path)),
  };
}
