import { strict as assert } from 'node:assert';
import { EventEmitter, once } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { endedMidInput } from '../fuzz/endedMidInput';
import type { FuzzInput } from '../fuzz/input';
import type { FromWorker } from '../fuzz/protocol';
import { stopRequests } from '../fuzz/stopRequests';
import { forkWorker, formatReport, runFuzz, type FuzzOptions } from '../fuzz/supervisor';

/**
 * The fuzz supervisor (test/fuzz/supervisor.ts) over its workers: a worker that died while shrinking
 * lost the failures its input had (only `no-crash [worker died (…)]` was left), and Ctrl-C, which
 * reaches the workers too, killed them, so every stopped run reported a crash that replays clean.
 */
const run = (o: Partial<FuzzOptions>) =>
  runFuzz({ seed: 'skillgate-ci', runs: 1, jobs: 1, timeLimitMs: 10000, hangMs: 30000, shrinkAttempts: 0, ...o });

const STAND_IN = path.join(__dirname, 'helpers', 'fuzzWorkerStandIn.ts');
/** The stand-in's input and candidate (fuzzWorkerStandIn.ts). */
const standInInput = (ops: readonly string[]) => ({ index: 0, ops }) as unknown as FuzzInput;

describe('fuzz: a worker that dies mid-input (test/fuzz/supervisor.ts)', function () {
  this.timeout(30000);

  it('keeps the failures the input had when its worker dies while shrinking them, unshrunk, and reports the death with the candidate it died on', async () => {
    const report = await run({ seed: 'dies-shrinking', startWorker: () => forkWorker(STAND_IN) });
    assert.equal(report.inputs, 1);
    assert.equal(report.failingInputs, 1);
    assert.deepEqual(
      report.groups.map((g) => [g.invariant, g.signature, g.inputs]),
      [
        ['no-crash', 'worker died (SIGKILL) on a shrinking candidate', [0]],
        ['watched-change-seen', 'unseen: write-skill', [0]],
      ],
    );
    const [death, kept] = report.groups;
    // Replaying the input does not reproduce the death: the candidate does.
    assert.match(death?.detail ?? '', /shrinking candidate.*--replay of the input does not reproduce it/);
    assert.deepEqual(death?.minimal, standInInput(['write-skill']));
    assert.equal(kept?.detail, 'never seen (not shrunk: the worker died with SIGKILL after checking the input)');
    assert.equal(kept?.minimal, null);
  });

  it('reports a death after the check, with no candidate told of, apart from the failures the input keeps', () => {
    const checked = { invariant: 'exit-codes', signature: 'list 2', detail: 'exit 2' } as const;
    const out = endedMidInput({ index: 4, since: 0, failures: [checked] }, { by: 'death', cause: 'SIGKILL' });
    assert.deepEqual(
      out.failures.map((f) => [f.invariant, f.signature]),
      [
        ['exit-codes', 'list 2'],
        ['no-crash', 'worker died (SIGKILL) after checking the input'],
      ],
    );
    assert.match(out.failures[1]?.detail ?? '', /may not reproduce it/);
    assert.deepEqual(out.minimal, []);
  });

  it('reports a worker that dies while checking the input as a crash of that input', async () => {
    const report = await run({ seed: 'dies-checking', startWorker: () => forkWorker(STAND_IN) });
    assert.deepEqual(
      report.groups.map((g) => [g.invariant, g.signature, g.detail]),
      [['no-crash', 'worker died (SIGKILL)', 'the worker process exited with SIGKILL while checking the input']],
    );
  });
});

describe('fuzz: stopping a run (test/fuzz/main.ts, supervisor.ts, worker.ts)', function () {
  this.timeout(120000);

  /** Real workers; `onInput` runs once the first has generated its input, while it checks it. */
  const startWorkers = (onInput: (worker: ReturnType<typeof forkWorker>) => void) => () => {
    const worker = forkWorker();
    worker.on('message', (m: FromWorker) => m.type === 'generated' && onInput(worker));
    return worker;
  };

  it('finishes the input in flight when Ctrl-C and SIGTERM reach the workers too, and reports no crash', async () => {
    const stop = new AbortController();
    const report = await run({
      runs: 3,
      stop: stop.signal,
      startWorker: startWorkers((worker) => {
        // The terminal sends Ctrl-C to the whole process group; `timeout` and `kill 0` send SIGTERM there.
        worker.kill('SIGINT');
        worker.kill('SIGTERM');
        stop.abort();
      }),
    });
    // The input's own failures, if any, are the product's: the stop adds none.
    assert.deepEqual(
      report.groups.filter((g) => g.invariant === 'no-crash'),
      [],
      formatReport(report),
    );
    assert.deepEqual([report.inputs, report.cutShort], [1, 0]);
  });

  it('abandons the inputs in flight at a second stop, neither run nor failed, and says so in the report line', async () => {
    const stop = new AbortController();
    const abandon = new AbortController();
    const report = await run({
      runs: 3,
      stop: stop.signal,
      abandon: abandon.signal,
      startWorker: startWorkers(() => {
        stop.abort();
        abandon.abort();
      }),
    });
    assert.equal(report.groups.length, 0, formatReport(report));
    assert.deepEqual([report.inputs, report.failingInputs, report.cutShort], [0, 0, 1]);
    assert.match(
      formatReport(report).split('\n')[0] ?? '',
      /, 0 failing input\(s\), 1 input\(s\) cut short by a stop$/,
    );
  });

  it('ends a worker whose supervisor is gone, though it ignores the stop signals, with its scratch directory', async () => {
    const worker = forkWorker();
    const [ready] = (await once(worker, 'message')) as [FromWorker];
    assert.equal(ready.type, 'ready');
    const scratch = ready.type === 'ready' ? ready.scratch : '';
    worker.send({ type: 'input', seed: 'skillgate-ci', index: 0, timeLimitMs: 10000, shrinkAttempts: 0, shrinkMs: 0 });
    await once(worker, 'message');
    const exited = once(worker, 'exit');
    worker.disconnect();
    assert.deepEqual(await exited, [0, null]);
    assert.equal(fs.existsSync(scratch), false);
  });
});

describe('fuzz: what Ctrl-C and SIGTERM ask of a run (test/fuzz/stopRequests.ts)', () => {
  const signals = () => {
    let clock = 0;
    const emitter = new EventEmitter();
    const requests = stopRequests(emitter, () => clock);
    return {
      requests,
      at: (ms: number, signal: 'SIGINT' | 'SIGTERM') => {
        clock = ms;
        emitter.emit(signal);
      },
    };
  };

  it('stops at the first signal, and abandons the inputs in flight at a second one', () => {
    const s = signals();
    assert.deepEqual([s.requests.stop.aborted, s.requests.abandon.aborted], [false, false]);
    s.at(1000, 'SIGINT');
    assert.deepEqual([s.requests.stop.aborted, s.requests.abandon.aborted], [true, false]);
    s.at(4000, 'SIGTERM');
    assert.deepEqual([s.requests.stop.aborted, s.requests.abandon.aborted], [true, true]);
  });

  it('takes the copies npm, tsx and `timeout` pass on within a second for the first signal', () => {
    const s = signals();
    s.at(1000, 'SIGINT');
    s.at(1030, 'SIGINT');
    s.at(1999, 'SIGTERM');
    assert.deepEqual([s.requests.stop.aborted, s.requests.abandon.aborted], [true, false]);
    s.at(2001, 'SIGINT');
    assert.equal(s.requests.abandon.aborted, true);
  });
});
