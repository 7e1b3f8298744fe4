import { strict as assert } from 'node:assert';
import { FullIndexStalls, type FullIndexRun, type IndexProgressEvent } from '../../src/extension/flows/fullIndexStalls';
import type { IndexBackend } from '../../src/extension/flows/indexBackend';
import { WorkerIndex, type IndexThread } from '../../src/extension/flows/workerIndex';
import type { Snapshot } from '../../src/core/index/snapshot';
import { fsPatcher } from './helpers/fsPatch';
import { threadCpuUnreadable } from './helpers/threadCpuUnreadable';

/**
 * The extension host's stalls over one full index (flows/fullIndexStalls.ts): the figures
 * `npm run bench:editor` reads (`onFullIndex`) and the log line that says where the index
 * ran, reported only once the workbench has had its tail of time to ask for the tree's rows.
 */
describe("a full index's stall figures", () => {
  const snapshot: Snapshot = { generation: 1, workspaces: [], items: [], diagnostics: [], trustProblem: null };
  const inHost = {} as IndexBackend;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const fsPatch = fsPatcher();

  /** A full index's figures, its log and the progress event it listens to. */
  function watched() {
    const lines: string[] = [];
    const runs: FullIndexRun[] = [];
    const progress = { disposed: 0, report: (_done: number, _total: number) => undefined as void };
    const onProgress: IndexProgressEvent = (listener) => {
      progress.report = (done, total) => listener({ done, total });
      return { dispose: () => void progress.disposed++ };
    };
    const at = (level: string) => (m: string) => void lines.push(`[${level}] ${m}`);
    const log = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
    const stalls = new FullIndexStalls(onProgress, log, (run) => runs.push(run));
    return { stalls, lines, runs, progress };
  }

  it('reports the figures of an index in the extension host half a second after its snapshot was shown, and logs them', async () => {
    const { stalls, lines, runs, progress } = watched();
    stalls.loaded();
    assert.equal(progress.disposed, 1, 'the progress listener is let go once everything was read');
    stalls.reportOnceShown(snapshot, 1234, inHost);
    await sleep(300);
    assert.equal(runs.length, 0, 'nothing while the workbench may still ask for rows');
    await sleep(400);
    assert.equal(runs.length, 1);
    const run = runs[0] as FullIndexRun;
    assert.equal(run.snapshot, snapshot);
    assert.equal(run.indexMs, 1234);
    assert.equal(run.indexedIn, 'extension host');
    assert.ok(run.longestStallMs >= 0, JSON.stringify(run));
    assert.ok(run.presenting !== undefined && run.presenting.stallMs >= 0, JSON.stringify(run));
    assert.equal(lines.length, 1);
    assert.match(lines[0] as string, /^\[info\] full index in the extension host: longest extension-host stall \d+ ms/);
    if (process.platform === 'linux') {
      assert.ok(
        run.busiestTurnCpuMs !== undefined && run.presenting.busiestTurnCpuMs !== undefined,
        JSON.stringify(run),
      );
      assert.match(lines[0] as string, / ms \(busiest turn \d+ ms of CPU\)$/);
    }
  });

  it('says an index in the worker ran there', async () => {
    const thread: IndexThread = {
      postMessage: () => undefined,
      on: () => undefined,
      terminate: () => undefined,
      unref: () => undefined,
    };
    const worker = new WorkerIndex(thread, () => undefined);
    const { stalls, lines, runs } = watched();
    stalls.loaded();
    stalls.reportOnceShown(snapshot, 5, worker);
    await sleep(600);
    assert.equal(runs[0]?.indexedIn, 'worker');
    assert.match(lines[0] as string, /^\[info\] full index in the worker: /);
    worker.dispose();
  });

  it('starts the presenting part when the progress says every unit was loaded, not before', async () => {
    const loading = watched();
    loading.progress.report(3, 5);
    loading.stalls.reportOnceShown(snapshot, 5, inHost);
    const done = watched();
    done.progress.report(5, 5);
    done.stalls.reportOnceShown(snapshot, 5, inHost);
    await sleep(600);
    assert.equal(loading.runs[0]?.presenting, undefined, 'a run still loading has no presenting part');
    assert.equal('presenting' in (loading.runs[0] as FullIndexRun), false);
    assert.ok(done.runs[0]?.presenting !== undefined, 'the last progress (5 of 5) starts it');
  });

  it('reports and logs the stalls without a busiest turn where the thread’s CPU time cannot be read', async () => {
    threadCpuUnreadable(fsPatch);
    const { stalls, lines, runs } = watched();
    stalls.loaded();
    stalls.reportOnceShown(snapshot, 5, inHost);
    await sleep(600);
    assert.equal(runs.length, 1);
    const run = runs[0] as FullIndexRun;
    assert.equal('busiestTurnCpuMs' in run, false, JSON.stringify(run));
    assert.deepEqual(Object.keys(run.presenting ?? {}), ['stallMs']);
    assert.match(
      lines[0] as string,
      /^\[info\] full index in the extension host: longest extension-host stall \d+ ms$/,
    );
  });

  it('lets the progress go and reports nothing for a run that ended without a snapshot of its own', async () => {
    const { stalls, runs, lines, progress } = watched();
    stalls.end();
    assert.equal(progress.disposed, 1);
    await sleep(600);
    assert.deepEqual([runs, lines], [[], []]);
  });

  it('stops sampling once a run ends: the thread’s CPU time is read no more', async () => {
    const reads = fsPatch.calls('readFileSync', (p) => p.endsWith('/schedstat'));
    const { stalls } = watched();
    await sleep(30);
    assert.ok(reads.length > 0, 'the sampler reads it at each tick');
    stalls.end();
    const atEnd = reads.length;
    await sleep(60);
    assert.equal(reads.length, atEnd);
  });
});
