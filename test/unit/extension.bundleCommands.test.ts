import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { loadWithVscode, vscodeStandIn } from './helpers/vscodeStandIn';
import { itemOf as item, ITEM_TOKEN, snapshotOf } from './helpers/item';
import type { Item } from '../../src/core/model';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { SkillgateService } from '../../src/extension/skillgateService';
import type { ReviewPanels } from '../../src/extension/review/reviewPanel';
import { RESTRICTED_ENABLE, RESTRICTED_TRUST } from '../../src/extension/flows/trustFlow';
import { explainQuery } from '../../src/extension/documents/explainDocument';
import { shortToken } from '../../src/core/report/shortToken';

type BundleCommands = typeof import('../../src/extension/commands/bundleCommands');

// Not in the stand-in, and read by the module through `vscode` (Explain, Copy Review Token): named before it
// loads, for its `import * as vscode` takes the names there are then; each test gives its own.
for (const name of ['commands', 'env'])
  if (!(name in vscodeStandIn.api)) Object.assign(vscodeStandIn.api, { [name]: undefined });

/**
 * The bundle commands as the tree, a quick fix and the palette call them, on the vscode
 * stand-in: a row from an older snapshot names its bundle by id, so the command acts on
 * that bundle as it is now, or says it is gone; never on another, never silently nothing.
 */
describe('the bundle commands: stale rows and what they say', () => {
  const { bundleCommands } = loadWithVscode(
    () => require('../../src/extension/commands/bundleCommands') as BundleCommands,
  );
  const window = vscodeStandIn.api.window as unknown as Record<string, unknown>;
  const env = vscodeStandIn.api as unknown as Record<string, unknown>;
  let modals: string[];
  let picks: number;
  let acted: string[];
  let clipboard: string[];

  const snapshot = (items: Item[]): Snapshot => snapshotOf(items);
  const commands = (items: Item[], changed = true) => {
    const s = snapshot(items);
    const service = {
      published: async () => s,
      snapshot: s,
      revoke: async (i: Item) => (acted.push(`revoke ${i.id}`), { ok: true, value: { changed } }),
      disable: async (i: Item) => (acted.push(`disable ${i.id}`), { ok: true, value: { changed } }),
    } as unknown as SkillgateService;
    const panels = {
      open: (i: Item) => acted.push(`open ${i.id}`),
      shownToken: () => undefined,
    } as unknown as ReviewPanels;
    return bundleCommands(service, panels);
  };
  const node = (i: Item) => ({ kind: 'item', id: i.id, item: i });

  beforeEach(() => {
    vscodeStandIn.reset();
    modals = [];
    picks = 0;
    acted = [];
    clipboard = [];
    window.showWarningMessage = async (m: string, o: { detail?: string }, ...actions: unknown[]) => {
      modals.push(`${m} | ${o.detail ?? ''}`);
      return actions.find((a) => a === 'Revoke');
    };
    window.showQuickPick = async () => (picks++, undefined);
    env.env = { clipboard: { writeText: async (t: string) => void clipboard.push(t) } };
  });
  after(() => {
    vscodeStandIn.reset();
    delete window.showWarningMessage;
    delete window.showQuickPick;
    delete env.env;
  });

  it('acts on the bundle a stale row names, as it is now', async () => {
    const before = item({ trust: 'trusted', enabled: true });
    const now = item({ trust: 'trusted', enabled: true, name: 'demo' });
    await commands([item({ id: 'workspace/other/demo' }), now])['skillgate.disable'](node(before));
    assert.deepEqual(acted, ['disable workspace/abc/demo']);
    assert.equal(picks, 0);
  });

  it('says so when the row or the quick fix names a bundle that is gone, and acts on nothing', async () => {
    const gone = item({ name: 'old\u001b[31m[x](command:evil)' });
    const c = commands([item({ id: 'workspace/other/demo', trust: 'trusted' })]);
    await c['skillgate.revoke'](node(gone));
    await c['skillgate.review']('workspace/abc/demo');
    await c['skillgate.trust'](gone);
    assert.deepEqual(acted, []);
    assert.deepEqual(modals, []);
    assert.equal(picks, 0, 'a given item that is gone is not replaced by a pick');
    assert.equal(vscodeStandIn.shown.length, 3);
    for (const m of vscodeStandIn.shown) assert.match(m, /no longer found in the workspace/);
    assert.match(vscodeStandIn.shown[0] as string, /^Skillgate: cannot revoke old/);
    assert.doesNotMatch(vscodeStandIn.shown[0] as string, /\u001b|\]\(command:/, 'the name is shown escaped');
  });

  it("run from the palette, asks which bundle in the tree row's words, matched on them", async () => {
    const winner = item({ id: 'user/demo', scope: 'user', workspace: null, path: '/home/u/.codewhale/plugins/demo' });
    const shadowed = item({ decision: 'shadowed', reasons: ['name_conflict', 'not_reviewed'], shadowedBy: winner.id });
    const offered: { label: string; description: string; detail: string }[] = [];
    let options: { matchOnDescription?: boolean; matchOnDetail?: boolean } = {};
    window.showQuickPick = async (items: typeof offered, o: typeof options) => {
      offered.push(...items);
      options = o;
      return undefined;
    };
    await commands([winner, shadowed])['skillgate.review']();
    assert.deepEqual(
      offered.map((o) => [o.label, o.description, o.detail]),
      [
        ['demo', 'Codewhale plugin · disabled · needs review', '/home/u/.codewhale/plugins/demo'],
        ['demo', 'Codewhale plugin · shadowed by your user bundle', '.codewhale/plugins/demo'],
      ],
    );
    assert.deepEqual([options.matchOnDescription, options.matchOnDetail], [true, true]);
  });

  it('says why Copy Review Token copies nothing for a row whose bundle has no token now', async () => {
    const broken = item({ reviewToken: null, contentHash: null, capabilityHash: null });
    await commands([broken])['skillgate.copyReviewToken'](node(item()));
    assert.deepEqual(clipboard, []);
    assert.deepEqual(vscodeStandIn.shown, ['demo has no review token: the bundle cannot be hashed now.']);
  });

  it('names the bundle’s own agent in the Revoke confirmation', async () => {
    const adapter = item({
      id: 'eva:t:adapter:a.yaml',
      system: 'eva',
      kind: 'skill-adapter',
      enabled: null,
      decision: 'registered',
      reasons: ['active'],
      trust: 'trusted',
    });
    await commands([adapter])['skillgate.revoke'](node(adapter));
    assert.equal(modals.length, 1);
    assert.match(modals[0] as string, /Eva-CLI still loads it/);
    assert.doesNotMatch(modals[0] as string, /Rivumi/);
    assert.deepEqual(acted, ['revoke eva:t:adapter:a.yaml']);
  });

  it('says nothing changed when a stale row names a bundle already revoked or already off', async () => {
    const bundle = item({ trust: 'trusted', enabled: true });
    await commands([bundle], false)['skillgate.revoke'](node(bundle));
    await commands([bundle], false)['skillgate.disable'](node(bundle));
    assert.deepEqual(vscodeStandIn.shown, [
      `${bundle.name} has no trust record; nothing to revoke.`,
      `${bundle.name} is not enabled; nothing to disable.`,
    ]);
  });
});

