import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generateWorkspace } from '../../bench/syntheticWorkspace';
import { IndexEnded, InHostIndex, type BackendOptions } from '../../src/extension/flows/indexBackend';
import type { Indexed } from '../../src/extension/flows/snapshotTransfer';

/**
 * The in-host index answers its requests in order, as the worker does (indexBackend.ts):
 * its full reads yield to the event loop between slices of bundles, and a request that
 * came meanwhile (a trust action's re-derive, skillgateService.ts `rederive`) must not
 * compose from an indexer half-way through reading everything again.
 */
describe('the in-host index', function () {
  this.timeout(60000);
  let dir: string;
  let options: BackendOptions;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-inhost-'));
    const root = path.join(dir, 'ws');
    generateWorkspace(root, 80);
    options = { workspaces: [root], codewhaleHome: null, evaHome: null, stateDir: path.join(dir, 'state') };
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('answers a re-derive asked during a re-check after it, with every bundle, and the re-check still compares with what was shown', async () => {
    const index = new InHostIndex(options);
    const full = await index.indexAll(() => undefined);
    const count = full.snapshot.items.length;
    const order: string[] = [];
    const recheck = index.recheck().then((r) => (order.push('recheck'), r));
    // Asked while the re-check reads, as a trust action is.
    const rederived: Indexed = await index.snapshot().then((r) => (order.push('snapshot'), r));
    assert.equal(rederived.snapshot.items.length, count, 'a re-derive composed a half-read index');
    assert.equal(await recheck, undefined);
    assert.deepEqual(order, ['recheck', 'snapshot']);
  });

  it('stops a full read at its next slice once disposed, and refuses what is asked after', async () => {
    const index = new InHostIndex(options);
    let slices = 0;
    const reading = index.indexAll((done) => {
      if (done > 0 && ++slices === 1) index.dispose();
    });
    await assert.rejects(reading, IndexEnded);
    assert.equal(slices, 1, 'no slice read after the dispose');
    await assert.rejects(index.snapshot(), IndexEnded);
  });

  it('keeps answering in order after a request that threw', async () => {
    const index = new InHostIndex(options);
    await index.indexAll(() => undefined);
    const failing = index.indexAll(() => {
      throw new Error('progress port failed');
    });
    const after = index.snapshot();
    await assert.rejects(failing, /progress port failed/);
    assert.ok((await after).snapshot.items.length > 0);
  });
});
