import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { generateWorkspace } from '../../bench/syntheticWorkspace';
import type { WorkerReply, WorkerRequest } from '../../src/extension/flows/indexWorkerProtocol';
import type { Snapshot } from '../../src/core/index/snapshot';
import { inThreadWorker } from '../support/inThreadWorker';
import { loadWithVscode, standInFileSystemWatchers, vscodeStandIn, type StandInWatcher } from './helpers/vscodeStandIn';

type Service = typeof import('../../src/extension/skillgateService');
type Workers = typeof import('../../src/extension/flows/workerIndex');
type Backends = typeof import('../../src/extension/flows/indexBackend');

/**
 * A worker thread of the test's own (inThreadWorker.ts) whose replies the test can hold
 * back, and which can be made to die when it is sent a request of some kind.
 */
interface TestThread {
  /** Replies of these request kinds are kept until `release`. */
  hold: Set<string>;
  release(): void;
  /** The thread exits (code 1) instead of serving a request of this kind. */
  dieOn: string | undefined;
  /** Requests sent to it, by kind. */
  readonly sent: string[];
  /** Replies held so far. */
  readonly held: () => number;
  terminated: boolean;
}

/**
 * The extension service over its index worker (skillgateService.ts): a worker that is
 * replaced, dies or is disposed while something waits on it never leaves a command
 * hanging, an empty snapshot shown as the workspace's, or anything running after the
 * window let the service go.
 */