/**
 * What each bundle command offers when run from the palette, what it asks before it acts
 * and what it refuses, on the vscode stand-in: Trust and Enable add what runs, so Restricted
 * Mode refuses them before anything is asked; every command acts on the bundle picked or
 * given, never on another.
 */
describe('the bundle commands: what each offers, asks and refuses', () => {
  const { bundleCommands } = loadWithVscode(
    () => require('../../src/extension/commands/bundleCommands') as BundleCommands,
  );
  const api = vscodeStandIn.api as unknown as Record<string, unknown>;
  const window = api.window as Record<string, unknown>;
  const uris = api.Uri as Record<string, unknown>;
  let offered: string[][];
  let pickTitles: string[];
  let pickStaysOpen: boolean[];
  let pickAnswer: string | undefined;
  let modals: string[];
  let confirmAnswer: string | undefined;
  let acted: string[];
  let shownTokens: Map<string, string>;
  let ran: unknown[][];
  let clipboard: string[];
  // `commands` and `env` are not in the stand-in; the module reads them through `vscode` at each call.
  const workbench = {
    commands: { executeCommand: async (...args: unknown[]) => void ran.push(args) },
    env: { clipboard: { writeText: async (t: string) => void clipboard.push(t) } },
  };

  const trusted = item({ id: 'workspace/abc/on', name: 'on', trust: 'trusted', enabled: true, decision: 'registered' });
  const off = item({ id: 'workspace/abc/off', name: 'off', trust: 'trusted', enabled: false });
  const fresh = item({ id: 'workspace/abc/fresh', name: 'fresh' });
  const changed = item({ id: 'workspace/abc/changed', name: 'changed', trust: 'content-changed' });
  const rejected = item({ id: 'workspace/abc/bad', name: 'bad', decision: 'rejected' });
  const part = item({ id: 'workspace/abc/on/skill', name: 'skill', kind: 'skill', parent: trusted.id, trust: null });
  const ALL = [trusted, off, fresh, changed, rejected, part];
  const node = (i: Item) => ({ kind: 'item', id: i.id, item: i });

  const commands = (items: Item[], outcome: { ok: boolean; message?: string } = { ok: true }) => {
    const s: Snapshot = { generation: 1, workspaces: ['/ws', '/other'], items, diagnostics: [], trustProblem: null };
    const result = (i: Item, what: string) => (
      acted.push(`${what} ${i.id}`),
      outcome.ok ? { ok: true, value: { changed: true, item: i, note: null } } : outcome
    );
    const service = {
      published: async () => s,
      snapshot: s,
      // The lifecycle asks with what it read: here a bundle with one hook, and the user cancels.
      trust: async (i: Item, token: string, confirm: (preview: unknown) => Promise<boolean>) => {
        acted.push(`trust ${i.id} ${token}`);
        await confirm({ capabilities: { hooks: { check: { event: 'PreToolUse', argv: ['./check.sh'] } } } });
        return { ok: false, reason: 'cancelled' };
      },
      enable: async (i: Item) => result(i, 'enable'),
      disable: async (i: Item) => result(i, 'disable'),
      revoke: async (i: Item) => result(i, 'revoke'),
    } as unknown as SkillgateService;
    const panels = {
      open: (i: Item) => void acted.push(`open ${i.id}`),
      shownToken: (id: string) => shownTokens.get(id),
    } as unknown as ReviewPanels;
    return bundleCommands(service, panels);
  };

  // Another suite's, as they were: this file's suites may run before one that gave its own at load.
  let standIn: Record<string, unknown>;
  before(() => {
    standIn = { commands: api.commands, env: api.env };
  });
  beforeEach(() => {
    vscodeStandIn.reset();
    Object.assign(api, workbench);
    [offered, pickTitles, pickStaysOpen, modals, acted, ran, clipboard] = [[], [], [], [], [], [], []];
    pickAnswer = undefined;
    confirmAnswer = 'Revoke';
    shownTokens = new Map();
    window.showQuickPick = async (items: { item: Item }[], options: { title: string; ignoreFocusOut: boolean }) => {
      offered.push(items.map((i) => i.item.name));
      pickTitles.push(options.title);
      pickStaysOpen.push(options.ignoreFocusOut);
      return items.find((i) => i.item.name === pickAnswer);
    };
    window.showWarningMessage = async (m: string, o: { detail?: string }) => (
      modals.push(`${m} | ${o.detail ?? ''}`),
      confirmAnswer
    );
    window.showTextDocument = async (uri: unknown, options: unknown) =>
      void ran.push(['showTextDocument', uri, options]);
    uris.from = (parts: Record<string, string>) => parts;
  });
  // The stand-in's own, put back after (a later suite opens a note through it).
  const standInFrom = uris.from;
  after(() => {
    vscodeStandIn.reset();
    Object.assign(api, standIn);
    delete window.showQuickPick;
    delete window.showWarningMessage;
    delete window.showTextDocument;
    uris.from = standInFrom;
  });

  it('refuses Trust and Enable in Restricted Mode before asking which bundle, and changes nothing', async () => {
    vscodeStandIn.api.workspace.isTrusted = false;
    const c = commands(ALL);
    await c['skillgate.trust']();
    await c['skillgate.enable']();
    await c['skillgate.trust'](node(fresh));
    await c['skillgate.enable'](node(off));
    assert.deepEqual(offered, [], 'no bundle was asked for');
    assert.deepEqual(acted, []);
    assert.deepEqual(vscodeStandIn.shown, [RESTRICTED_TRUST, RESTRICTED_ENABLE, RESTRICTED_TRUST, RESTRICTED_ENABLE]);
  });

  it('offers to trust only bundles not trusted and not rejected, and trusts the one picked for the token its review showed', async () => {
    shownTokens.set(changed.id, 'token-shown');
    pickAnswer = 'changed';
    await commands(ALL)['skillgate.trust']();
    assert.deepEqual(offered, [['fresh', 'changed']]);
    assert.deepEqual(pickTitles, ['Skillgate: choose a bundle to trust']);
    assert.deepEqual(acted, [`trust ${changed.id} token-shown`]);
  });

  it('opens the review of a bundle whose review was not shown, and says Trust is there', async () => {
    await commands(ALL)['skillgate.trust'](node(fresh));
    assert.deepEqual(acted, [`open ${fresh.id}`]);
    assert.deepEqual(vscodeStandIn.shown, [
      'Review fresh first: Trust is in the review panel, for exactly what it shows.',
    ]);
  });

  it('says there is nothing to trust, without a pick, when every bundle is trusted or rejected; Escape trusts nothing', async () => {
    await commands([trusted, rejected, part])['skillgate.trust']();
    assert.deepEqual(offered, []);
    assert.deepEqual(vscodeStandIn.shown, ['Skillgate: no bundle to trust.']);
    await commands(ALL)['skillgate.trust']();
    assert.equal(offered.length, 1);
    assert.deepEqual(acted, [], 'the pick was escaped');
  });

  it('offers to enable only trusted bundles that are off, and enables the one picked', async () => {
    pickAnswer = 'off';
    await commands(ALL)['skillgate.enable']();
    assert.deepEqual(offered, [['off']]);
    assert.deepEqual(pickTitles, ['Skillgate: choose a bundle to enable']);
    assert.deepEqual(acted, [`enable ${off.id}`]);
    assert.deepEqual(vscodeStandIn.shown, ['Enabled off.']);
  });

  it('offers to disable only enabled bundles, disables the one picked, and shows why it could not', async () => {
    pickAnswer = 'on';
    await commands(ALL, { ok: false, message: 'The trust store is locked.' })['skillgate.disable']();
    assert.deepEqual(offered, [['on']]);
    assert.deepEqual(pickTitles, ['Skillgate: choose a bundle to disable']);
    assert.deepEqual(acted, [`disable ${trusted.id}`]);
    assert.deepEqual(vscodeStandIn.shown, ['The trust store is locked.']);
  });

  it('offers to revoke only bundles with a trust record, asks first, and revokes nothing when the user declines', async () => {
    pickAnswer = 'changed';
    confirmAnswer = undefined;
    await commands(ALL)['skillgate.revoke']();
    assert.deepEqual(offered, [['on', 'off', 'changed']]);
    assert.deepEqual(pickTitles, ['Skillgate: choose a bundle to revoke']);
    assert.equal(modals.length, 1);
    assert.match(modals[0] as string, /^Revoke trust in changed\? \| The receipt is removed; /);
    assert.deepEqual(acted, [], 'declined: nothing revoked');
    confirmAnswer = 'Revoke';
    await commands(ALL)['skillgate.revoke']();
    assert.deepEqual(acted, [`revoke ${changed.id}`]);
    assert.deepEqual(vscodeStandIn.shown, ['Revoked trust in changed.']);
  });

  it("lists a Rivumi bundle's hooks in the Trust confirmation apart, with the opt-in the editor's environment lacks", async () => {
    const hooked = item({ id: 'rivumi:/ws/.rivumi/plugins/h.json', name: 'h', system: 'rivumi', enabled: null });
    const optIn = process.env.RIVUMI_ENABLE_PROJECT_HOOKS;
    delete process.env.RIVUMI_ENABLE_PROJECT_HOOKS;
    try {
      shownTokens.set(hooked.id, ITEM_TOKEN);
      await commands([hooked])['skillgate.trust'](node(hooked));
    } finally {
      if (optIn !== undefined) process.env.RIVUMI_ENABLE_PROJECT_HOOKS = optIn;
    }
    assert.equal(modals.length, 1);
    assert.match(
      modals[0] as string,
      /Hooks it runs once RIVUMI_ENABLE_PROJECT_HOOKS=1 is set \(not set here\):\n  • \.\/check\.sh  \(hook PreToolUse\)/,
    );
    assert.doesNotMatch(modals[0] as string, /Commands it will run/);
  });

  it('acts on nothing when the pick is escaped', async () => {
    for (const id of [
      'skillgate.enable',
      'skillgate.disable',
      'skillgate.revoke',
      'skillgate.explain',
      'skillgate.copyReviewToken',
      'skillgate.openManifest',
    ] as const)
      await commands(ALL)[id]();
    assert.equal(offered.length, 6);
    assert.deepEqual([acted, modals, ran, clipboard, vscodeStandIn.shown], [[], [], [], [], []]);
  });

  it('shows why Revoke could not remove the receipt', async () => {
    await commands(ALL, { ok: false, message: 'The trust store is locked.' })['skillgate.revoke'](node(trusted));
    assert.deepEqual(vscodeStandIn.shown, ['The trust store is locked.']);
  });

  it('opens the review of the bundle picked; Escape opens none', async () => {
    await commands(ALL)['skillgate.review']();
    pickAnswer = 'off';
    await commands(ALL)['skillgate.review']();
    const bundles = ['on', 'off', 'fresh', 'changed', 'bad'];
    assert.deepEqual(offered, [bundles, bundles], 'every bundle, no part');
    assert.deepEqual(pickTitles, Array(2).fill('Skillgate: choose a bundle to review'));
    assert.deepEqual(acted, [`open ${off.id}`]);
  });

  it('asks which bundle, in a pick that stays open when the focus goes elsewhere, when run on nothing or on a folder row', async () => {
    await commands(ALL)['skillgate.review'](null);
    await commands(ALL)['skillgate.review']({ kind: 'folder', id: 'folder:/ws', label: 'ws', workspace: '/ws' });
    assert.deepEqual(pickStaysOpen, [true, true]);
    assert.deepEqual(vscodeStandIn.shown, []);
  });

  it('acts on the bundle a quick fix names by its id; one gone whose name is not text is "that item"', async () => {
    await commands(ALL)['skillgate.review'](off.id);
    await commands(ALL)['skillgate.review']({
      id: 'workspace/abc/gone',
      system: 'codewhale',
      name: { toString: () => 'x' },
    });
    assert.deepEqual(acted, [`open ${off.id}`]);
    assert.deepEqual(offered, []);
    assert.match(vscodeStandIn.shown[0] as string, /^Skillgate: cannot review that item: it is no longer found/);
  });

  it('explains any item, a part too, in a preview named after its folder', async () => {
    pickAnswer = 'skill';
    await commands(ALL)['skillgate.explain']();
    assert.deepEqual(offered, [['on', 'off', 'fresh', 'changed', 'bad', 'skill']]);
    assert.deepEqual(pickTitles, ['Skillgate: choose a bundle to explain']);
    const [[id, uri]] = ran as [[string, { path: string; query: string }]];
    assert.equal(id, 'markdown.showPreview');
    assert.equal(uri.path, '/explain/Explain skill - ws.md');
    assert.equal(uri.query, explainQuery(part.id));
  });

  it('copies the review token of the bundle picked, offering only bundles that have one', async () => {
    const unhashed = item({ id: 'workspace/abc/broken', name: 'broken', reviewToken: null });
    pickAnswer = 'fresh';
    await commands([unhashed, fresh, part])['skillgate.copyReviewToken']();
    assert.deepEqual(offered, [['fresh']]);
    assert.deepEqual(pickTitles, ['Skillgate: choose a bundle to copy the review token of']);
    assert.deepEqual(clipboard, [ITEM_TOKEN]);
    assert.deepEqual(vscodeStandIn.shown, [`Copied the review token of fresh (${shortToken(ITEM_TOKEN)}).`]);
  });

  it('says only a bundle has a review token when given a part', async () => {
    await commands([{ ...part, reviewToken: null }])['skillgate.copyReviewToken'](node(part));
    assert.deepEqual(clipboard, []);
    assert.deepEqual(vscodeStandIn.shown, ['skill has no review token: only a bundle has one.']);
  });

  it("opens the picked item's manifest with its range selected", async () => {
    const at = { start: { line: 3, character: 2 }, end: { line: 4, character: 1 } };
    const manifest = item({ id: 'workspace/abc/m', name: 'm', location: { file: '/ws/m.json', range: at } });
    pickAnswer = 'm';
    await commands([manifest])['skillgate.openManifest']();
    assert.deepEqual(pickTitles, ['Skillgate: choose a bundle to open']);
    assert.deepEqual(JSON.parse(JSON.stringify(ran)), [
      [
        'showTextDocument',
        { scheme: 'file', fsPath: '/ws/m.json' },
        { selection: { startLine: 3, startCharacter: 2, endLine: 4, endCharacter: 1 } },
      ],
    ]);
  });

  it('opens a manifest that is a symbolic link, or a FIFO, as a note that says so, never what it leads to', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-open-'));
    try {
      const at = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
      const link = path.join(dir, 'plugin.json');
      fs.symlinkSync('/etc/hostname', link);
      const fifo = path.join(dir, 'SKILL.md');
      execFileSync('mkfifo', [fifo]);
      const linked = item({ id: 'workspace/abc/l', name: 'l', location: { file: link, range: at } });
      const piped = item({ id: 'workspace/abc/p', name: 'p', location: { file: fifo, range: at } });
      const run = commands([linked, piped])['skillgate.openManifest'];
      await run(linked.id);
      await run(piped.id);
      const uris = ran.map((r) => r[1] as { scheme: string; path?: string; fsPath?: string });
      assert.deepEqual(
        uris.map((u) => [u.scheme, u.fsPath, u.path?.split('/').at(-1)]),
        [
          ['skillgate', undefined, 'plugin.json (symbolic link)'],
          ['skillgate', undefined, 'SKILL.md (FIFO)'],
        ],
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
