// The DOM helpers every section builds with: createElement and textContent only,
// so bundle text never reaches innerHTML.
import type { Shown } from '../../../core/review/reviewModel';
import { vscode } from './panel';

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

export function icon(name: string): HTMLElement {
  const i = el('span', `codicon codicon-${name}`);
  i.setAttribute('aria-hidden', 'true');
  return i;
}

const HIDDEN_NOTE = 'Contains invisible or bidirectional characters, shown as \\u{…}';

/** Bundle text, with a visible flag when it held invisible characters. */
export function shownText(s: Shown, cls = ''): HTMLElement {
  const span = el('span', `${cls}${s.hidden ? ' hidden-chars' : ''}`.trim(), s.text);
  if (s.hidden) {
    span.title = HIDDEN_NOTE;
    const flag = el('span', 'flag', 'hidden characters');
    const wrap = el('span');
    wrap.append(span, flag);
    return wrap;
  }
  return span;
}

/** An element holding one bundle string, flagged as `shownText` flags it. */
export function shownIn<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls: string | undefined,
  s: Shown,
): HTMLElementTagNameMap[K] {
  const e = el(tag, cls);
  e.append(shownText(s));
  return e;
}

/** Bundle text among the panel's own words (`KEY ← ${SOURCE}`): each bundle string flagged on its own. */
export function shownParts(parts: readonly (Shown | string)[], cls?: string): HTMLElement {
  const span = el('span', cls);
  for (const p of parts) span.append(typeof p === 'string' ? el('span', undefined, p) : shownText(p));
  return span;
}

/** Bundle strings in a row, `a, b`: each flagged on its own. */
export function shownList(items: readonly Shown[], cls?: string): HTMLElement {
  return shownParts(
    items.flatMap((s, i) => (i ? [', ', s] : [s])),
    cls,
  );
}

/** Bundle text as a tooltip, which cannot hold the flag: said in words after it. */
export function shownTitle(s: Shown): string {
  return s.hidden ? `${s.text} (${HIDDEN_NOTE})` : s.text;
}

export function button(
  label: string,
  codicon: string,
  onClick: () => void,
  opts: { primary?: boolean; disabled?: boolean; title?: string } = {},
): HTMLButtonElement {
  const b = el('button', opts.primary ? 'primary' : 'secondary');
  b.append(icon(codicon), el('span', undefined, label));
  b.disabled = !!opts.disabled;
  if (opts.title) b.title = opts.title;
  b.addEventListener('click', onClick);
  return b;
}

export function section(title: string, codicon: string, id: string): HTMLElement {
  const s = el('section');
  s.id = id;
  const h = el('h2');
  h.append(icon(codicon), el('span', undefined, title));
  s.append(h);
  return s;
}

export function openLink(label: Shown, file: string, line: number): HTMLElement {
  const a = el('a', 'open-link');
  a.href = '#';
  a.append(shownText(label));
  a.addEventListener('click', (e) => {
    e.preventDefault();
    vscode.postMessage({ type: 'open', file, line });
  });
  return a;
}

export function wrapDd(child: HTMLElement): HTMLElement {
  const dd = el('dd');
  dd.append(child);
  return dd;
}
