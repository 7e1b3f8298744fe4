// The status line: an action's outcome under the header, or the panel's whole content when no review could be read.
import { el } from './dom';
import { root } from './panel';

export function showStatus(st: { text: string; error: boolean }): void {
  const s = document.getElementById('status');
  if (s) {
    s.textContent = st.text;
    s.className = `status ${st.error ? 'error' : 'ok'}`;
  }
}

/**
 * A status before any review: the bundle could not be read at all (gone from disk, or
 * Skillgate failed while reading it). It is the panel's whole content, in place of
 * "Loading the review…", which would otherwise stay forever.
 */
export function showAlone(st: { text: string; error: boolean }): void {
  const p = el('p', `status ${st.error ? 'error' : 'ok'}`, st.text);
  p.id = 'status';
  root.replaceChildren(p);
}
