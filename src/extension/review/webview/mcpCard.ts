// One MCP server as a card: how it starts or where it connects, and what it may reach.
import type { McpView } from '../../../core/review/reviewModel';
import { el, icon, shownList, shownParts, shownText, wrapDd } from './dom';

export function mcpCard(s: McpView): HTMLElement {
  const card = el('div', 'card');
  const h = el('div', 'card-title');
  h.append(
    icon(s.transport.text === 'stdio' ? 'terminal' : 'globe'),
    shownText(s.id, 'mono'),
    shownText(s.transport, 'pill'),
    el('span', `pill ${s.state.tone}`, s.state.text),
  );
  card.append(h);
  const dl = el('dl');
  const row = (k: string, v: HTMLElement | string) =>
    dl.append(el('dt', undefined, k), typeof v === 'string' ? el('dd', 'mono', v) : wrapDd(v));
  if (s.command) {
    row('command', shownText(s.command, 'mono'));
    const argv = el('div', 'argv');
    for (const a of s.argv) {
      const t = el('span', `argtoken ${a.kind}`);
      t.title = a.kind === 'plugin-path' ? 'a file inside this bundle' : 'a literal argument';
      t.append(el('span', 'argnum', `#${a.index}`), shownText(a.value));
      argv.append(t);
    }
    row('argv', s.argv.length ? argv : '(none)');
    if (s.cwd) row('cwd', shownText(s.cwd, 'mono'));
    row('env', s.env.length ? lines(s.env.map((e) => shownParts([e.destination, ' ← ${', e.source, '}']))) : '(none)');
  }
  // What the local process may reach, in its agent's words where it states them (built on the host).
  if (s.authority) dl.append(el('dt', undefined, 'authority'), el('dd', 'warn', s.authority));
  if (s.endpoint) {
    row('endpoint', shownText(s.endpoint, 'mono'));
    if (s.host) row('host', shownText(s.host, 'mono'));
    row('auth', s.authEnv.length ? lines(s.authEnv.map((a) => shownText(a))) : '(none)');
  }
  if (s.timeouts.length) row('timeouts', s.timeouts.join(', '));
  if (s.enabledTools.length) row('enabled tools', shownList(s.enabledTools, 'mono'));
  if (s.disabledTools.length) row('disabled tools', shownList(s.disabledTools, 'mono'));
  // The rest of what the agent's own review states of this server (Codewhale: redirects, oauth, required, switch).
  for (const f of s.facts) row(f.label, shownText(f.value, 'mono'));
  card.append(dl);
  return card;
}

/** One line each (env mappings, credentials), in the monospace the card's values use. */
function lines(items: readonly HTMLElement[]): HTMLElement {
  const box = el('div', 'mono');
  for (const item of items) {
    const line = el('div');
    line.append(item);
    box.append(line);
  }
  return box;
}
