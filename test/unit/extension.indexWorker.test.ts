import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { generateWorkspace } from '../../bench/syntheticWorkspace';
import { InHostIndex, type BackendOptions } from '../../src/extension/flows/indexBackend';
import { WorkerFailure, WorkerIndex } from '../../src/extension/flows/workerIndex';
import { SnapshotReceiver, SnapshotSender } from '../../src/extension/flows/snapshotTransfer';
import { Indexer } from '../../src/core/index/indexer';
import { StallSampler } from '../../src/extension/flows/hostPerf';
import type { Snapshot } from '../../src/core/index/snapshot';

/**
 * The editor's index worker without VS Code: the worker bundle answers as the in-host
 * index does, snapshots cross in parts that carry only what the host lacks, and a
 * worker that cannot run reports a `WorkerFailure` (the service then indexes in-host).
 */
describe('the index worker', function () {
  this.timeout(60000);
  let dir: string;
  let script: string;
  let options: BackendOptions;
  const workers: WorkerIndex[] = [];

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-worker-'));
    script = path.join(dir, 'indexWorker.js');
    buildSync({
      entryPoints: [path.resolve(__dirname, '../../src/extension/indexWorker.ts')],
      outfile: script,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      mainFields: ['module', 'main'],
      logLevel: 'error',
      define: { SKILLGATE_VERSION: '"test"' },
    });
    const root = path.join(dir, 'ws');
    generateWorkspace(root, 12);
    options = { workspaces: [root], codewhaleHome: null, evaHome: null, stateDir: path.join(dir, 'state') };
  });

  after(() => {
    for (const w of workers) w.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const started = (s = script, onFailure: (f: WorkerFailure) => void = () => undefined) => {
    const w = new WorkerIndex(s, options, onFailure);
    workers.push(w);
    return w;
  };
  const same = (a: Snapshot, b: Snapshot) =>
    assert.deepEqual({ ...a, generation: 0 }, { ...b, generation: 0 }, 'worker and in-host snapshots differ');

  it('indexes, refreshes and re-derives as the in-host index does', async () => {
    const worker = started();
    const inHost = new InHostIndex(options);
    assert.deepEqual(await worker.watched(), await inHost.watched());
    const progress: number[] = [];
    const full = await worker.indexAll((done) => progress.push(done));
    same(full.snapshot, (await inHost.indexAll(() => undefined)).snapshot);
    assert.deepEqual(full.watched, await inHost.watched());
    assert.ok(progress.length > 0 && progress.at(-1)! <= full.snapshot.items.length);

    const skill = path.join(options.workspaces[0]!, '.codewhale/plugins/plugin-00003/skills/skill-1/SKILL.md');
    fs.writeFileSync(skill, '---\nname: renamed\ndescription: edited\n---\nbody\n');
    const refreshed = await worker.refresh([skill]);
    same(refreshed.snapshot, (await inHost.refresh([skill])).snapshot);
    assert.notDeepEqual(refreshed.snapshot.items, full.snapshot.items);
    same((await worker.snapshot()).snapshot, (await inHost.snapshot()).snapshot);
  });

  it('reports a core failure as an error of the request, and keeps serving', async () => {
    const worker = started();
    await worker.indexAll(() => undefined);
    await assert.rejects(
      worker.refresh([42 as unknown as string]),
      (e: Error) => !(e instanceof WorkerFailure) && e instanceof Error,
    );
    assert.ok((await worker.snapshot()).snapshot.items.length > 0);
  });

  it('fails with a WorkerFailure, once, when the worker cannot start or exits', async () => {
    for (const bad of [path.join(dir, 'missing.js'), path.join(dir, 'exits.js')]) {
      if (bad.endsWith('exits.js')) fs.writeFileSync(bad, 'process.exit(3);\n');
      const failures: WorkerFailure[] = [];
      const worker = started(bad, (f) => failures.push(f));
      await assert.rejects(
        worker.indexAll(() => undefined),
        WorkerFailure,
      );
      await assert.rejects(worker.snapshot(), WorkerFailure);
      assert.equal(failures.length, 1, bad);
    }
  });
});

