import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { loadWithVscode, vscodeStandIn } from './helpers/vscodeStandIn';
import { Fixture, LINUX_HOST, index, writeW } from './helpers/fixture';
import { A0, EvaFixture } from './helpers/evaFixture';
import { Indexer } from '../../src/core/index/indexer';
import { TrustStore } from '../../src/core/trust/trustStore';
import { review } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import { RESTRICTED_NOTICE_TRUST_ONLY } from '../../src/core/review/reviewViewModel';
import type { Item } from '../../src/core/model';
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
  const { ReviewPanels } = loadWithVscode(() => require('../../src/extension/review/reviewPanel') as Panels);
  const api = vscodeStandIn.api as unknown as Record<string, Record<string, unknown>>;
  let f: Fixture;
  let posted: {
    type: string;
    text?: string;
    error?: boolean;
    model?: { actions: { notices: { text: string }[] } };
  }[];
  let deliver: (raw: unknown) => unknown;
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
    add(api.window as Record<string, unknown>, 'createWebviewPanel', () => ({
      visible: true,
      title: '',
      webview: {
        options: {},
        html: '',
        cspSource: 'vscode-resource:',
        asWebviewUri: (u: unknown) => u,
        onDidReceiveMessage: (listener: (raw: unknown) => unknown) => {
          deliver = listener;
          return { dispose: () => undefined };
        },
        postMessage: async (m: (typeof posted)[number]) => (posted.push(m), true),
      },
      onDidDispose: () => ({ dispose: () => undefined }),
      reveal: () => undefined,
      dispose: () => undefined,
    }));
    // What VS Code answers for a file that is not on disk (any more).
    add(api.window as Record<string, unknown>, 'showTextDocument', async (uri: { fsPath: string }) => {
      throw new Error(`cannot open file://${uri.fsPath}. Detail: Unable to resolve nonexistent file '${uri.fsPath}'`);
    });
  });
  afterEach(() => {
    for (const [on, key] of added.splice(0)) delete on[key];
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
});
