import { strict as assert } from 'node:assert';
import { loadWithVscode, serviceInHostForSuite, vscodeStandIn } from './helpers/vscodeStandIn';

type Service = typeof import('../../src/extension/skillgateService');

/**
 * The first full index always publishes (skillgateService.ts `published`): commands and a
 * restored review panel wait for it. A failure while its options are read (the trust
 * store's location, the agents' homes) must end in the fallback snapshot and a message,
 * never in a first index that stays unpublished ("Indexing…" and commands waiting forever).
 */
describe('the extension service: the first index publishes whatever fails', () => {
  const { SkillgateService } = loadWithVscode(() => require('../../src/extension/skillgateService') as Service);
  const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  serviceInHostForSuite();

  it('publishes an empty snapshot and says why when reading the settings throws', async () => {
    vscodeStandIn.settingsFault = new Error('no trust store location');
    const service = new SkillgateService(log);
    try {
      vscodeStandIn.api.workspace.workspaceFolders = [{ uri: { scheme: 'file', fsPath: '/ws' } }];
      const snapshot = await service.refreshAll();
      assert.deepEqual(snapshot, {
        generation: 0,
        workspaces: ['/ws'],
        items: [],
        diagnostics: [],
        trustProblem: null,
      });
      assert.equal(await service.published(), snapshot);
      assert.equal(vscodeStandIn.shown.length, 1);
      assert.match(vscodeStandIn.shown[0] as string, /could not index the workspace: no trust store location/);
    } finally {
      service.dispose();
    }
  });
});
