// What changed since the last review: capabilities, argv before → after, and the changed files with their diffs.
import type { ReviewViewModel, Shown } from '../../../core/review/reviewModel';
import { el, icon, openLink, section, shownIn, shownText } from './dom';

/** The changed files whose diff the user has open: kept across renders, and in the webview's saved state. */
export const openDiffs = new Set<string>();

/** What changed since your last review: capabilities first, then files with diffs. */
export function changesSection(
  changes: NonNullable<ReviewViewModel['changes']>,
  capabilitiesUnknown: ReviewViewModel['capabilitiesUnknown'],
): HTMLElement {
  const s = section('What changed since your last review', 'diff', 'changes');
  s.classList.add('highlight');
  // "reviewed 3 hours ago", the exact time on hover.
  const when = el('span', 'reviewed-at muted', ` (${changes.reviewedAgo})`);
  when.title = changes.reviewedAt;
  s.querySelector('h2')?.append(when);
  const caps = el('ul', 'changes');
  if (capabilitiesUnknown) caps.append(shownIn('li', 'warn', capabilitiesUnknown));
  else if (changes.capabilities.length === 0) caps.append(el('li', 'muted', 'No capability changes.'));
  for (const c of changes.capabilities) {
    const li = el('li', `change-${c.change}`);
    li.append(icon(c.change === 'added' ? 'add' : c.change === 'removed' ? 'remove' : 'edit'), shownText(c.summary));
    if (c.argv) li.append(argvChange(c.argv.before, c.argv.after));
    caps.append(li);
  }
  s.append(el('h3', undefined, 'Capabilities'), caps, el('h3', undefined, 'Files'));
  if (changes.filesNote) s.append(el('p', 'warn', changes.filesNote));
  if (changes.files.length === 0)
    s.append(el('p', 'muted', changes.filesNote ? 'None of the files you reviewed changed.' : 'No file changes.'));
  for (const f of changes.files) s.append(fileChange(f));
  return s;
}

/** One changed file, its diff collapsed unless the user had it open (kept across renders). */
function fileChange(f: NonNullable<ReviewViewModel['changes']>['files'][number]): HTMLElement {
  const d = el('details', `file-change change-${f.change}`);
  const key = f.file;
  d.open = openDiffs.has(key);
  d.addEventListener('toggle', () => (d.open ? openDiffs.add(key) : openDiffs.delete(key)));
  const sum = el('summary');
  sum.append(el('span', `tag tag-${f.change}`, f.change), openLink(f.path, f.file, 0));
  if (f.note) sum.append(el('span', 'muted', ` ${f.note}`));
  d.append(sum);
  if (f.diff.length) {
    const pre = el('pre', 'diff');
    for (const line of f.diff) pre.append(shownIn('div', `diff-${line.kind}`, line.text));
    d.append(pre);
  }
  return d;
}

/** An argv change as two lists, before → after, each element its own token. */
function argvChange(before: readonly Shown[], after: readonly Shown[]): HTMLElement {
  const box = el('div', 'argv-change');
  const line = (label: string, list: readonly Shown[], cls: string) => {
    const row = el('div', `argv-line ${cls}`);
    row.append(el('span', 'argv-label', label));
    const argv = el('span', 'argv');
    for (const a of list) argv.append(shownIn('span', 'argtoken', a));
    if (list.length === 0) argv.append(el('span', 'muted', '(none)'));
    row.append(argv);
    return row;
  };
  box.append(line('before', before, 'before'), line('after', after, 'after'));
  return box;
}
