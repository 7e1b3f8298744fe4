import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { InHostIndex, type BackendOptions } from '../../src/extension/flows/indexBackend';
import { IndexStarter } from '../../src/extension/flows/indexStarter';
import { WorkerFailure, WorkerIndex } from '../../src/extension/flows/workerIndex';

/**
 * Where each full index runs (flows/indexStarter.ts): in a worker thread, the first one
 * started before the index asks for it, or in the extension host once a worker failed or
 * could not start, or when SKILLGATE_INDEX_IN_HOST=1 says so. `WorkerIndex.start` is the
 * test's: a worker that records what it was given and what became of it.
 */
describe('where a full index runs', () => {
  const start = WorkerIndex.start.bind(WorkerIndex);
  const inHost = process.env.SKILLGATE_INDEX_IN_HOST;
  let dir: string;
  let options: BackendOptions;
  let started: { data: { cacheDir?: string }; fail: () => void; opened: boolean; disposed: boolean }[];
  /** Set: the next worker cannot start, and throws this. */
  let cannotStart: Error | undefined;
  let logged: string[];
  const log = {
    debug: () => undefined,
    info: () => undefined,
    warn: (m: string) => void logged.push(m),
    error: (m: string) => void logged.push(m),
  };
  let failed: unknown[];
  const starter = (cacheDir: string | undefined = undefined) =>
    new IndexStarter(
      'indexWorker.js',
      log,
      () => cacheDir,
      (worker) => void failed.push(worker),
    );

  before(() => {
    WorkerIndex.start = (_script, data, onFailure) => {
      if (cannotStart) throw cannotStart;
      const record: (typeof started)[number] = { data, opened: false, disposed: false, fail: () => undefined };
      const worker = {
        open: () => ((record.opened = true), worker),
        dispose: () => void (record.disposed = true),
      } as unknown as WorkerIndex;
      record.fail = () => onFailure(new WorkerFailure('the index worker exited (code 1)'), worker);
      started.push(record);
      return worker;
    };
  });

  after(() => {
    WorkerIndex.start = start;
  });

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-index-starter-'));
    options = { workspaces: [dir], codewhaleHome: null, stateDir: path.join(dir, 'state') };
    started = [];
    cannotStart = undefined;
    logged = [];
    failed = [];
    delete process.env.SKILLGATE_INDEX_IN_HOST;
  });

  afterEach(() => {
    if (inHost === undefined) delete process.env.SKILLGATE_INDEX_IN_HOST;
    else process.env.SKILLGATE_INDEX_IN_HOST = inHost;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts the first index’s worker once before it is asked for, and opens that one for the index', () => {
    const s = starter();
    s.prestart();
    s.prestart();
    assert.equal(started.length, 1, 'one worker started ahead');
    assert.equal(started[0]?.opened, false);
    s.start(options);
    assert.deepEqual(
      started.map((w) => w.opened),
      [true],
    );
  });

  it('ends a worker started ahead that no index opened with the window, and leaves an opened one to its index', () => {
    const unopened = starter();
    unopened.prestart();
    unopened.dispose();
    const opened = starter();
    opened.prestart();
    opened.start(options);
    opened.dispose();
    assert.deepEqual(
      started.map((w) => [w.opened, w.disposed]),
      [
        [false, true],
        [true, false],
      ],
    );
  });

  it('runs the index in the extension host when the worker started ahead failed before it, ending that worker', () => {
    const s = starter();
    s.prestart();
    started[0]?.fail();
    assert.ok(s.start(options) instanceof InHostIndex);
    assert.deepEqual(
      started.map((w) => [w.opened, w.disposed]),
      [[false, true]],
    );
    assert.deepEqual(logged, ['the index worker exited (code 1); indexing in the extension host from now on']);
    assert.equal(failed.length, 1);
    // From now on, no worker: neither ahead nor for the next index.
    s.prestart();
    assert.ok(s.start(options) instanceof InHostIndex);
    assert.equal(started.length, 1);
  });

  it('runs every index in the extension host once no worker can start here, and tries no other', () => {
    cannotStart = new Error('no threads');
    const s = starter();
    assert.ok(s.start(options) instanceof InHostIndex);
    cannotStart = undefined;
    assert.ok(s.start(options) instanceof InHostIndex);
    s.prestart();
    assert.equal(started.length, 0);
    assert.deepEqual(logged, ['the index worker cannot start (no threads); indexing in the extension host']);
  });

  it('runs every index in the extension host with SKILLGATE_INDEX_IN_HOST=1, and starts no worker ahead', () => {
    process.env.SKILLGATE_INDEX_IN_HOST = '1';
    const s = starter();
    s.prestart();
    assert.ok(s.start(options) instanceof InHostIndex);
    assert.equal(started.length, 0);
  });

  it('gives a worker the code cache’s directory when there is one to read from, and none otherwise', () => {
    starter(path.join(dir, 'cache')).start(options);
    starter(undefined).start(options);
    assert.deepEqual(
      started.map((w) => w.data.cacheDir),
      [path.join(dir, 'cache'), undefined],
    );
  });
});
