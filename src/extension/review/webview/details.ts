// The sections below the capabilities, one row per fact: the contract, the files, the diagnostics, the hashes.
import type { ReviewViewModel } from '../../../core/review/reviewModel';
import { el, icon, openLink, section, shownIn, shownText } from './dom';

/** The unit's contract in its agent's terms: one row per fact. */
export function contractSection(contract: NonNullable<ReviewViewModel['contract']>): HTMLElement {
  const s = section(contract.title, 'symbol-interface', 'contract');
  const dl = el('dl');
  for (const row of contract.rows) {
    dl.append(el('dt', undefined, row.label), shownIn('dd', undefined, row.value));
  }
  s.append(dl);
  return s;
}

/** The files, each hashed one a link to open it; one Skillgate could not hash says why, with nothing to open (it may be a link). */
export function filesSection(files: ReviewViewModel['files']): HTMLElement {
  const unhashed = files.filter((f) => 'unhashed' in f).length;
  const s = section(`Files (${files.length}${unhashed ? `, ${unhashed} not hashed` : ''})`, 'files', 'files');
  const table = el('table', 'files');
  for (const f of files) {
    const tr = el('tr');
    const name = el('td', 'wraps');
    if ('unhashed' in f) {
      name.append(shownText(f.path));
      const why = el('td', 'warn', 'not hashed: ');
      why.append(shownText(f.unhashed));
      tr.append(name, el('td', 'num', '?'), el('td', 'mono', ''), why);
    } else {
      name.append(openLink(f.path, f.file, 0));
      tr.append(
        name,
        el('td', 'num', String(f.size)),
        el('td', 'mono', f.executable ? 'x' : ''),
        el('td', 'mono hash', f.sha256.slice(0, 16)),
      );
    }
    table.append(tr);
  }
  s.append(table);
  return s;
}

export function diagnosticsSection(diagnostics: ReviewViewModel['diagnostics'], notShown: number): HTMLElement {
  const s = section(`Diagnostics (${diagnostics.length + notShown})`, 'warning', 'diagnostics');
  if (diagnostics.length === 0) s.append(el('p', 'muted', 'None.'));
  for (const d of diagnostics) {
    const row = el('div', `diag diag-${d.severity}`);
    row.append(
      icon(d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : 'info'),
      el('code', undefined, d.code),
      shownText(d.message),
      el('span', 'muted', ' '),
      openLink(d.where, d.file, d.line),
    );
    s.append(row);
  }
  if (notShown > 0)
    s.append(
      el(
        'p',
        'muted',
        `… and ${notShown} more, not listed here: the Problems panel and \`skillgate validate\` list them, up to 100 a file.`,
      ),
    );
  return s;
}

/** The content hash, the capability hash and the review token. */
export function hashesSection(h: ReviewViewModel['hashes']): HTMLElement {
  const s = section('Content hash, capability hash, review token', 'key', 'hashes');
  const dl = el('dl');
  for (const [k, v] of [
    ['content hash', h.content],
    ['capability hash', h.capability],
    ['review token', h.token],
  ] as const)
    dl.append(
      el('dt', undefined, k),
      v === null ? el('dd', 'muted', `not computable: ${h.notComputable}`) : el('dd', 'mono', v),
    );
  if (h.codewhaleCommand) dl.append(el('dt', undefined, 'Codewhale'), shownIn('dd', 'mono', h.codewhaleCommand));
  s.append(dl);
  return s;
}
