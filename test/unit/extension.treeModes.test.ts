import { strict as assert } from 'node:assert';
import { loadWithVscode, vscodeStandIn } from './helpers/vscodeStandIn';
import type { TreeMode } from '../../src/extension/tree/treeNodes';
import type { ItemTreeProvider } from '../../src/extension/tree/itemTree';

type TreeModeModule = typeof import('../../src/extension/tree/treeMode');

/**
 * The Filter and Group commands, on the vscode stand-in. The palette offers them too
 * (package.json `menus.commandPalette`, as the view's menu does): run from there while the
 * Skillgate view is out of sight, the tree changed where nobody saw it, and the command
 * seemed to do nothing. It now brings the view into sight; from the view's own menu, the
 * view is in sight already and keeps where the focus is.
 */
describe('the Filter and Group commands: their change is seen', () => {
  const api = vscodeStandIn.api as unknown as Record<string, unknown>;
  let TreeModes: TreeModeModule['TreeModes'];
  let contexts: [string, unknown][];
  let focused: number;
  let modes: TreeMode[];

  const modesWith = (visible: boolean, state = new Map<string, unknown>()) => {
    const memento = { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => void state.set(k, v) };
    const tree = { setMode: (m: TreeMode) => void modes.push(m) } as unknown as ItemTreeProvider;
    const view = { visible, description: undefined as string | undefined };
    const treeModes = new TreeModes(memento as never, tree, view as never);
    return { treeModes, view, state, commands: treeModes.commands(async () => void focused++) };
  };
  const commandsFor = (visible: boolean) => modesWith(visible).commands;

  // The stand-in has no `commands` (the menus' context keys): given here only, before the module
  // loads (its `import * as vscode` takes the names there are then), and taken away after.
  before(() => {
    api.commands = {
      executeCommand: async (id: string, key: string, value: unknown) => {
        if (id === 'setContext') contexts.push([key, value]);
      },
    };
    ({ TreeModes } = loadWithVscode(() => require('../../src/extension/tree/treeMode') as TreeModeModule));
  });
  beforeEach(() => {
    vscodeStandIn.reset();
    contexts = [];
    focused = 0;
    modes = [];
  });
  after(() => {
    delete api.commands;
  });

  const MODE_COMMANDS = [
    'skillgate.showNeedsReview',
    'skillgate.showRejected',
    'skillgate.showAll',
    'skillgate.groupByDecision',
    'skillgate.groupByFolder',
  ] as const;

  it('run while the view is out of sight (from the palette): changes the tree, then shows the view', async () => {
    for (const id of MODE_COMMANDS) {
      focused = 0;
      await commandsFor(false)[id]();
      assert.equal(focused, 1, `${id} did not bring the view into sight`);
    }
    assert.deepEqual(modes.at(-1), { filter: 'all', groupByDecision: false });
    assert.deepEqual(contexts.at(-1), ['skillgate.groupByDecision', false]);
  });

  it("run from the view's own menu (the view in sight): changes the tree, and leaves the focus where it is", async () => {
    const commands = commandsFor(true);
    await commands['skillgate.showRejected']();
    await commands['skillgate.groupByDecision']();
    assert.equal(focused, 0);
    assert.deepEqual(modes.at(-1), { filter: 'rejected', groupByDecision: true });
  });

  it('sets each its own filter or grouping, and remembers it for the workspace', async () => {
    const { commands, state, treeModes } = modesWith(true);
    const expected: [(typeof MODE_COMMANDS)[number], TreeMode][] = [
      ['skillgate.showNeedsReview', { filter: 'needsReview', groupByDecision: false }],
      ['skillgate.groupByDecision', { filter: 'needsReview', groupByDecision: true }],
      ['skillgate.showRejected', { filter: 'rejected', groupByDecision: true }],
      ['skillgate.showAll', { filter: 'all', groupByDecision: true }],
      ['skillgate.groupByFolder', { filter: 'all', groupByDecision: false }],
    ];
    for (const [id, mode] of expected) {
      await commands[id]();
      assert.deepEqual([modes.at(-1), treeModes.current, state.get('skillgate.treeMode')], [mode, mode, mode], id);
    }
  });

  it('starts in the mode remembered for the workspace', () => {
    const remembered = { filter: 'rejected', groupByDecision: true };
    const { treeModes } = modesWith(true, new Map([['skillgate.treeMode', remembered]]));
    assert.deepEqual(treeModes.current, remembered);
    assert.deepEqual(modes, [remembered], 'the tree is told before it is first shown');
  });

  it("shows the filter and the grouping as the view's description and the menus' keys", async () => {
    const { treeModes, view } = modesWith(true);
    const described: (string | undefined)[] = [];
    for (const change of [
      { filter: 'needsReview', groupByDecision: true },
      { filter: 'rejected', groupByDecision: false },
      { filter: 'all', groupByDecision: true },
      { filter: 'all', groupByDecision: false },
    ] as const) {
      await treeModes.set(change);
      described.push(view.description);
    }
    assert.deepEqual(described, ['needs review · by decision', 'rejected', 'by decision', undefined]);
    assert.deepEqual(contexts.slice(0, 2), [
      ['skillgate.filter', 'needsReview'],
      ['skillgate.groupByDecision', true],
    ]);
  });

  it("the status bar's click: the filter it names, needs review for anything else, and the view brought into sight", async () => {
    const { commands, treeModes } = modesWith(true);
    await commands['skillgate.showFiltered']('rejected');
    assert.deepEqual([treeModes.current.filter, focused], ['rejected', 1]);
    await commands['skillgate.showFiltered']('everything');
    assert.deepEqual([treeModes.current.filter, focused], ['needsReview', 2]);
  });
});