describe('snapshot transfer between the worker and the host', () => {
  it('sends each new object once, in parts, and an index for what the host already holds', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-transfer-'));
    try {
      generateWorkspace(root, 20);
      const indexer = new Indexer({ workspaces: [root], codewhaleHome: null });
      const sender = new SnapshotSender();
      const receiver = new SnapshotReceiver();
      const watched = { paths: ['/p'], trees: [{ base: '/b', pattern: '**' }] };
      const transfer = (snapshot: Snapshot, partObjects: number) => {
        // Through the structured clone, as postMessage does: the host never shares the worker's objects.
        const parts = structuredClone(sender.parts({ snapshot, watched }, partObjects));
        for (const p of parts) receiver.add(p);
        return { parts, got: receiver.finish() };
      };
      const first = indexer.indexAll();
      const one = transfer(first, 25);
      assert.deepEqual(one.got, { snapshot: first, watched });
      const objects = (p: (typeof one.parts)[number]) =>
        [...p.items, ...p.diagnostics].filter((e) => typeof e !== 'number').length;
      assert.ok(one.parts.length > 1 && one.parts.every((p) => objects(p) <= 25));
      assert.equal(
        one.parts.map(objects).reduce((a, b) => a + b),
        first.items.length + first.diagnostics.length,
      );

      const skill = path.join(root, '.codewhale/plugins/plugin-00004/skills/skill-0/SKILL.md');
      fs.appendFileSync(skill, '\nmore\n');
      const second = indexer.refresh([skill]);
      const two = transfer(second, 25);
      assert.deepEqual(two.got.snapshot, second);
      // The other bundles' items are unchanged objects in the core: the host reuses its own.
      const resent = two.parts
        .flatMap((p) => p.items)
        .filter((e) => typeof e !== 'number' && /plugin-\d{5}/.test(e.id) && !e.id.includes('plugin-00004'));
      assert.deepEqual(
        resent.map((e) => (typeof e === 'number' ? e : e.id)),
        [],
      );
      assert.ok(two.parts.flatMap((p) => p.items).some((e) => typeof e === 'number'));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("the editor's stall sampler", () => {
  /** Samples while the event loop is held for 120 ms between two quiet turns; the longest stall seen. */
  async function holdTheLoop(sampler: StallSampler): Promise<number> {
    await new Promise((r) => setTimeout(r, 30));
    const until = performance.now() + 120;
    while (performance.now() < until);
    await new Promise((r) => setTimeout(r, 30));
    return sampler.stop();
  }

  it('reports a held event loop as the longest stall', async () => {
    const stall = await holdTheLoop(new StallSampler());
    assert.ok(stall >= 100, `${stall} ms`);
  });

  it("on Linux, also reports the busiest turn's CPU time, never more than the turn took", async function () {
    if (process.platform !== 'linux') this.skip();
    const sampler = new StallSampler();
    const stall = await holdTheLoop(sampler);
    const cpu = sampler.busiestTurnCpuMs;
    assert.ok(cpu !== undefined && cpu > 0 && cpu <= stall + 15, `${cpu} ms of CPU in a stall of ${stall} ms`);
  });

  it('keeps the part after mark() apart: a stall before it counts for the whole span only', async () => {
    const sampler = new StallSampler();
    await new Promise((r) => setTimeout(r, 30));
    const until = performance.now() + 120;
    while (performance.now() < until);
    await new Promise((r) => setTimeout(r, 30));
    sampler.mark();
    await new Promise((r) => setTimeout(r, 60));
    const whole = sampler.stop();
    assert.ok(whole >= 100, `${whole} ms`);
    const since = sampler.sinceMark;
    assert.ok(since !== undefined && since.stallMs < 100, JSON.stringify(since));
    if (process.platform === 'linux')
      assert.ok((sampler.busiestTurnCpuMs ?? 0) >= 50 && (since.busiestTurnCpuMs ?? 1e9) < 50, JSON.stringify(since));
  });

  it('has no part after mark() when it was never called', async () => {
    const sampler = new StallSampler();
    await new Promise((r) => setTimeout(r, 20));
    sampler.stop();
    assert.equal(sampler.sinceMark, undefined);
  });
});
