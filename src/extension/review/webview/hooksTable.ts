import type { ReviewViewModel } from '../../../core/review/reviewModel';
import { el, icon, shownList, shownText } from './dom';

/** Hooks with column headers; under each, the repository files its command runs and whether trust covers them. */
export function hooksTable(hooks: ReviewViewModel['capabilities']['hooks']): HTMLElement {
  const table = el('table', 'hooks');
  const head = el('thead');
  const hr = el('tr');
  for (const h of ['event', 'command', 'timeout', 'tools', 'working directory']) {
    const th = el('th', undefined, h);
    th.scope = 'col';
    hr.append(th);
  }
  head.append(hr);
  table.append(head);
  const body = el('tbody');
  for (const h of hooks) {
    const tr = el('tr');
    const argv = el('td', 'mono wraps');
    h.argv.forEach((a, i) => {
      if (i) argv.append(el('span', 'sep', ' '));
      argv.append(shownText(a, 'token'));
    });
    const tools = el('td', 'mono wraps tools');
    tools.append(h.tools.length ? shownList(h.tools) : el('span', undefined, 'all tools'));
    tr.append(
      el('td', undefined, h.event),
      argv,
      el('td', undefined, `${h.timeoutSeconds}s`),
      tools,
      el('td', undefined, h.cwd),
    );
    body.append(tr);
    const files = el('tr', 'hook-files');
    const td = el('td');
    td.colSpan = 5;
    td.append(
      el('span', 'muted', h.files.length ? 'Runs files: ' : 'Runs no repository file (only programs on the host).'),
    );
    const ul = el('ul', 'hook-file-list');
    for (const f of h.files) {
      const li = el('li', f.covered ? 'covered' : 'not-covered');
      li.append(
        icon(f.covered ? 'pass' : 'error'),
        shownText(f.path, 'mono'),
        el('span', 'muted', ' '),
        shownText(f.note, 'muted'),
      );
      ul.append(li);
    }
    if (h.files.length) td.append(ul);
    // Runs, then denies whatever it answered (a Rivumi label past 512 characters): its effects happen, its answer does not count.
    if (h.afterRun) {
      const after = el('div', 'hook-after');
      after.append(icon('warning'), el('span', undefined, `Runs, ${h.afterRun}.`));
      td.append(after);
    }
    files.append(td);
    body.append(files);
  }
  table.append(body);
  return table;
}
