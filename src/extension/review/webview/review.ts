// The review panel's script. It builds every node with createElement/textContent:
// bundle text never reaches innerHTML, so `<script>` in a description stays text.
import type { HostMessage, WebviewMessage } from '../reviewProtocol';
import type { McpView, ReviewViewModel, Shown } from '../../../core/review/reviewModel';

declare function acquireVsCodeApi(): {
  postMessage(m: WebviewMessage): void;
  setState(s: unknown): void;
  getState(): unknown;
};

const vscode = acquireVsCodeApi();
const root = document.getElementById('root') as HTMLElement;
let openDiffs = new Set<string>();

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function icon(name: string): HTMLElement {
  const i = el('span', `codicon codicon-${name}`);
  i.setAttribute('aria-hidden', 'true');
  return i;
}

/** Bundle text, with a visible flag when it held invisible characters. */
function shownText(s: Shown, cls = ''): HTMLElement {
  const span = el('span', `${cls}${s.hidden ? ' hidden-chars' : ''}`.trim(), s.text);
  if (s.hidden) {
    span.title = 'Contains invisible or bidirectional characters, shown as ⟦U+…⟧';
    const flag = el('span', 'flag', 'hidden characters');
    const wrap = el('span');
    wrap.append(span, flag);
    return wrap;
  }
  return span;
}

function button(
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

function section(title: string, codicon: string, id: string): HTMLElement {
  const s = el('section');
  s.id = id;
  const h = el('h2');
  h.append(icon(codicon), el('span', undefined, title));
  s.append(h);
  return s;
}

function openLink(label: Shown | string, file: string, line: number): HTMLElement {
  const a = el('a', 'open-link');
  a.href = '#';
  a.append(typeof label === 'string' ? el('span', undefined, label) : shownText(label));
  a.addEventListener('click', (e) => {
    e.preventDefault();
    vscode.postMessage({ type: 'open', file, line });
  });
  return a;
}

function render(m: ReviewViewModel, changed: boolean): void {
  root.replaceChildren(
    ...banners(m, changed),
    header(m),
    ...(m.notCovered.length ? [notCoveredSection(m.notCovered)] : []),
    ...(m.changes ? [changesSection(m.changes, m.capabilitiesUnknown)] : []),
    ...(m.contract ? [contractSection(m.contract)] : []),
    capabilitiesSection(m),
    filesSection(m.files),
    diagnosticsSection(m.diagnostics, m.diagnosticsNotShown),
    hashesSection(m.hashes),
  );
}

/** The bundle changed under an open review; it holds invisible characters. */
function banners(m: ReviewViewModel, changed: boolean): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (changed) {
    const banner = el('div', 'banner changed');
    banner.append(
      icon('warning'),
      el(
        'span',
        undefined,
        'This bundle changed on disk while this review was open. The review below shows it as it is now. If you trusted it before the change, that trust covered only the earlier version and no longer applies.',
      ),
    );
    out.push(banner);
  }
  if (m.hiddenCount > 0) {
    const banner = el('div', 'banner hidden');
    banner.append(
      icon('eye'),
      el(
        'span',
        undefined,
        `${m.hiddenCount} string(s) in this bundle contain invisible or bidirectional characters; they are shown as ⟦U+…⟧ and flagged.`,
      ),
    );
    out.push(banner);
  }
  return out;
}

