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

  const commandsFor = (visible: boolean) => {
    const state = new Map<string, unknown>();
    const memento = { get: (k: string) => state.get(k), update: async (k: string, v: unknown) => void state.set(k, v) };
    const tree = { setMode: (m: TreeMode) => void modes.push(m) } as unknown as ItemTreeProvider;
    const view = { visible, description: undefined as string | undefined };
    const treeModes = new TreeModes(memento as never, tree, view as never);
    return treeModes.commands(async () => void focused++);
  };

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
});
