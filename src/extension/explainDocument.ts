import { explainItem } from '../core/report/explain';
import type { Snapshot } from '../core/index/snapshot';
import type { Item } from '../core/model';

/** `explain` as Markdown, decision first (decisions.md "Explain"). Bundle text is escaped. */
export function explainMarkdown(snapshot: Snapshot, item: Item): string {
  const sections = explainItem(snapshot, item);
  const esc = (t: string) => t.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
  return sections
    .map((s, i) => (i === 0 ? `# ${esc(s.title)}\n\n${s.lines.map((l) => `- ${esc(l)}`).join('\n')}` : `## ${esc(s.title)}\n\n${s.lines.map((l) => `- ${esc(l)}`).join('\n')}`))
    .join('\n\n');
}