/** Header: name, system, scope, path, decision with every reason, trust, enabled; then the actions and their status line. */
function header(m: ReviewViewModel): HTMLElement {
  const header = el('header');
  const title = el('h1');
  title.append(icon(m.header.icon), shownText(m.header.name));
  header.append(title);
  const meta = el('div', 'meta');
  meta.append(
    el('span', 'pill', `${m.header.system} ${m.header.kind}`),
    el('span', 'pill', m.header.scope),
    el('span', 'pill mono', m.header.path),
  );
  if (m.header.compatibility) meta.append(el('span', 'pill', `compatibility ${m.header.compatibility}`));
  header.append(meta);
  if (m.header.description) {
    const p = el('p', 'description');
    p.append(shownText(m.header.description));
    header.append(p);
  }
  header.append(decisionBox(m.header), trustState(m.header), actionButtons(m));
  for (const notice of m.actions.notices) {
    const p = el('p', 'notice');
    p.setAttribute('role', 'note');
    p.append(icon('lock'), el('span', undefined, notice));
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
      title: a.trust.why ?? 'Trust exactly what this review shows',
    }),
    ...(a.enable
      ? [
          button('Enable', 'debug-start', () => vscode.postMessage({ type: 'enable' }), {
            disabled: !a.enable.enabled,
            title: a.enable.why ?? 'Activate this bundle',
          }),
        ]
      : []),
    ...(a.disable
      ? [
          button('Disable', 'debug-stop', () => vscode.postMessage({ type: 'disable' }), {
            disabled: !a.disable.enabled,
            title: a.disable.why ?? 'Deactivate this bundle; its trust is kept',
          }),
        ]
      : []),
    button('Revoke', 'circle-slash', () => vscode.postMessage({ type: 'revoke' }), {
      disabled: !a.revoke.enabled,
      title: a.revoke.why ?? 'Remove the trust receipt',
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

/** What the hooks run that trust cannot cover: listed first, since it blocks trust. */
function notCoveredSection(notCovered: ReviewViewModel['notCovered']): HTMLElement {
  const s = section(`Not covered by this trust (${notCovered.length}): trust is refused`, 'error', 'not-covered');
  const list = el('ul');
  for (const n of notCovered) {
    const li = el('li', 'diag diag-error');
    li.append(shownText(n));
    list.append(li);
  }
  s.append(list);
  return s;
}

/** What changed since your last review: capabilities first, then files with diffs. */
function changesSection(
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
  if (capabilitiesUnknown) caps.append(el('li', 'warn', capabilitiesUnknown));
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
    for (const line of f.diff) {
      const row = el('div', `diff-${line.kind}`);
      row.append(shownText(line.text));
      pre.append(row);
    }
    d.append(pre);
  }
  return d;
}

function capabilitiesSection(m: ReviewViewModel): HTMLElement {
  const caps = section('Capabilities', 'plug', 'capabilities');
  const c = m.capabilities;
  if (m.capabilitiesUnknown) caps.append(el('p', 'warn', m.capabilitiesUnknown));
  if (c.mcp.length) {
    caps.append(el('h3', undefined, 'MCP servers'));
    for (const srv of c.mcp) caps.append(mcpCard(srv));
  }
  if (c.networkHosts.length) {
    caps.append(el('h3', undefined, 'Network hosts'));
    const ul = el('ul', 'chips');
    for (const h of c.networkHosts) ul.append(el('li', 'mono', h));
    caps.append(ul);
  }
  if (c.hooks.length) {
    caps.append(el('h3', undefined, 'Hooks (run host commands)'));
    if (c.hooksWhen) caps.append(el('p', 'hooks-when', c.hooksWhen));
    if (c.hooksOptInText !== null) caps.append(el('p', c.hooksOptIn ? 'warn' : 'muted', c.hooksOptInText));
    caps.append(hooksTable(c.hooks));
  }
  if (c.skills.length) caps.append(el('h3', undefined, 'Skills'), skillList(c.skills));
  if (c.commands.length) caps.append(el('h3', undefined, 'Commands'), commandList(c.commands));
  if (c.components.length) caps.append(el('h3', undefined, 'Components'), componentList(c.components));
  if (caps.childElementCount === 1) caps.append(el('p', 'muted', 'This bundle declares no capabilities.'));
  return caps;
}

function skillList(skills: ReviewViewModel['capabilities']['skills']): HTMLElement {
  const ul = el('ul');
  for (const sk of skills) {
    const li = el('li', 'skill');
    li.append(shownText(sk.name, 'mono'), el('span', 'muted', ' — '), shownText(sk.description));
    if (sk.body) li.append(bodyDetails(sk.body, 'Show the text the agent reads'));
    ul.append(li);
  }
  return ul;
}

function commandList(commands: ReviewViewModel['capabilities']['commands']): HTMLElement {
  const ul = el('ul');
  for (const c of commands) {
    const li = el('li', 'command');
    li.append(shownText(c.name, 'mono'));
    if (c.body) li.append(bodyDetails(c.body, 'Show the text the agent reads'));
    ul.append(li);
  }
  return ul;
}

function componentList(components: ReviewViewModel['capabilities']['components']): HTMLElement {
  const ul = el('ul');
  for (const c of components) {
    const li = el('li', `component ${c.active ? 'active' : 'not-active'}${c.inactive ? ' inactive' : ''}`);
    // "skills from skills/ — not active: the bundle is not trusted and enabled", never "skills skills".
    li.append(
      el('span', 'mono', c.kind),
      el('span', 'muted', c.paths.length ? ` from ${c.paths.map((p) => p.text).join(', ')}` : ''),
      el('span', undefined, ' — '),
      el('span', `activity ${c.active ? 'on' : 'off'}`, c.activity),
    );
    ul.append(li);
  }
  return ul;
}

/** The unit's contract in its agent's terms: one row per fact. */
function contractSection(contract: NonNullable<ReviewViewModel['contract']>): HTMLElement {
  const s = section(contract.title, 'symbol-interface', 'contract');
  const dl = el('dl');
  for (const row of contract.rows) {
    const dd = el('dd');
    dd.append(shownText(row.value));
    dl.append(el('dt', undefined, row.label), dd);
  }
  s.append(dl);
  return s;
}

function filesSection(files: ReviewViewModel['files']): HTMLElement {
  const s = section(`Files (${files.length})`, 'files', 'files');
  const table = el('table', 'files');
  for (const f of files) {
    const tr = el('tr');
    const name = el('td');
    name.append(openLink(f.path, f.file, 0));
    tr.append(
      name,
      el('td', 'num', String(f.size)),
      el('td', 'mono', f.executable ? 'x' : ''),
      el('td', 'mono hash', f.sha256.slice(0, 16)),
    );
    table.append(tr);
  }
  s.append(table);
  return s;
}

function diagnosticsSection(diagnostics: ReviewViewModel['diagnostics'], notShown: number): HTMLElement {
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
        `… and ${notShown} more, not listed here: the Problems panel and \`skillgate validate\` list every one.`,
      ),
    );
  return s;
}

