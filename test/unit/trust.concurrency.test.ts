import { strict as assert } from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { TrustStore } from '../../src/core/trust/trustStore';
import { review } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import { revoke } from '../../src/core/trust/switches';
import type { LifecycleContext } from '../../src/core/trust/lifecycle';
import { Fixture, writeW, byName, LINUX_HOST, index } from './helpers/fixture';

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
    buildSync({
      entryPoints: [path.join(__dirname, 'helpers/storeWriter.ts')],
      bundle: true,
      platform: 'node',
      target: 'node20',
      outfile: writer,
      mainFields: ['module', 'main'],
      logLevel: 'error',
    });
  });
  after(() => f.remove());

  const start = (dir: string, key: string, count: string): ChildProcess =>
    spawn(process.execPath, [writer, dir, key, count], { stdio: ['ignore', 'ignore', 'pipe'] });
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
      // Kill at a random point of its writing, not of its start-up (which takes most of a
      // second on a loaded machine): wait for its first lock, then up to 300 ms more.
      const started = Date.now();
      while (!fs.existsSync(`${store.file}.lock`) && Date.now() - started < 10000)
        await new Promise((r) => setTimeout(r, 2));
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 300)));
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
    assert.equal(await exit(start(dir, key, '1')), 0);
    assert.deepEqual(
      fs.readdirSync(dir).filter((n) => n.startsWith('state.json.tmp-')),
      [],
    );
  });

  describe('a writer that loses its lock while stopped writes nothing', () => {
    /** A child that stops itself inside its critical section; resolves once it is stopped. */
    const stoppedWriter = async (dir: string, key: string) => {
      const child = spawn(process.execPath, [writer, dir, key, 'stop-in-enable'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr?.on('data', (d) => (err += d));
      const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? -1)));
      while (!err.includes('stopping')) await new Promise((r) => setTimeout(r, 10));
      // The marker is written just before SIGSTOP; wait until the kernel shows it stopped.
      const stat = `/proc/${child.pid}/stat`;
      if (fs.existsSync(stat))
        while (!/^\d+ \(.*\) [tT] /.test(fs.readFileSync(stat, 'utf8'))) await new Promise((r) => setTimeout(r, 10));
      else await new Promise((r) => setTimeout(r, 200));
      return { child, exited, stderr: () => err };
    };
    const trustedBundle = async (name: string) => {
      const dir = f.path(name, 'state');
      const store = new TrustStore(dir, { lockStaleMs: 2000 });
      writeW(f, '', `${name}/ws/.codewhale/plugins/example-plugin`);
      const ctx: LifecycleContext = { store, host: LINUX_HOST };
      const item = () => byName(index([f.path(name, 'ws')], { trust: () => store.view() }), 'example-plugin');
      const r = review(item(), ctx);
      assert.ok(r.ok, r.ok ? '' : r.message);
      const t = await trust(item(), r.value.reviewToken ?? '', ctx);
      assert.ok(t.ok, t.ok ? '' : t.message);
      return { dir, store, ctx, item, key: item().detail.bundleKey as string };
    };
    const entryOf = (store: TrustStore, key: string) => {
      const read = store.read();
      if (!read.ok) throw new Error(read.problem);
      return read.state.bundles[key];
    };

    it('a revoke that reports success stays revoked when a stopped enable resumes after its lock was taken over', async () => {
      const { dir, store, ctx, item, key } = await trustedBundle('takeover');
      const paused = await stoppedWriter(dir, key);
      try {
        // The stopped writer holds the lock; after the stale time (2 s here) the revoke takes it over.
        const revoked = await revoke(item(), ctx);
        assert.deepEqual(revoked, { ok: true, value: { changed: true } });
      } finally {
        paused.child.kill('SIGCONT');
      }
      assert.equal(await paused.exited, 1, 'the resumed writer reports failure');
      assert.match(paused.stderr(), /changed while this update was being made .*nothing was written; try again/);
      const entry = entryOf(store, key);
      assert.equal(entry?.trust, null, 'the revoke survived');
      assert.equal(entry?.enabled, false, 'the stale enable was not written');
      assert.equal(item().trust, 'not-reviewed');
      // Nothing left behind, and the resumed writer did not remove a lock that was not its own.
      assert.deepEqual(
        fs.readdirSync(dir).filter((n) => n !== 'snapshots'),
        ['state.json'],
      );
    });

    it('commits normally when it resumes after the stale time and nobody took its lock', async () => {
      const { dir, store, key } = await trustedBundle('resume');
      const paused = await stoppedWriter(dir, key);
      await new Promise((r) => setTimeout(r, 2500));
      paused.child.kill('SIGCONT');
      assert.equal(await paused.exited, 0, paused.stderr());
      assert.equal(entryOf(store, key)?.enabled, true);
      assert.deepEqual(
        fs.readdirSync(dir).filter((n) => n !== 'snapshots'),
        ['state.json'],
      );
    });

    it('refuses to rename over a state file that changed under its lock (compare-and-swap on the bytes read)', async () => {
      const { dir, store, key } = await trustedBundle('cas');
      const paused = await stoppedWriter(dir, key);
      // Another program rewrites the file without the lock (an older Skillgate, an editor).
      const read = store.read();
      assert.ok(read.ok);
      const edited = structuredClone(read.state);
      (edited.bundles[key] as { trust: unknown }).trust = null;
      fs.writeFileSync(store.file, JSON.stringify(edited, null, 2));
      paused.child.kill('SIGCONT');
      assert.equal(await paused.exited, 1);
      assert.match(paused.stderr(), /nothing was written; try again/);
      assert.deepEqual([entryOf(store, key)?.trust, entryOf(store, key)?.enabled], [null, false]);
    });
  });
});
