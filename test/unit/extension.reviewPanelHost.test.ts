import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { loadWithVscode, vscodeStandIn } from './helpers/vscodeStandIn';
import { Fixture, LINUX_HOST, index, writeW } from './helpers/fixture';
import { A0, EvaFixture } from './helpers/evaFixture';
import { Indexer } from '../../src/core/index/indexer';
import { TrustStore } from '../../src/core/trust/trustStore';
import { review } from '../../src/core/trust/reviewBundle';
import { trust, trustShown, type TrustPreview } from '../../src/core/trust/grantTrust';
import { enable } from '../../src/core/trust/switches';
import { RESTRICTED_NOTICE_TRUST_ONLY } from '../../src/core/review/reviewViewModel';
import { RESTRICTED_ENABLE, RESTRICTED_TRUST } from '../../src/extension/flows/trustFlow';
import type { ReviewViewModel } from '../../src/core/review/reviewModel';
import type { Diagnostic, Item } from '../../src/core/model';
import type { SkillgateService } from '../../src/extension/skillgateService';
import type { UiPort } from '../../src/extension/flows/ports';

type Panels = typeof import('../../src/extension/review/reviewPanel');

/**
 * The review panel's host side, on the vscode stand-in: a webview message whose action
 * fails (a file listed by the review, removed before the click, which the editor refuses
 * to open) is said in the panel's status line, never left as an unhandled rejection in
 * the extension host with nothing shown; Revoke and Disable say what the store did, in the
 * palette's words; and granting workspace trust renders the panel again, even where the
 * bundle's own state reads the same.
 */