describe('the extension service over its index worker', function () {
  this.timeout(60000);
  const { SkillgateService } = loadWithVscode(() => require('../../src/extension/skillgateService') as Service);
  const { WorkerIndex } = require('../../src/extension/flows/workerIndex') as Workers;
  const { InHostIndex } = require('../../src/extension/flows/indexBackend') as Backends;
  const start = WorkerIndex.start.bind(WorkerIndex);
  const inHost = process.env.SKILLGATE_INDEX_IN_HOST;
  const logged: string[] = [];
  const log = {
    debug: () => undefined,
    info: () => undefined,
    warn: (m: string) => void logged.push(m),
    error: (m: string) => void logged.push(m),
  };
  let dir: string;
  let root: string;
  let threads: TestThread[];
  /** What the next threads hold from their start (TestThread.hold), and die on (TestThread.dieOn). */
  let holdFromStart: string[];
  let dieFromStart: string | undefined;
  /** Watchers made so far, with the handler of their changes. */
  let watchers: StandInWatcher[];
  const createWatcher = vscodeStandIn.api.workspace.createFileSystemWatcher;

  /** An in-thread worker the test can hold back or make die (see TestThread). */
  const testThread = () => {
    const inner = inThreadWorker();
    const held: WorkerReply[] = [];
    const listeners: ((reply: WorkerReply) => void)[] = [];
    const kindOf = new Map<number, string>();
    const control: TestThread = {
      hold: new Set(holdFromStart),
      release: () => {
        for (const r of held.splice(0)) for (const l of listeners) l(r);
      },
      dieOn: dieFromStart,
      sent: [],
      held: () => held.length,
      terminated: false,
    };
    inner.on('message', (reply: WorkerReply) => {
      if (control.hold.has(kindOf.get(reply.id) ?? '')) held.push(reply);
      else for (const l of listeners) l(reply);
    });
    threads.push(control);
    return {
      ...inner,
      postMessage: (request: WorkerRequest) => {
        if (request.op !== 'next') control.sent.push(request.op);
        if ('id' in request && request.op !== 'next') kindOf.set(request.id, request.op);
        if (request.op === control.dieOn) inner.terminate();
        else inner.postMessage(request);
      },
      on: (event: string, listener: (x: never) => void) => {
        if (event === 'message') listeners.push(listener as (reply: WorkerReply) => void);
        else (inner.on as (event: string, listener: (x: never) => void) => unknown)(event, listener);
      },
      terminate: () => {
        control.terminated = true;
        return inner.terminate();
      },
    };
  };

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-service-worker-'));
    root = path.join(dir, 'ws');
    generateWorkspace(root, 40);
    WorkerIndex.start = (_script, _data, onFailure) => new WorkerIndex(testThread(), onFailure);
    standInFileSystemWatchers((w) => watchers.push(w));
  });

  beforeEach(() => {
    threads = [];
    holdFromStart = [];
    dieFromStart = undefined;
    watchers = [];
    logged.length = 0;
    vscodeStandIn.reset();
    delete process.env.SKILLGATE_INDEX_IN_HOST;
    vscodeStandIn.api.workspace.workspaceFolders = [{ uri: { scheme: 'file', fsPath: root } }];
    vscodeStandIn.settings.set('skillgate.stateDirectory', { globalValue: path.join(dir, 'state') });
    vscodeStandIn.settings.set('skillgate.includeUserBundles', { globalValue: false });
    vscodeStandIn.settings.set('skillgate.eva.home', { globalValue: path.join(dir, 'home') });
    vscodeStandIn.settings.set('skillgate.recheckIntervalSeconds', { globalValue: 0 });
  });

  after(() => {
    WorkerIndex.start = start;
    vscodeStandIn.api.workspace.createFileSystemWatcher = createWatcher;
    vscodeStandIn.reset();
    if (inHost === undefined) delete process.env.SKILLGATE_INDEX_IN_HOST;
    else process.env.SKILLGATE_INDEX_IN_HOST = inHost;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Whether `p` settles within `ms`. */
  const settles = (p: Promise<unknown>, ms = 2000) =>
    Promise.race([
      p.then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
    ]);

  const until = async (condition: () => boolean) => {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
  };

  const pluginOf = (snapshot: Snapshot) => {
    const plugin = snapshot.items.find((i) => i.system === 'codewhale' && i.kind === 'plugin');
    assert.ok(plugin);
    return plugin;
  };

  it('settles a trust action whose re-derive was asked of a worker that a new full index replaced', async () => {
    const service = new SkillgateService(log);
    try {
      const first = await service.refreshAll();
      const [w1] = threads;
      assert.ok(w1 && threads.length === 1);
      // The re-derive's answer is on its way when the next full index replaces the worker.
      w1.hold.add('snapshot');
      const revoked = service.revoke(pluginOf(first));
      await until(() => w1.sent.includes('snapshot'));
      await service.refreshAll();
      assert.equal(threads.length, 2);
      assert.ok(w1.terminated, 'the replaced worker ended');
      assert.ok(await settles(revoked), 'the revoke settles');
    } finally {
      service.dispose();
    }
  });

  it('shows no empty snapshot and no error when the worker dies while the changes seen during the first index are replayed', async () => {
    const service = new SkillgateService(log);
    const published: number[] = [];
    service.onDidChangeSnapshot(({ snapshot }) => void published.push(snapshot.items.length));
    try {
      holdFromStart = ['indexAll'];
      const running = service.refreshAll();
      await until(() => threads.length === 1);
      const [w1] = threads;
      assert.ok(w1);
      // A file changes while the first index reads: its batch is replayed on the result, and the worker dies then.
      await until(() => watchers.length > 0);
      watchers[0]?.changed({ fsPath: path.join(root, '.codewhale/plugins/plugin-00001/plugin.json') });
      await new Promise((resolve) => setTimeout(resolve, 300));
      w1.dieOn = 'refresh';
      w1.release();
      w1.hold.clear();
      const shown = await running;
      await until(() => published.length > 0 && published.at(-1) !== 0 && service.snapshot !== undefined);
      assert.ok(w1.sent.includes('refresh'));
      assert.deepEqual(vscodeStandIn.shown, [], "a failed worker is the log's, not an error of the index");
      assert.ok(
        !published.includes(0),
        `no empty snapshot shown as the workspace's (published: ${published.join(', ')})`,
      );
      assert.ok(shown.items.length > 0);
      assert.match(logged.join('\n'), /indexing in the extension host from now on/);
    } finally {
      service.dispose();
    }
  });

  for (const where of ['worker', 'extension host'] as const)
    it(`leaves nothing running once disposed during a full index (${where})`, async () => {
      if (where === 'extension host') process.env.SKILLGATE_INDEX_IN_HOST = '1';
      const service = new SkillgateService(log);
      const published: number[] = [];
      service.onDidChangeSnapshot(({ snapshot }) => void published.push(snapshot.items.length));
      holdFromStart = ['indexAll'];
      const running = service.refreshAll();
      if (where === 'worker') {
        await until(() => (threads[0]?.held() ?? 0) > 0);
      } else await until(() => watchers.length > 0);
      service.dispose();
      const made = watchers.length;
      threads[0]?.release();
      await settles(running, 1000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(published, [], 'nothing published after dispose');
      assert.equal(watchers.length, made, 'no watcher made after dispose');
      assert.ok(
        watchers.every((w) => w.disposed),
        'every watcher disposed',
      );
      if (where === 'worker') {
        assert.equal(threads.length, 1, 'no other worker started');
        assert.ok(threads[0]?.terminated, 'the worker ended');
      }
    });

  it('says why when the first index fails in the worker and in the extension host, never that nothing was found', async () => {
    const service = new SkillgateService(log);
    const changes: { items: number; failure: string | undefined }[] = [];
    service.onDidChangeSnapshot(
      ({ snapshot, failure }) => void changes.push({ items: snapshot.items.length, failure }),
    );
    const indexAll = InHostIndex.prototype.indexAll;
    let reason = "EACCES: permission denied, scandir '/ws/.codewhale/\u202e[x](command:evil)'";
    InHostIndex.prototype.indexAll = async () => {
      throw new Error(reason);
    };
    try {
      // The worker dies on the full index, and the in-host run that replaces it fails too.
      dieFromStart = 'indexAll';
      const shown = await service.refreshAll();
      assert.equal(threads.length, 1);
      assert.equal(shown.items.length, 0);
      assert.deepEqual(changes, [{ items: 0, failure: reason }], 'the empty snapshot says why it is empty');
      assert.equal(vscodeStandIn.shown.length, 1);
      assert.match(vscodeStandIn.shown[0] as string, /^Skillgate could not index the workspace: EACCES/);
      assert.doesNotMatch(vscodeStandIn.shown[0] as string, /last complete index/, 'there is none');
      assert.doesNotMatch(vscodeStandIn.shown[0] as string, /\]\(command:/, 'the reason is escaped as a notification');
      // A retry that fails again says so with its own reason.
      reason = 'EIO: i/o error';
      await service.refreshAll();
      assert.deepEqual(changes.at(-1), { items: 0, failure: reason });
      // A retry that succeeds shows the bundles, and the failure is gone.
      InHostIndex.prototype.indexAll = indexAll;
      const indexed = await service.refreshAll();
      assert.ok(indexed.items.length > 0);
      assert.deepEqual(changes.at(-1), { items: indexed.items.length, failure: undefined });
      // A later failure keeps the last complete index on screen, as before.
      InHostIndex.prototype.indexAll = async () => {
        throw new Error('EIO again');
      };
      vscodeStandIn.shown.length = 0;
      assert.equal(await service.refreshAll(), indexed);
      assert.equal(changes.length, 3, 'nothing published over the complete index');
      assert.match(vscodeStandIn.shown[0] as string, /The view shows the last complete index/);
    } finally {
      InHostIndex.prototype.indexAll = indexAll;
      service.dispose();
    }
  });

  it('after a full index fails, shows what the watchers report on the last complete index: nothing is held for a run that never ends', async () => {
    const service = new SkillgateService(log);
    const indexAll = InHostIndex.prototype.indexAll;
    const manifest = path.join(root, '.codewhale/plugins/plugin-00002/plugin.json');
    const before = fs.readFileSync(manifest);
    try {
      const first = await service.refreshAll();
      const id = first.items.find((i) => i.kind === 'plugin' && i.location.file === manifest)?.id;
      assert.ok(id, 'the plugin is indexed');
      assert.notEqual(first.items.find((i) => i.id === id)?.decision, 'rejected');
      // "Skillgate: Refresh" fails: its worker dies, and the in-host run that replaces it throws.
      dieFromStart = 'indexAll';
      InHostIndex.prototype.indexAll = async () => {
        throw new Error('EIO: i/o error');
      };
      assert.equal(await service.refreshAll(), first, 'the last complete index stays on screen');
      InHostIndex.prototype.indexAll = indexAll;
      // Then a manifest breaks, and a watcher says so.
      fs.writeFileSync(manifest, '{ not json');
      for (const w of watchers) w.changed({ fsPath: manifest });
      const shown = () => service.snapshot?.items.find((i) => i.id === id)?.decision;
      const deadline = Date.now() + 5000;
      while (shown() !== 'rejected' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(shown(), 'rejected', 'the broken manifest is shown, not held for the failed run');
    } finally {
      InHostIndex.prototype.indexAll = indexAll;
      fs.writeFileSync(manifest, before);
      service.dispose();
    }
  });

  it("ends a full index that a newer one overtook, and publishes only the newest run's snapshot", async () => {
    const service = new SkillgateService(log);
    const published: Snapshot[] = [];
    service.onDidChangeSnapshot(({ snapshot }) => void published.push(snapshot));
    try {
      // The first index reads in its worker (its answer held back) when "Skillgate: Refresh" comes.
      holdFromStart = ['indexAll'];
      const older = service.refreshAll();
      await until(() => (threads[0]?.held() ?? 0) > 0);
      const w1 = threads[0] as TestThread;
      holdFromStart = [];
      const newer = service.refreshAll();
      await until(() => threads.length === 2);
      await until(() => (threads[1] as TestThread).sent.includes('indexAll'));
      assert.ok(w1.terminated, "the overtaken run's worker ended once the newer run began");
      const shown = await newer;
      w1.release();
      assert.ok(await settles(older), 'the overtaken run settles');
      assert.equal(await older, shown, "the overtaken run resolves to the newest run's snapshot");
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(
        published.map((s) => s.items.length),
        [shown.items.length],
        'only the newest run published (no empty snapshot for the overtaken one)',
      );
      assert.equal(threads.length, 2, 'no other worker started');
      assert.deepEqual(vscodeStandIn.shown, []);
    } finally {
      service.dispose();
    }
  });

  it('stops reading in the extension host for a full index that a newer one overtook', async () => {
    process.env.SKILLGATE_INDEX_IN_HOST = '1';
    const runs: string[] = [];
    const service = new SkillgateService({ ...log, info: (m: string) => void runs.push(m) });
    const published: Snapshot[] = [];
    service.onDidChangeSnapshot(({ snapshot }) => void published.push(snapshot));
    try {
      // A settings change and a refresh at once: the first run is reading when the second begins.
      const older = service.refreshAll();
      const newer = service.refreshAll();
      const shown = await newer;
      assert.equal(await older, shown);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(runs.filter((m) => m.startsWith('full index:')).length, 1, runs.join('\n'));
      assert.deepEqual(
        published.map((s) => s.items.length),
        [shown.items.length],
      );
      assert.deepEqual(vscodeStandIn.shown, []);
    } finally {
      service.dispose();
    }
  });

  it("shows a revoke made while a full index runs on that index's result, even when the store watcher stays silent", async () => {
    const service = new SkillgateService(log);
    try {
      const first = await service.refreshAll();
      const plugin = pluginOf(first);
      const reviewed = service.review(plugin);
      assert.ok(reviewed.ok);
      const token = reviewed.value.reviewToken;
      assert.ok(token);
      assert.ok((await service.trust(plugin, token, async () => true)).ok);
      assert.equal(service.snapshot?.items.find((i) => i.id === plugin.id)?.trust, 'trusted');
      // A full index composes its snapshot (the plugin trusted), then the user revokes before it arrives.
      holdFromStart = ['indexAll'];
      const running = service.refreshAll();
      await until(() => threads.length === 2);
      const w2 = threads[1] as TestThread;
      await until(() => w2.held() > 0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.ok((await service.revoke(plugin)).ok);
      assert.notEqual(service.snapshot?.items.find((i) => i.id === plugin.id)?.trust, 'trusted');
      w2.release();
      w2.hold.clear();
      await running;
      assert.notEqual(
        service.snapshot?.items.find((i) => i.id === plugin.id)?.trust,
        'trusted',
        'the revoked plugin is shown trusted',
      );
    } finally {
      service.dispose();
    }
  });
});
