import { strict as assert } from 'node:assert';
import { loadWithVscode, vscodeStandIn } from './helpers/vscodeStandIn';
import { itemOf as item } from './helpers/item';
import type { Item } from '../../src/core/model';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { SkillgateService } from '../../src/extension/skillgateService';
import type { ReviewPanels } from '../../src/extension/review/reviewPanel';

type BundleCommands = typeof import('../../src/extension/commands/bundleCommands');

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

  const snapshot = (items: Item[]): Snapshot => ({
    generation: 1,
    workspaces: ['/ws'],
    items,
    diagnostics: [],
    trustProblem: null,
  });
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