describe('the review panel host: failures said, Restricted Mode left behind', () => {
  const api = vscodeStandIn.api as unknown as Record<string, Record<string, unknown>>;
  // The clipboard the panel's Copy buttons write to: `env` must be there when the module loads
  // (its `import * as vscode` copies the names present then); each test gives it the clipboard,
  // since another file's tests set `env` as they need it.
  if (!('env' in api)) api.env = undefined as never;
  const clipboard: { writeText?: (t: string) => Promise<void> } = {};
  let envBefore: unknown;
  const { ReviewPanels } = loadWithVscode(() => require('../../src/extension/review/reviewPanel') as Panels);
  /** A diagnostic the snapshot holds; each test says whose. */
  const DIAGNOSTIC: Diagnostic = {
    file: '/ws/x',
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
    severity: 'warning',
    code: 'codewhale.example',
    message: 'm',
    itemId: null,
  };
  let f: Fixture;
  let posted: {
    type: string;
    text?: string;
    error?: boolean;
    model?: { actions: { notices: { text: string }[] } };
  }[];
  let deliver: (raw: unknown) => unknown;
  /** The panels the extension asked VS Code for, with what it asked. */
  let created: { viewType: string; title: string; column: number; options: unknown; panel: StandInPanel }[];
  /** A webview panel as VS Code hands it over: what the extension sets on it, and its listeners. */
  const webviewPanel = () => {
    const panel = {
      visible: true,
      title: '',
      iconPath: undefined as unknown,
      revealed: 0,
      disposed: false,
      listening: false,
      onDispose: [] as (() => void)[],
      webview: {
        options: {} as unknown,
        html: '',
        cspSource: 'vscode-resource:',
        asWebviewUri: (u: unknown) => u,
        onDidReceiveMessage: (listener: (raw: unknown) => unknown) => {
          deliver = listener;
          panel.listening = true;
          return { dispose: () => void (panel.listening = false) };
        },
        postMessage: async (m: (typeof posted)[number]) => (posted.push(m), true),
      },
      onDidDispose: (listener: () => void) => (panel.onDispose.push(listener), { dispose: () => undefined }),
      reveal: () => void panel.revealed++,
      dispose: () => {
        panel.disposed = true;
        for (const l of panel.onDispose) l();
      },
    };
    return panel;
  };
  type StandInPanel = ReturnType<typeof webviewPanel>;
  const added: [Record<string, unknown>, string][] = [];
  const add = (on: Record<string, unknown>, key: string, value: unknown) => {
    on[key] = value;
    added.push([on, key]);
  };

  beforeEach(() => {
    vscodeStandIn.reset();
    f = new Fixture();
    posted = [];
    add(api.Uri as Record<string, unknown>, 'joinPath', (base: { fsPath: string }, ...parts: string[]) => ({
      scheme: 'file',
      fsPath: [base.fsPath, ...parts].join('/'),
      toString: () => `file://${[base.fsPath, ...parts].join('/')}`,
    }));
    created = [];
    clipboard.writeText = async () => undefined;
    envBefore = api.env;
    api.env = { clipboard };
    add(
      api.window as Record<string, unknown>,
      'createWebviewPanel',
      (viewType: string, title: string, column: number, options: unknown) => {
        const panel = webviewPanel();
        created.push({ viewType, title, column, options, panel });
        return panel;
      },
    );
    // What VS Code answers for a file that is not on disk (any more).
    add(api.window as Record<string, unknown>, 'showTextDocument', async (uri: { fsPath: string }) => {
      throw new Error(`cannot open file://${uri.fsPath}. Detail: Unable to resolve nonexistent file '${uri.fsPath}'`);
    });
  });
  afterEach(() => {
    for (const [on, key] of added.splice(0)) delete on[key];
    delete clipboard.writeText;
    api.env = envBefore as never;
    vscodeStandIn.reset();
    f.remove();
  });

  it('shows why a file of the review cannot be opened, without an unhandled rejection', async () => {
    writeW(f);
    const store = new TrustStore(f.path('state'));
    const snapshot = index([f.path('ws')], { trust: () => store.view() });
    const item = snapshot.items.find((i) => i.kind === 'plugin') as Item;
    const service = {
      snapshot,
      published: async () => snapshot,
      review: (i: Item) => review(i, { store }),
    } as unknown as SkillgateService;
    const ui: UiPort = { confirm: async () => false, offer: async () => false, info: () => {}, error: () => {} };
    const panels = new ReviewPanels({ scheme: 'file', fsPath: '/ext' } as never, service, ui);
    panels.open(item);
    await deliver({ type: 'ready' });
    const rendered = posted.find((m) => m.type === 'render') as unknown as {
      model: { files: { file: string }[] };
    };
    assert.ok(rendered, 'the review rendered');
    const skill = rendered.model.files.map((x) => x.file).find((x) => x.endsWith('SKILL.md')) as string;
    assert.ok(skill);
    fs.rmSync(skill);

    const unhandled: unknown[] = [];
    const mochaListeners = process.listeners('unhandledRejection');
    process.removeAllListeners('unhandledRejection');
    const note = (e: unknown) => void unhandled.push(e);
    process.on('unhandledRejection', note);
    try {
      await deliver({ type: 'open', file: skill, line: 0 });
      // The open looks at the file first (openableUri): until the status line says how it ended, or a second.
      for (let i = 0; i < 200 && !posted.some((m) => m.type === 'status'); i++)
        await new Promise((r) => setTimeout(r, 5));
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    } finally {
      process.removeListener('unhandledRejection', note);
      for (const l of mochaListeners) process.on('unhandledRejection', l);
    }
    assert.deepEqual(unhandled, []);
    const status = posted.filter((m) => m.type === 'status');
    assert.equal(status.length, 1, JSON.stringify(posted.map((m) => m.type)));
    assert.equal(status[0]?.error, true);
    assert.match(status[0]?.text ?? '', /nonexistent file/);
  });

  it("says what Revoke and Disable did, in the palette's words: nothing, on a stale panel", async () => {
    writeW(f);
    const store = new TrustStore(f.path('state'));
    const snapshot = index([f.path('ws')], { trust: () => store.view() });
    const item = snapshot.items.find((i) => i.kind === 'plugin') as Item;
    let changed = false;
    const service = {
      snapshot,
      published: async () => snapshot,
      review: (i: Item) => review(i, { store }),
      revoke: async () => ({ ok: true, value: { changed } }),
      disable: async () => ({ ok: true, value: { changed } }),
    } as unknown as SkillgateService;
    const ui: UiPort = { confirm: async () => false, offer: async () => false, info: () => {}, error: () => {} };
    new ReviewPanels({ scheme: 'file', fsPath: '/ext' } as never, service, ui).open(item);
    await deliver({ type: 'ready' });
    const said = async (type: 'revoke' | 'disable') => {
      posted.length = 0;
      await deliver({ type });
      return posted.filter((m) => m.type === 'status').map((m) => [m.text, m.error]);
    };
    // Another window revoked and disabled it first: the store changed nothing.
    assert.deepEqual(await said('revoke'), [[`${item.name} has no trust record; nothing to revoke.`, false]]);
    assert.deepEqual(await said('disable'), [[`${item.name} is not enabled; nothing to disable.`, false]]);
    changed = true;
    assert.deepEqual(await said('revoke'), [[`Revoked trust in ${item.name}.`, false]]);
    assert.deepEqual(await said('disable'), [[`Disabled ${item.name}.`, false]]);
  });

  it('renders again once the workspace is trusted, though the bundle’s own state did not change (a trusted Eva skill)', async () => {
    const e = new EvaFixture().p0();
    try {
      e.adapter(A0);
      const store = new TrustStore(e.path('state'));
      const indexed = (workspaceTrusted: boolean) =>
        new Indexer({
          workspaces: [e.ws],
          codewhaleHome: null,
          evaHome: e.home,
          host: LINUX_HOST,
          workspaceTrusted,
          trust: () => store.view(),
        }).indexAll();
      const first = indexed(true).items.find((i) => i.id === e.id('adapters/review.yaml')) as Item;
      const trusted = await trust(first, first.reviewToken as string, { store });
      assert.ok(trusted.ok, trusted.ok ? '' : trusted.message);
      let snapshot = indexed(false);
      const service = {
        get snapshot() {
          return snapshot;
        },
        published: async () => snapshot,
        review: (i: Item) => review(i, { store }),
      } as unknown as SkillgateService;
      const ui: UiPort = { confirm: async () => false, offer: async () => false, info: () => {}, error: () => {} };
      const panels = new ReviewPanels({ scheme: 'file', fsPath: '/ext' } as never, service, ui);
      vscodeStandIn.api.workspace.isTrusted = false;
      panels.open(first);
      await deliver({ type: 'ready' });
      const notices = () =>
        (posted.filter((m) => m.type === 'render').at(-1)?.model?.actions.notices ?? []).map((n) => n.text);
      // Eva-CLI has no Skillgate enable switch: the notice names Trust and Revoke, the buttons the panel has.
      assert.ok(notices().includes(RESTRICTED_NOTICE_TRUST_ONLY), JSON.stringify(notices()));

      // Trust granted: the window indexes again and shows the new snapshot.
      vscodeStandIn.api.workspace.isTrusted = true;
      snapshot = indexed(true);
      posted.length = 0;
      panels.update(snapshot);
      assert.equal(posted.filter((m) => m.type === 'render').length, 1, 'the panel renders again');
      assert.ok(!notices().includes(RESTRICTED_NOTICE_TRUST_ONLY), JSON.stringify(notices()));
    } finally {
      e.remove();
    }
  });

  /** Until `done` holds, or a second: an open looks at the file first (openableUri), an fs call `send` does not track. */
  const opening = async (done: () => boolean) => {
    for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 5));
  };
  /** What the service is doing for the panel: a message's action is done once these are. */
  const pending: Promise<unknown>[] = [];
  const track = <T>(p: Promise<T>): Promise<T> => (pending.push(p), p);
  /** A message from the page, and its action done (the host does not return its promise). */
  const send = async (raw: unknown) => {
    deliver(raw);
    do {
      await Promise.allSettled(pending.splice(0));
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    } while (pending.length);
  };
  /**
   * The W fixture's plugin over a store of its own, and a service that reads, trusts and
   * enables it for real; `said` is what the panel's flows asked or told the person.
   */
  const reviewOfW = () => {
    writeW(f);
    const store = new TrustStore(f.path('state'));
    const indexed = () => index([f.path('ws')], { trust: () => store.view() });
    const state = { snapshot: indexed(), reviews: 0 };
    const service = {
      get snapshot() {
        return state.snapshot;
      },
      published: async () => state.snapshot,
      review: (i: Item) => (state.reviews++, review(i, { store })),
      trust: (i: Item, token: string, confirm: (p: TrustPreview) => Promise<boolean>) =>
        track(trustShown(i, token, { store }, confirm)),
      enable: (i: Item) => track(enable(i, { store })),
      revoke: async () => ({ ok: true, value: { changed: true } }),
    } as unknown as SkillgateService;
    const said: string[] = [];
    const details: string[] = [];
    const ui: UiPort = {
      confirm: async (m, detail) => (said.push(`confirm: ${m}`), details.push(detail), true),
      offer: async (m) => (said.push(`offer: ${m}`), false),
      info: (m) => void said.push(`info: ${m}`),
      error: (m) => void said.push(`error: ${m}`),
    };
    const panels = new ReviewPanels({ scheme: 'file', fsPath: '/ext' } as never, service, ui);
    const item = () => state.snapshot.items.find((i) => i.kind === 'plugin') as Item;
    /** The bundle indexed again, as the service does after a change, and the panels told. */
    const reindex = () => {
      state.snapshot = indexed();
      panels.update(state.snapshot);
    };
    return { f, store, state, service, said, details, panels, item, reindex };
  };
  const STRICT = {
    enableScripts: true,
    enableCommandUris: false,
    retainContextWhenHidden: false,
    localResourceRoots: ['/ext/media'],
  };
  const optionsOf = (o: unknown) => {
    const { localResourceRoots, ...rest } = o as { localResourceRoots: { fsPath: string }[] };
    return { ...rest, localResourceRoots: localResourceRoots.map((u) => u.fsPath) };
  };
  const renders = () =>
    posted.filter((m) => m.type === 'render') as unknown as { model: ReviewViewModel; changed: boolean }[];
  const statuses = () => posted.filter((m) => m.type === 'status').map((m) => [m.text, m.error]);
  const skillFile = () => f.path('ws/.codewhale/plugins/example-plugin/skills/example/SKILL.md');

  it('opens one panel per bundle, beside nothing, in the strict webview options, and reveals it when asked again', () => {
    const r = reviewOfW();
    r.panels.open(r.item());
    r.panels.open(r.item());
    assert.equal(created.length, 1, 'opened again: the same panel');
    const [{ viewType, title, column, options, panel }] = created as [(typeof created)[number]];
    assert.deepEqual(
      [viewType, title, column],
      ['skillgate.review', 'Review: example-plugin', vscodeStandIn.api.ViewColumn.Active],
    );
    assert.deepEqual(optionsOf(options), STRICT);
    assert.equal((panel.iconPath as { fsPath: string }).fsPath, '/ext/media/shield.svg');
    assert.equal(panel.revealed, 1);
    // Closed by the person: the next Review opens a new panel.
    panel.dispose();
    r.panels.open(r.item());
    assert.equal(created.length, 2);
  });

  it('gives the page a CSP that loads only the extension’s media, and runs only its own script, by a nonce of its own', () => {
    const r = reviewOfW();
    r.panels.open(r.item());
    r.panels.open(r.state.snapshot.items.find((i) => i.kind === 'skill') as Item);
    const [first, second] = created.map((c) => c.panel.webview.html);
    const nonceOf = (html = '') =>
      /<script nonce="([^"]+)" src="file:\/\/\/ext\/media\/review\.js"><\/script>/.exec(html)?.[1];
    const nonce = nonceOf(first);
    assert.match(nonce ?? '', /^[A-Za-z0-9+/]{24}$/, first);
    assert.notEqual(nonceOf(second), nonce, 'a nonce per page');
    assert.equal(
      /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(first ?? '')?.[1],
      `default-src 'none'; img-src vscode-resource: data:; style-src vscode-resource:; font-src vscode-resource:; script-src 'nonce-${nonce}'`,
    );
    assert.deepEqual(
      [...(first ?? '').matchAll(/<(link|script)\b[^>]*(?:href|src)="([^"]*)"/g)].map((m) => `${m[1]} ${m[2]}`),
      [
        'link file:///ext/media/codicons/codicon.css',
        'link file:///ext/media/review.css',
        'script file:///ext/media/review.js',
      ],
    );
  });

  it('restores a panel only for a bundle still indexed, in the strict options whatever it had stored', async () => {
    const r = reviewOfW();
    for (const state of [undefined, null, 'x', {}, { id: 7 }, { id: 'workspace/gone' }, { id: r.item().id }]) {
      const panel = webviewPanel();
      panel.webview.options = { enableScripts: true, enableCommandUris: true, localResourceRoots: [] };
      await r.panels.deserializeWebviewPanel(panel as never, state);
      assert.deepEqual(optionsOf(panel.webview.options), STRICT, JSON.stringify(state));
      const kept = typeof state === 'object' && state !== null && 'id' in state && state.id === r.item().id;
      assert.deepEqual([panel.disposed, panel.listening], [!kept, kept], JSON.stringify(state));
    }
    posted.length = 0;
    await send({ type: 'ready' });
    assert.equal(renders()[0]?.model.id, r.item().id);
  });

  it('disposes every panel and stops listening to it when the window closes', () => {
    const r = reviewOfW();
    r.panels.open(r.item());
    r.panels.dispose();
    assert.deepEqual([created[0]?.panel.disposed, created[0]?.panel.listening], [true, false]);
  });

  it('holds the token shown only while the panel is visible: a hidden panel shows no new one until revealed', async () => {
    const r = reviewOfW();
    assert.equal(r.panels.shownToken(r.item().id), undefined, 'no panel: nothing shown');
    r.panels.open(r.item());
    assert.equal(r.panels.shownToken(r.item().id), undefined, 'not rendered yet');
    await send({ type: 'ready' });
    const first = r.item().reviewToken;
    assert.equal(r.panels.shownToken(r.item().id), first);
    const panel = created[0]?.panel as StandInPanel;
    panel.visible = false;
    // A render of the same review, hidden (after an action): the token it showed stays.
    await send({ type: 'copyToken' });
    assert.equal(r.panels.shownToken(r.item().id), first);
    fs.appendFileSync(skillFile(), 'more\n');
    r.reindex();
    assert.notEqual(r.item().reviewToken, first);
    assert.equal(r.panels.shownToken(r.item().id), undefined, 'a new token a hidden panel never showed');
    panel.visible = true;
    await send({ type: 'ready' });
    assert.equal(r.panels.shownToken(r.item().id), r.item().reviewToken);
  });

  it('says a bundle gone from disk, or one that cannot be read, in its status line, escaped, and shows no token', async () => {
    const r = reviewOfW();
    r.panels.open(r.item());
    await send({ type: 'ready' });
    fs.rmSync(f.path('ws/.codewhale/plugins/example-plugin'), { recursive: true });
    posted.length = 0;
    r.reindex();
    assert.deepEqual(statuses(), [['This bundle is gone from disk.', true]]);
    assert.equal(r.panels.shownToken(r.item()?.id ?? 'workspace'), undefined);

    const s = reviewOfW();
    const item = s.item();
    (s.service as unknown as { review: unknown }).review = () => ({ ok: false, message: 'cannot read \u202egpj.exe' });
    s.panels.open(item);
    posted.length = 0;
    await send({ type: 'ready' });
    assert.deepEqual(statuses(), [['cannot read \\u{202e}gpj.exe', true]]);
    assert.equal(s.panels.shownToken(item.id), undefined);
    // Readable again after a change: shown, as a first render (nothing was shown to change under).
    (s.service as unknown as { review: unknown }).review = (i: Item) => review(i, { store: s.store });
    fs.appendFileSync(skillFile(), 'more\n');
    s.reindex();
    assert.deepEqual(
      renders().map((m) => [m.model.id, m.changed]),
      [[item.id, false]],
    );
  });

  it('renders again only when what it shows may have changed, and says a change made while it was open until trusted again', async () => {
    const r = reviewOfW();
    r.panels.open(r.item());
    r.panels.update(r.state.snapshot);
    assert.deepEqual(posted, [], 'nothing before the page asked');
    await send({ type: 'ready' });
    assert.deepEqual(
      renders().map((m) => m.changed),
      [false],
    );
    const reads = r.state.reviews;
    posted.length = 0;
    r.reindex();
    assert.deepEqual([posted.length, r.state.reviews], [0, reads], 'nothing changed: the bundle is not read again');
    // Another bundle's diagnostic: nothing this panel shows.
    r.state.snapshot = {
      ...r.state.snapshot,
      diagnostics: [...r.state.snapshot.diagnostics, { ...DIAGNOSTIC, itemId: 'workspace/other' }],
    };
    r.panels.update(r.state.snapshot);
    assert.deepEqual([posted.length, r.state.reviews], [0, reads], 'another bundle changed');
    r.state.snapshot = {
      ...r.state.snapshot,
      diagnostics: [...r.state.snapshot.diagnostics, { ...DIAGNOSTIC, itemId: r.item().id }],
    };
    r.panels.update(r.state.snapshot);
    assert.equal(renders().length, 1, 'its own diagnostic: shown');
    assert.equal(renders()[0]?.changed, false);
    r.state.snapshot = {
      ...r.state.snapshot,
      diagnostics: r.state.snapshot.diagnostics.map((d) => (d.itemId === r.item().id ? { ...d, message: 'n' } : d)),
    };
    r.panels.update(r.state.snapshot);
    assert.equal(renders().length, 2, 'its diagnostic says something else: shown');
    posted.length = 0;
    fs.appendFileSync(skillFile(), 'more\n');
    r.reindex();
    assert.deepEqual(
      renders().map((m) => m.changed),
      [true],
    );
    await send({ type: 'copyToken' });
    assert.deepEqual(
      renders().map((m) => m.changed),
      [true, true],
      'still said after an action',
    );
    posted.length = 0;
    await send({ type: 'trust', token: r.item().reviewToken });
    assert.deepEqual(
      renders().map((m) => m.changed),
      [false],
      'trusted again: the change is reviewed',
    );
  });

  it('trusts from the panel exactly the token it shows, after the confirmation, and refuses any other', async () => {
    const r = reviewOfW();
    r.panels.open(r.item());
    await send({ type: 'ready' });
    const shown = r.item().reviewToken as string;
    const other = `${'0'.repeat(64)}.${'0'.repeat(64)}`;
    await send({ type: 'trust', token: other });
    assert.deepEqual(r.said, []);
    assert.deepEqual(statuses(), [
      ['example-plugin changed since you opened this review; review it again before trusting it.', true],
    ]);
    const stored = r.store.read();
    assert.deepEqual(stored.ok ? Object.keys(stored.state.bundles) : stored, [], 'nothing trusted');
    posted.length = 0;
    await send({ type: 'trust', token: shown });
    assert.deepEqual(r.said, ['confirm: Trust example-plugin?']);
    assert.deepEqual(statuses(), [['Trusted example-plugin. It stays disabled until you enable it.', false]]);
    assert.deepEqual(
      posted.map((m) => m.type),
      ['status', 'render'],
      'the outcome, then the review as it is now',
    );

    // Enabled, then changed on disk: trusting again offers to enable it again, in a notification.
    posted.length = 0;
    await send({ type: 'enable' });
    assert.deepEqual(statuses(), [['Enabled example-plugin.', false]]);
    fs.appendFileSync(skillFile(), 'more\n');
    r.reindex();
    await send({ type: 'trust', token: r.item().reviewToken });
    assert.match(r.said.at(-1) ?? '', /^offer: Trusted example-plugin\. It was enabled before this change/);
  });

  it('refuses Trust and Enable from the panel in Restricted Mode', async () => {
    const r = reviewOfW();
    r.panels.open(r.item());
    await send({ type: 'ready' });
    vscodeStandIn.api.workspace.isTrusted = false;
    posted.length = 0;
    await send({ type: 'trust', token: r.item().reviewToken });
    await send({ type: 'enable' });
    assert.deepEqual(statuses(), [
      [RESTRICTED_TRUST, true],
      [RESTRICTED_ENABLE, true],
    ]);
    assert.deepEqual(r.said, []);
  });

  it('copies the token and the /plugin trust command the panel shows, and says when there is none', async () => {
    const copied: string[] = [];
    clipboard.writeText = async (t: string) => void copied.push(t);
    const r = reviewOfW();
    r.panels.open(r.item());
    await send({ type: 'ready' });
    const model = renders()[0]?.model as ReviewViewModel;
    posted.length = 0;
    await send({ type: 'copyToken' });
    await send({ type: 'copyCodewhaleCommand' });
    assert.deepEqual(copied, [model.hashes.token, model.hashes.codewhaleCommand?.text]);
    assert.ok(
      copied.every((c) => c),
      JSON.stringify(copied),
    );
    assert.deepEqual(statuses(), [
      ['Review token copied.', false],
      ['Codewhale /plugin trust command copied.', false],
    ]);

    // A manifest that does not parse: no token, no command.
    fs.writeFileSync(f.path('ws/.codewhale/plugins/example-plugin/plugin.toml'), 'schema_version = [\n');
    r.reindex();
    copied.length = 0;
    posted.length = 0;
    await send({ type: 'copyToken' });
    await send({ type: 'copyCodewhaleCommand' });
    assert.deepEqual(copied, []);
    assert.deepEqual(statuses(), [
      ['No review token: the bundle cannot be hashed.', true],
      ['No Codewhale /plugin trust command for this bundle.', true],
    ]);
  });

  it('opens only a file the review shows, beside the panel, at the line asked, as a preview', async () => {
    const opened: unknown[] = [];
    (api.window as Record<string, unknown>).showTextDocument = async (uri: { fsPath: string }, options: unknown) =>
      void opened.push([uri.fsPath, options]);
    const r = reviewOfW();
    r.panels.open(r.item());
    await send({ type: 'ready' });
    await send({ type: 'open', file: '/etc/passwd', line: 0 });
    await send({ type: 'open', file: f.path('ws/.codewhale/plugins/example-plugin'), line: 0 });
    assert.deepEqual(opened, []);
    // A diagnostic's place, though not a file of the review (one its manifest names and lacks).
    const missing = f.path('ws/.codewhale/plugins/example-plugin/missing.lua');
    r.state.snapshot = {
      ...r.state.snapshot,
      diagnostics: [...r.state.snapshot.diagnostics, { ...DIAGNOSTIC, file: missing, itemId: r.item().id }],
    };
    r.panels.update(r.state.snapshot);
    await send({ type: 'open', file: missing, line: 0 });
    await opening(() => opened.length > 0);
    assert.deepEqual(
      opened.map((o) => (o as string[])[0]),
      [missing],
    );
    opened.length = 0;
    await send({ type: 'open', file: skillFile(), line: 3 });
    await opening(() => opened.length > 0);
    assert.deepEqual(opened, [
      [
        skillFile(),
        {
          selection: new vscodeStandIn.api.Range(3, 0, 3, 0),
          preview: true,
          viewColumn: vscodeStandIn.api.ViewColumn.Beside,
        },
      ],
    ]);
    // Trusted, then a file removed: the review's changes list it, and it may be opened (VS Code says it is gone).
    await send({ type: 'trust', token: r.item().reviewToken });
    fs.rmSync(skillFile());
    r.reindex();
    opened.length = 0;
    await send({ type: 'open', file: skillFile(), line: 0 });
    await opening(() => opened.length > 0);
    assert.equal(opened.length, 1);
  });

  it('opens a link its diagnostic sits on as a note that says so, never its target', async () => {
    const opened: { scheme: string; path?: string; fsPath?: string; query?: string }[] = [];
    (api.window as Record<string, unknown>).showTextDocument = async (uri: (typeof opened)[number]) =>
      void opened.push(uri);
    const r = reviewOfW();
    const link = f.path('ws/.codewhale/plugins/example-plugin/notes.md');
    fs.symlinkSync('/etc/hostname', link);
    r.reindex();
    r.panels.open(r.item());
    await send({ type: 'ready' });
    assert.ok(
      r.state.snapshot.diagnostics.some((d) => d.file === link && d.code === 'codewhale.content.symlink'),
      'Codewhale refuses the link, at the link',
    );
    await send({ type: 'open', file: link, line: 0 });
    await opening(() => opened.length > 0);
    assert.equal(opened.length, 1, JSON.stringify(posted.filter((m) => m.type === 'status')));
    const [uri] = opened as [(typeof opened)[number]];
    assert.deepEqual([uri.scheme, uri.fsPath], ['skillgate', undefined], 'a note, not a file');
    assert.ok(uri.path?.endsWith('/notes.md (symbolic link)'), uri.path);
    const { notOpenedText } = loadWithVscode(() => require('../../src/extension/documents/notOpenedFile')) as {
      notOpenedText: (q: string) => string;
    };
    assert.match(notOpenedText(uri.query ?? ''), /^Link target: \/etc\/hostname$/m);
  });

  it('ignores a message outside its protocol, and any message once its bundle is gone', async () => {
    const r = reviewOfW();
    let revoked = 0;
    (r.service as unknown as { revoke: unknown }).revoke = async () => (
      revoked++,
      { ok: true, value: { changed: true } }
    );
    r.panels.open(r.item());
    await send({ type: 'ready' });
    posted.length = 0;
    for (const raw of [{ type: 'trust', token: 'x' }, { type: 'run', command: 'rm -rf ~' }, null, 'revoke'])
      await send(raw);
    assert.deepEqual(posted, []);
    r.state.snapshot = { ...r.state.snapshot, items: [] };
    await send({ type: 'revoke' });
    assert.deepEqual([revoked, posted], [0, []]);
  });
  it('shows its own bundle, not another of the same snapshot', async () => {
    const r = reviewOfW();
    f.write(
      'ws/.codewhale/plugins/zeta/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "zeta"\nversion = "1.0.0"\n',
    );
    r.state.snapshot = index([f.path('ws')], { trust: () => r.store.view() });
    const plugins = r.state.snapshot.items.filter((i) => i.kind === 'plugin');
    const other = plugins.find((i) => i.id !== r.state.snapshot.items[0]?.id) as Item;
    assert.equal(plugins.length, 2);
    r.panels.open(other);
    await send({ type: 'ready' });
    assert.deepEqual(
      renders().map((m) => m.model.id),
      [other.id],
    );
  });

  it('reads a bundle without a token (its manifest does not parse) again on every change, and says it changed', async () => {
    const r = reviewOfW();
    fs.writeFileSync(f.path('ws/.codewhale/plugins/example-plugin/plugin.toml'), 'schema_version = [\n');
    r.state.snapshot = index([f.path('ws')], { trust: () => r.store.view() });
    r.panels.open(r.item());
    await send({ type: 'ready' });
    assert.equal(r.item().reviewToken, null);
    fs.appendFileSync(skillFile(), 'more\n');
    posted.length = 0;
    r.reindex();
    assert.deepEqual(
      renders().map((m) => m.changed),
      [true],
    );
  });
  it('asks to trust hooks whose opt-in is not set here as hooks that wait for it, not as commands it will run', async () => {
    const optIn = process.env.RIVUMI_ENABLE_PROJECT_HOOKS;
    delete process.env.RIVUMI_ENABLE_PROJECT_HOOKS;
    try {
      const r = reviewOfW();
      f.write('ws/.rivumi/hooks.json', '{"pre_tool_use":[{"command":["python3","check.py"]}]}');
      f.write('ws/check.py', 'print(1)\n');
      r.state.snapshot = index([f.path('ws')], { trust: () => r.store.view() });
      const hooks = r.state.snapshot.items.find((i) => i.system === 'rivumi' && i.kind === 'hooks') as Item;
      assert.ok(hooks, 'the hooks file is indexed');
      r.panels.open(hooks);
      await send({ type: 'ready' });
      await send({ type: 'trust', token: hooks.reviewToken });
      assert.match(r.details[0] ?? '', /Hooks it runs once RIVUMI_ENABLE_PROJECT_HOOKS=1 is set \(not set here\):/);
      assert.doesNotMatch(r.details[0] ?? '', /Commands it will run/);
    } finally {
      if (optIn !== undefined) process.env.RIVUMI_ENABLE_PROJECT_HOOKS = optIn;
    }
  });
});
