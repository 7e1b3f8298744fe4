import { strict as assert } from 'node:assert';
import { coveredByRootWatchers } from '../../src/extension/flows/rootWatchers';

/** Which paths the agents name need a watcher of their own beside the roots' (workspaceWatcher.ts `watch`). */
describe('the paths the agents’ root watchers cover', () => {
  const folders = ['/ws', '/other'];
  const roots = ['.rivumi', '.codewhale'];

  it('covers what lies in a root of a folder, the discovery root included', () => {
    assert.equal(coveredByRootWatchers('/ws/.codewhale/plugins', folders, roots), true);
    assert.equal(coveredByRootWatchers('/other/.rivumi/hooks.json', folders, roots), true);
  });

  it('leaves a hook script beside a root, whose name only starts with the root’s, to a watcher of its own', () => {
    // `["sh", ".rivumi-hooks/check.sh"]` in hooks.json: an edit of the script must still drop trust.
    assert.equal(coveredByRootWatchers('/ws/.rivumi-hooks/check.sh', folders, roots), false);
    assert.equal(coveredByRootWatchers('/ws/.codewhale_tools/run.sh', folders, roots), false);
    assert.equal(coveredByRootWatchers('/ws/scripts/check.sh', folders, roots), false);
    assert.equal(coveredByRootWatchers('/elsewhere/.rivumi/x', folders, roots), false);
  });
});