/** The content hash, the capability hash and the review token. */
function hashesSection(h: ReviewViewModel['hashes']): HTMLElement {
  const s = section('Content hash, capability hash, review token', 'key', 'hashes');
  const dl = el('dl');
  for (const [k, v] of [
    ['content hash', h.content],
    ['capability hash', h.capability],
    ['review token', h.token],
  ] as const)
    dl.append(
      el('dt', undefined, k),
      v === null ? el('dd', 'muted', 'not computable: the manifest does not load') : el('dd', 'mono', v),
    );
  if (h.codewhaleCommand) dl.append(el('dt', undefined, 'Codewhale'), el('dd', 'mono', h.codewhaleCommand));
  s.append(dl);
  return s;
}

function mcpCard(s: McpView): HTMLElement {
  const card = el('div', 'card');
  const h = el('div', 'card-title');
  h.append(
    icon(s.transport === 'stdio' ? 'terminal' : 'globe'),
    shownText(s.id, 'mono'),
    el('span', 'pill', s.transport),
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
    row('env', s.env.length ? s.env.map((e) => `${e.destination} ← \${${e.source}}`).join('\n') : '(none)');
  }
  // What the local process may reach, in its agent's words where it states them (built on the host).
  if (s.authority) dl.append(el('dt', undefined, 'authority'), el('dd', 'warn', s.authority));
  if (s.endpoint) {
    row('endpoint', shownText(s.endpoint, 'mono'));
    if (s.host) row('host', s.host);
    row('auth', s.authEnv.length ? s.authEnv.join('\n') : '(none)');
  }
  if (s.timeouts.length) row('timeouts', s.timeouts.join(', '));
  if (s.enabledTools.length) row('enabled tools', s.enabledTools.map((t) => t.text).join(', '));
  if (s.disabledTools.length) row('disabled tools', s.disabledTools.map((t) => t.text).join(', '));
  // The rest of what the agent's own review states of this server (Codewhale: redirects, oauth, required, switch).
  for (const f of s.facts) row(f.label, shownText(f.value, 'mono'));
  card.append(dl);
  return card;
}

