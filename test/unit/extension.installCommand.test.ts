import { strict as assert } from 'node:assert';
import { loadWithVscode, vscodeStandIn } from './helpers/vscodeStandIn';
import { itemOf as item } from './helpers/item';
import type { Item } from '../../src/core/model';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { SkillgateService } from '../../src/extension/skillgateService';
import type { ReviewPanels } from '../../src/extension/review/reviewPanel';
import type { WorkspaceCommandDeps } from '../../src/extension/commands/workspaceCommands';

type WorkspaceCommands = typeof import('../../src/extension/commands/workspaceCommands');

/**
 * "Install Rivumi Plugin from Manifest…" on the vscode stand-in: a freshly installed plugin
 * is never trusted, so its old trust record is dropped; when that fails, the notification
 * must not say it is not reviewed (the CLI exits 1 and says so in the same case).
 */
describe('the install command: what it says about trust after the install', () => {
  const { workspaceCommands } = loadWithVscode(
    () => require('../../src/extension/commands/workspaceCommands') as WorkspaceCommands,
  );
  const window = vscodeStandIn.api.window as unknown as Record<string, unknown>;
  const installed = item({ path: '/ws/.rivumi/plugins/x.json', name: 'x', trust: 'trusted' });

  const commandWith = (revoke: () => { ok: boolean; message?: string }) => {
    const s: Snapshot = { generation: 1, workspaces: ['/ws'], items: [installed], diagnostics: [], trustProblem: null };
    const service = {
      snapshot: s,
      refreshAll: async () => s,
      install: () => ({
        ok: true,
        name: 'x',
        source: '.rivumi/plugins/x.json',
        file: '/ws/.rivumi/plugins/x.json',
        written: ['/ws/.rivumi/plugins/x.json'],
        loads: 'Rivumi loads it from now on',
      }),
      revoke: async (_i: Item) => revoke(),
    } as unknown as SkillgateService;
    const deps = { service, panels: { open: () => undefined } as unknown as ReviewPanels } as WorkspaceCommandDeps;
    return workspaceCommands(deps)['skillgate.installRivumiPlugin'];
  };

  beforeEach(() => {
    vscodeStandIn.reset();
    vscodeStandIn.api.workspace.workspaceFolders = [{ uri: { scheme: 'file', fsPath: '/ws' } }];
    window.showOpenDialog = async () => [{ fsPath: '/pkg/plugin.json' }];
  });
  after(() => {
    vscodeStandIn.reset();
    delete window.showOpenDialog;
  });

  it('says the plugin is not reviewed once its old trust record is dropped', async () => {
    await commandWith(() => ({ ok: true }))();
    assert.equal(vscodeStandIn.shown.length, 1);
    assert.match(
      vscodeStandIn.shown[0] as string,
      /^Installed plugin x at \.rivumi\/plugins\/x\.json\. .*not reviewed/,
    );
  });

  it('says its old trust record could not be dropped, and never that it is not reviewed, when the revoke fails', async () => {
    await commandWith(() => ({ ok: false, message: 'The trust store is locked.' }))();
    assert.equal(vscodeStandIn.shown.length, 1);
    const shown = vscodeStandIn.shown[0] as string;
    assert.match(shown, /but its old trust record could not be dropped: The trust store is locked\./);
    assert.doesNotMatch(shown, /not reviewed/);
  });
});
