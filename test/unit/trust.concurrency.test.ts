import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { TrustStore } from '../../src/core/trust/trustStore';
import { Fixture } from './helpers/fixture';

/**
 * Several processes on one store (two editor windows and a CLI): no update is lost, no
 * temporary file is left, and a writer killed at any point leaves the old or the new
 * state — always a file that loads.
 */
describe('the trust store across processes', function () {
  this.timeout(300000);
  let f: Fixture;
  let writer: string;
  before(() => {
    f = new Fixture();
    writer = f.path('storeWriter.js');
    buildSync({ entryPoints: [path.join(__dirname, 'helpers/storeWriter.ts')], bundle: true, platform: 'node', target: 'node20', outfile: writer, mainFields: ['module', 'main'], logLevel: 'error' });
  });
  after(() => f.remove());

  const start = (dir: string, key: string, count: string): ChildProcess => spawn(process.execPath, [writer, dir, key, count], { stdio: ['ignore', 'ignore', 'pipe'] });
  const exit = (child: ChildProcess) =>
    new Promise<number>((resolve) => {
      let err = '';
      child.stderr?.on('data', (d) => (err += d));
      child.on('exit', (code) => {
        if (code !== 0) process.stderr.write(err);
        resolve(code ?? -1);
      });
    });

  it('records every one of 2 × 500 trust/enable/disable operations on different bundles (no lost update, no debris)', async () => {
    const dir = f.path('concurrent');
    const keys = ['1'.repeat(64), '2'.repeat(64)];
    const codes = await Promise.all(keys.map((k) => exit(start(dir, k, '500'))));
    assert.deepEqual(codes, [0, 0]);
    const read = new TrustStore(dir).read();
    if (!read.ok) throw new Error(read.problem);
    const bundles = read.state.bundles;
    for (const k of keys) {
      const entry = bundles[k];
      assert.equal(entry?.generation, 500, `every operation of ${k.slice(0, 4)} is recorded`);
      assert.equal(entry?.reviewHistory.length, 32);
    }
    assert.deepEqual(fs.readdirSync(dir).sort(), ['state.json']);
  });

  it('leaves a loadable old or new state when a writer is killed at 100 random points', async () => {
    const dir = f.path('crash');
    const key = '3'.repeat(64);
    const store = new TrustStore(dir);
    let lastGeneration = 0;
    let sawWrites = 0;
    for (let i = 0; i < 100; i++) {
      const child = start(dir, key, 'forever');
      const exited = new Promise((r) => child.once('exit', r));
      await new Promise((r) => setTimeout(r, 150 + Math.floor(Math.random() * 300)));
      child.kill('SIGKILL');
      await exited;
      const read = store.read();
      if (!fs.existsSync(store.file)) continue;
      assert.ok(read.ok, `after kill ${i}: ${read.ok ? '' : read.problem}`);
      const generation = read.state.bundles[key]?.generation ?? 0;
      assert.ok(generation >= lastGeneration, 'the state never goes back');
      if (generation > lastGeneration) sawWrites++;
      lastGeneration = generation;
      // A killed writer can leave its lock behind; proper-lockfile takes it over after
      // the stale period (5 s). The test clears it instead of waiting 100 times.
      fs.rmSync(`${store.file}.lock`, { recursive: true, force: true });
    }
    assert.ok(sawWrites > 20, `writers made progress between kills (${sawWrites})`);
    // The next writer cleans up a temporary file a killed writer may have left.
    assert.equal((await exit(start(dir, key, '1'))), 0);
    assert.deepEqual(fs.readdirSync(dir).filter((n) => n.startsWith('state.json.tmp-')), []);
  });
});
