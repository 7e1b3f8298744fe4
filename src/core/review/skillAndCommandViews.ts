import * as path from 'node:path';
import { displayText, hasUnsafeForDisplay } from '../text/displayText';
import type { ReviewReport } from '../trust/reviewBundle';
import { systemOf } from '../systems/registry';
import { unitText } from './unitText';
import type { ReviewViewModel, Shown } from './reviewModel';
import type { ShownStrings } from './shown';

/** What the panel's button that shows a skill part's text says (the webview says the same of a command's). */
const AGENT_TEXT_LABEL = 'Show the text the agent reads';

/**
 * The text the agent reads, lines kept; bundle text, so shown with its invisible characters marked.
 * Read as unitText.ts reads it: a file the review hashed as its hash read it; with `hashedOnly`, no other.
 */
function agentText(r: ReviewReport, strings: ShownStrings, file: string, hashedOnly = false): Shown | null {
  const read = unitText(r, file, hashedOnly);
  if (read === undefined) return null;
  if ('note' in read) return { text: read.note, hidden: false };
  const text = read.text;
  return strings.counted({
    text: displayText(text, 'multi-line'),
    hidden: hasUnsafeForDisplay(text.replace(/[\t\n]/g, ' ')),
  });
}

/**
 * The skills as this review read them, each with the text the agent reads; then those the unit
 * binds with no item of their own (an Eva adapter's skill.path, a lua_skill's script), read only
 * as the unit's hash read them. None while the manifest does not load: what it binds is unknown.
 */
export function skillViews(r: ReviewReport, strings: ShownStrings): ReviewViewModel['capabilities']['skills'] {
  const S = strings.show;
  return [
    ...r.parts
      .filter((p) => p.kind === 'skill')
      .map((p) => ({
        name: S(p.qualifiedName),
        description: S(p.detail.description ?? ''),
        body: agentText(r, strings, p.location.file),
        bodyLabel: AGENT_TEXT_LABEL,
      })),
    ...(r.capabilities ? (systemOf(r.item.system).boundSkills?.(r.item) ?? []) : []).map((b) => ({
      name: S(b.name),
      description: S(b.description),
      body: b.file === null ? null : agentText(r, strings, b.file, true),
      bodyLabel: b.textLabel,
    })),
  ];
}

/** Commands are the Markdown files under the bundle's `commands` component paths. */
export function commandViews(r: ReviewReport, strings: ShownStrings): ReviewViewModel['capabilities']['commands'] {
  const commandDirs = (r.capabilities?.components?.commands ?? []).map((p) =>
    p.replace(/^\.\//, '').replace(/\/+$/, ''),
  );
  return (r.files ?? [])
    .filter((f) => f.path.endsWith('.md') && commandDirs.some((d) => f.path === d || f.path.startsWith(`${d}/`)))
    .map((f) => ({
      name: strings.show(path.basename(f.path, '.md')),
      body: agentText(r, strings, path.join(r.root, f.path)),
    }));
}
