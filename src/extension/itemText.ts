import * as path from 'node:path';
import { DECISION_TEXT, REASON_TEXT } from '../core/decisions/reasonText';
import { displayText } from '../core/text/displayText';
import { escapeMarkdown } from './markdownEscape';
import { quickPickText } from './uiText';
import type { Item } from '../core/model';

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

/** The tooltip's Markdown: every reason in plain words, trust and both hashes (shortened), the path and the diagnostics count. */
export function itemTooltipMarkdown(item: Item, diagnostics: number): string {
  let md = `**${escapeMarkdown(item.qualifiedName, true)}** — ${DECISION_TEXT[item.decision]}\n\n`;
  for (const r of item.reasons) md += `- \`${r}\`: ${REASON_TEXT[r]}\n`;
  if (item.trust) {
    md += `\n$(shield) Trust: \`${item.trust}\` · ${item.enabled === null ? 'no enable switch: Rivumi loads it whatever Skillgate says' : `enabled: \`${String(item.enabled)}\``}\n\n`;
    if (item.contentHash) md += `Content \`${item.contentHash.slice(0, 12)}…\` · capabilities \`${(item.capabilityHash ?? '').slice(0, 12)}…\`\n\n`;
  }
  md += `$(file) ${escapeMarkdown(item.path, true)}\n\n`;
  md += diagnostics === 0 ? '$(pass) no diagnostics' : `$(warning) ${diagnostics} diagnostic${diagnostics === 1 ? '' : 's'}`;
  return md;
}

export function itemPick(item: Item): { label: string; description: string; detail: string } {
  return {
    label: quickPickText(item.qualifiedName),
    description: quickPickText(`${item.system} ${item.kind} · ${item.decision} · ${item.reasons[0] ?? ''}`),
    detail: quickPickText(item.scope === 'user' ? item.path : path.relative(item.workspace ?? '', item.path)),
  };
}
