import { explainItem } from '../core/report/explain';
import { escapeMarkdown } from './markdownEscape';
import type { Snapshot } from '../core/index/snapshot';
import type { Item } from '../core/model';

/** `explain` as Markdown, decision first (decisions.md "Explain"). Bundle text is escaped. */
export function explainMarkdown(snapshot: Snapshot, item: Item): string {
  const sections = explainItem(snapshot, item);
  return sections
    .map((s, i) =>
      i === 0
        ? `# ${escapeMarkdown(s.title)}\n\n${s.lines.map((l) => `- ${escapeMarkdown(l)}`).join('\n')}`
        : `## ${escapeMarkdown(s.title)}\n\n${s.lines.map((l) => `- ${escapeMarkdown(l)}`).join('\n')}`,
    )
    .join('\n\n');
}