/** An argv change as two lists, before → after, each element its own token. */
function argvChange(before: readonly Shown[], after: readonly Shown[]): HTMLElement {
  const box = el('div', 'argv-change');
  const line = (label: string, list: readonly Shown[], cls: string) => {
    const row = el('div', `argv-line ${cls}`);
    row.append(el('span', 'argv-label', label));
    const argv = el('span', 'argv');
    for (const a of list) {
      const t = el('span', 'argtoken');
      t.append(shownText(a));
      argv.append(t);
    }
    if (list.length === 0) argv.append(el('span', 'muted', '(none)'));
    row.append(argv);
    return row;
  };
  box.append(line('before', before, 'before'), line('after', after, 'after'));
  return box;
}

/** Hooks with column headers; under each, the repository files its command runs and whether trust covers them. */
function hooksTable(hooks: ReviewViewModel['capabilities']['hooks']): HTMLElement {
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
    const argv = el('td', 'mono');
    h.argv.forEach((a, i) => {
      if (i) argv.append(el('span', 'sep', ' '));
      argv.append(shownText(a, 'token'));
    });
    tr.append(
      el('td', undefined, h.event),
      argv,
      el('td', undefined, `${h.timeoutSeconds}s`),
      el('td', 'mono', h.tools.length ? h.tools.join(', ') : 'all tools'),
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
      li.append(icon(f.covered ? 'pass' : 'error'), shownText(f.path, 'mono'), el('span', 'muted', ` ${f.note}`));
      ul.append(li);
    }
    if (h.files.length) td.append(ul);
    files.append(td);
    body.append(files);
  }
  table.append(body);
  return table;
}

/** A skill's or command's text, collapsed: bundle text, so set with textContent, its invisible characters marked. */
function bodyDetails(text: Shown, label: string): HTMLElement {
  const d = el('details', 'body');
  const sum = el('summary', undefined, label);
  if (text.hidden) sum.append(el('span', 'flag', 'hidden characters'));
  const pre = el('pre', `body-text${text.hidden ? ' hidden-chars' : ''}`, text.text);
  d.append(sum, pre);
  return d;
}

function wrapDd(child: HTMLElement): HTMLElement {
  const dd = el('dd');
  dd.append(child);
  return dd;
}

/** The outcome of an action: the host posts it just before re-rendering, so the next render shows it again (once). */
let pendingStatus: { text: string; error: boolean } | undefined;

/** Whether a review has been rendered: the status line lives in its header. */
let rendered = false;

function showStatus(st: { text: string; error: boolean }): void {
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
function showAlone(st: { text: string; error: boolean }): void {
  const p = el('p', `status ${st.error ? 'error' : 'ok'}`, st.text);
  p.id = 'status';
  root.replaceChildren(p);
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const msg = event.data;
  if (msg.type === 'render') {
    render(msg.model, msg.changed);
    rendered = true;
    if (pendingStatus) showStatus(pendingStatus);
    pendingStatus = undefined;
    vscode.setState({ id: msg.model.id, open: [...openDiffs] });
  } else if (msg.type === 'status') {
    const st = { text: msg.text, error: msg.error };
    // Shown alone, it is not an action's outcome for the next render to repeat.
    if (!rendered) showAlone(st);
    else {
      pendingStatus = st;
      showStatus(st);
    }
  }
});

const saved = vscode.getState() as { open?: string[] } | undefined;
openDiffs = new Set(saved?.open ?? []);
vscode.postMessage({ type: 'ready' });
