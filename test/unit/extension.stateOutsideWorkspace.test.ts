import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CacheDirectory } from '../../src/extension/flows/cacheDirectory';
import { vscodeStandIn } from './helpers/vscodeStandIn';
import { watchedWorkspace } from './helpers/watchedWorkspace';

/**
 * The editor keeps its trust store and its parse cache out of the window's folders as the
 * CLI does (trust.md: never read from or written to the workspace): a folder holds what the
 * repository committed. The store there fails closed, named with the folder; the cache there
 * is neither read nor written, said once in the log.
 */
describe('the editor: no trust store and no cache inside a folder of the window', function () {
  this.timeout(20000);
  const env = watchedWorkspace('skillgate-state-in-ws-');
  const { SkillgateService, log } = env;

  beforeEach(() => {
    fs.mkdirSync(path.join(env.ws, '.rivumi/plugins'), { recursive: true });
    fs.writeFileSync(path.join(env.ws, '.rivumi/plugins/pk.json'), '{"name":"pk"}');
    // A Codewhale bundle: what the parse cache holds.
    fs.mkdirSync(path.join(env.ws, '.codewhale/plugins/cw'), { recursive: true });
    fs.writeFileSync(
      path.join(env.ws, '.codewhale/plugins/cw/plugin.toml'),
      'schema_version = 1\n[plugin]\nname = "cw"\nversion = "1.0.0"\n',
    );
  });

  it('says once that a cache inside a folder is not used, and again when a folder holds it in other words', () => {
    const warned: string[] = [];
    const cache = new CacheDirectory(path.join(env.ws, '.cache'), { ...log, warn: (m) => void warned.push(m) });
    for (let i = 0; i < 3; i++) assert.equal(cache.usableWith([env.ws]), undefined);
    assert.equal(cache.usableWith([env.dir]), undefined);
    assert.deepEqual(warned, [
      `the cache directory ${path.join(env.ws, '.cache')} is inside the workspace folder ${env.ws}, where the repository could plant entries; indexing without a cache`,
      `the cache directory ${path.join(env.ws, '.cache')} is inside the workspace folder ${env.dir}, where the repository could plant entries; indexing without a cache`,
    ]);
  });

  it('refuses a state directory setting inside the folder: every bundle fails closed, nothing is created there', async () => {
    const inside = path.join(env.ws, '.sg');
    vscodeStandIn.settings.set('skillgate.stateDirectory', { globalValue: inside });
    const service = new SkillgateService(log);
    try {
      const snapshot = await service.refreshAll();
      assert.equal(
        snapshot.trustProblem,
        `trust store directory ${inside} is inside the workspace folder ${env.ws}, where the repository could write its own receipts; Skillgate refuses it (choose a state directory outside every workspace folder)`,
      );
      assert.ok(snapshot.items.every((i) => i.trust === null || i.reasons.includes('trust_store_unavailable')));
      assert.equal(fs.existsSync(inside), false, 'the watcher did not create the store there');
    } finally {
      service.dispose();
    }
  });

  it('indexes without a cache that lies inside the folder, with the same result, and logs it once', async () => {
    const inside = path.join(env.ws, '.cache/parse-cache');
    const service = new SkillgateService(log, inside);
    let withoutCache: unknown;
    try {
      const first = await service.refreshAll();
      await service.refreshAll();
      withoutCache = first.items.map((i) => [i.id, i.decision, i.reasons]);
    } finally {
      service.dispose();
    }
    assert.equal(fs.existsSync(inside), false, 'no cache was written into the folder');
    const refusals = env.lines.filter((l) => l.includes('is inside the workspace folder'));
    assert.deepEqual(refusals, [
      `the cache directory ${inside} is inside the workspace folder ${env.ws}, where the repository could plant entries; indexing without a cache`,
    ]);
    const beside = new SkillgateService(log, path.join(env.dir, 'cache'));
    try {
      const snapshot = await beside.refreshAll();
      assert.deepEqual(
        snapshot.items.map((i) => [i.id, i.decision, i.reasons]),
        withoutCache,
      );
    } finally {
      beside.dispose();
    }
    assert.ok(
      fs.readdirSync(path.join(env.dir, 'cache')).some((n) => n.endsWith('.cache')),
      'a cache beside is used',
    );
  });
});
