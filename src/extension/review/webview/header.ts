// The review's header: what the bundle is, the decision, its trust, and the actions on it.
import type { ReviewViewModel } from '../../../core/review/reviewModel';
import { button, el, icon, shownIn, shownText, shownTitle } from './dom';
import { vscode } from './panel';

/** Header: name, system, scope, path, decision with every reason, trust, enabled; then the actions and their status line. */
export function header(m: ReviewViewModel): HTMLElement {
  const header = el('header');
  const title = el('h1');
  title.append(icon(m.header.icon), shownText(m.header.name));
  header.append(title);
  const meta = el('div', 'meta');
  meta.append(
    el('span', 'pill', `${m.header.system} ${m.header.kind}`),
    el('span', 'pill', m.header.scope),
    shownText(m.header.path, 'pill mono'),
  );
  if (m.header.compatibility) meta.append(el('span', 'pill', `compatibility ${m.header.compatibility}`));
  header.append(meta);
  if (m.header.description) header.append(shownIn('p', 'description', m.header.description));
  header.append(decisionBox(m.header), trustState(m.header), actionButtons(m));
  for (const notice of m.actions.notices) {
    const p = el('p', 'notice');
    p.setAttribute('role', 'note');
    p.append(icon('lock'), shownText(notice));
    header.append(p);
  }
  const status = el('div', 'status');
  status.id = 'status';
  status.setAttribute('role', 'status');
  header.append(status);
  return header;
}

function decisionBox(h: ReviewViewModel['header']): HTMLElement {
  const decision = el('div', `decision decision-${h.decision}${h.loadedUnreviewed ? ' loaded-unreviewed' : ''}`);
  decision.append(el('strong', undefined, h.decisionText));
  const reasons = el('ul', 'reasons');
  for (const r of h.reasons) {
    const li = el('li');
    li.append(el('code', undefined, r.code), el('span', undefined, ` ${r.text}`));
    reasons.append(li);
  }
  decision.append(reasons);
  return decision;
}

function trustState(h: ReviewViewModel['header']): HTMLElement {
  const state = el('div', 'state');
  state.append(el('span', `pill trust-${h.trust}`, `trust: ${h.trust}`));
  // A system without an enable switch (Rivumi) has no bit to show; a loaded, unreviewed bundle is shown as the risk it is.
  // Green only when the switch is on and the bundle is active: an enabled bundle that changed waits for a new review.
  if (h.enabled !== null)
    state.append(
      h.enabled && h.decision !== 'registered'
        ? el('span', 'pill muted', 'enabled, but not active')
        : el('span', `pill ${h.enabled ? 'on' : 'off'}`, h.enabled ? 'enabled' : 'not enabled'),
    );
  if (h.loadedUnreviewed) state.append(el('span', 'pill risk', 'loaded · not reviewed'));
  return state;
}

/** Which actions work is decided on the host (reviewActions); a disabled one says why. */
function actionButtons(m: ReviewViewModel): HTMLElement {
  const actions = el('div', 'actions');
  const token = m.hashes.token;
  const a = m.actions;
  actions.append(
    button('Trust…', 'verified', () => token && vscode.postMessage({ type: 'trust', token }), {
      primary: a.trust.enabled,
      disabled: !a.trust.enabled,
      title: a.trust.why ? shownTitle(a.trust.why) : 'Trust exactly what this review shows',
    }),
    ...(a.enable
      ? [
          button('Enable', 'debug-start', () => vscode.postMessage({ type: 'enable' }), {
            disabled: !a.enable.enabled,
            title: a.enable.why ? shownTitle(a.enable.why) : 'Activate this bundle',
          }),
        ]
      : []),
    ...(a.disable
      ? [
          button('Disable', 'debug-stop', () => vscode.postMessage({ type: 'disable' }), {
            disabled: !a.disable.enabled,
            title: a.disable.why ? shownTitle(a.disable.why) : 'Deactivate this bundle; its trust is kept',
          }),
        ]
      : []),
    button('Revoke', 'circle-slash', () => vscode.postMessage({ type: 'revoke' }), {
      disabled: !a.revoke.enabled,
      title: a.revoke.why ? shownTitle(a.revoke.why) : 'Remove the trust receipt',
    }),
    button('Copy review token', 'copy', () => vscode.postMessage({ type: 'copyToken' }), {
      disabled: token === null,
      title: token === null ? 'No review token: the bundle cannot be hashed' : 'Copy the review token',
    }),
  );
  if (m.hashes.codewhaleCommand)
    actions.append(
      button('Copy /plugin trust', 'terminal', () => vscode.postMessage({ type: 'copyCodewhaleCommand' })),
    );
  return actions;
}
