import { explainItem } from '../../core/report/explain';
import { escapeMarkdown } from '../text/markdownEscape';
import type { Snapshot } from '../../core/index/snapshot';
import type { Item } from '../../core/model';

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

/**
 * The query of an Explain document's URI: the item's id. An id spells a name that is not
 * UTF-8 with lone surrogates (core/fs/rawNames.ts), which a URI cannot carry: as a plain
 * query value each became U+FFFD, so the document of `a\udcff.md` showed the item
 * `a\ufffd.md`, another file. As JSON a lone surrogate is the escape `\udcff`, and reads back.
 */
export function explainQuery(itemId: string): string {
  return new URLSearchParams({ item: JSON.stringify(itemId) }).toString();
}

/** The item id of an Explain document's query; a plain id (a tab restored from an older version) as it is. */
export function explainItemId(query: string): string {
  const value = new URLSearchParams(query).get('item') ?? '';
  if (!value.startsWith('"')) return value;
  try {
    const id: unknown = JSON.parse(value);
    return typeof id === 'string' ? id : '';
  } catch {
    return '';
  }
}
