import { strict as assert } from 'node:assert';
import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SubtreeWatchers } from '../../src/extension/flows/subtreeWatchers';
import { bundleHash, watchedWorkspace, writeBundle } from './helpers/watchedWorkspace';

/**
 * The watchers the service makes for directories created while the window is open
 * (flows/subtreeWatchers.ts `watchNewDirectories`): the workbench's own watcher misses what
 * happens below such a directory, so theirs are the only reports of an edit there.
 */
describe('the watchers of directories created while the window is open', function () {
  this.timeout(20000);
  const env = watchedWorkspace('skillgate-subtree-', { createFolder: false });
  const { SkillgateService, lines, log } = env;
  const until = (condition: () => boolean, ms = 5000) => env.until(condition, 'the condition holds', ms);
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** A change reported by the workbench's watchers. */
  const report = (p: string) => {
    for (const w of env.watchers) if (!w.disposed) w.changed({ fsPath: p });
  };
  const bundle = (name: string, body: string) => writeBundle(path.join(env.ws, '.codewhale/plugins'), name, body);
  const batches = () => lines.filter((l) => l.startsWith('watcher batch:')).length;

  it('gives no watcher of its own to a created tree larger than any agent reads (an npm install in a bundle)', async () => {
    const service = new SkillgateService(log);
    try {
      await service.refreshAll();
      const b = bundle('big', 'one');
      const modules = path.join(b, 'node_modules/pkg');
      fs.mkdirSync(modules, { recursive: true });
      for (let i = 0; i < 4100; i++) fs.writeFileSync(path.join(modules, `f${i}.js`), '');
      report(b);
      await until(() => lines.some((l) => l.startsWith('not watching below')));
      assert.ok(
        lines.some(
          (l) =>
            l ===
            `not watching below ${b}: it holds more than 4096 entries (the workbench's watcher and the re-checks cover it)`,
        ),
        lines.join('\n'),
      );
      // A small one created beside it is watched as before: an edit below it is reported.
      const small = bundle('small', 'one');
      report(small);
      await until(() => bundleHash(service.snapshot, 'small') !== undefined);
      await sleep(300);
      const before = batches();
      fs.writeFileSync(path.join(small, 'skills/s/SKILL.md'), '---\nname: s\n---\ntwo\n');
      await until(() => batches() > before, 1500).catch(() => undefined);
      assert.ok(batches() > before, 'the edit below the small tree was reported');
    } finally {
      service.dispose();
    }
  });

  it('ends the watcher of a created tree that grows past that size, and never for many edits to a few files', async () => {
    const service = new SkillgateService(log);
    try {
      await service.refreshAll();
      const b = bundle('grows', 'one');
      report(b);
      await until(() => bundleHash(service.snapshot, 'grows') !== undefined);
      await sleep(300);
      // Five thousand edits to one file: one name, the watcher stays.
      for (let i = 0; i < 5000; i++) fs.writeFileSync(path.join(b, 'skills/s/SKILL.md'), `---\nname: s\n---\n${i}\n`);
      await sleep(500);
      assert.ok(!lines.some((l) => l.startsWith('not watching below')), lines.join('\n'));
      // Then an install fills it.
      const modules = path.join(b, 'node_modules/pkg');
      fs.mkdirSync(modules, { recursive: true });
      for (let i = 0; i < 4200; i++) fs.writeFileSync(path.join(modules, `f${i}.js`), '');
      await until(() => lines.some((l) => l.startsWith(`not watching below ${b}:`)), 10000);
    } finally {
      service.dispose();
    }
  });

  it('watches a directory created again at the path of one removed, and reports an edit below it', async () => {
    bundle('a', 'a');
    const service = new SkillgateService(log);
    try {
      await service.refreshAll();
      // A bundle cloned in one burst: the workbench reports its directory only.
      const b = bundle('b', 'one');
      report(b);
      await until(() => bundleHash(service.snapshot, 'b') !== undefined);
      // Removed, and cloned again (`rm -rf`, `git clone`): a new directory at the same path.
      fs.rmSync(b, { recursive: true });
      report(b);
      await until(() => bundleHash(service.snapshot, 'b') === undefined);
      bundle('b', 'two');
      report(b);
      await until(() => bundleHash(service.snapshot, 'b') !== undefined);
      await sleep(300);
      const before = batches();
      const shown = bundleHash(service.snapshot, 'b');
      // An edit below it, which the workbench's watcher misses: only the directory's own watcher reports it.
      fs.writeFileSync(path.join(b, 'skills/s/SKILL.md'), '---\nname: s\n---\nthree\n');
      await until(() => batches() > before, 1500).catch(() => undefined);
      assert.ok(batches() > before, 'the edit below the directory created again was reported');
      await until(() => bundleHash(service.snapshot, 'b') !== shown);
    } finally {
      service.dispose();
    }
  });
});

/**
 * The same watchers on their own (flows/subtreeWatchers.ts), over Node watchers the test
 * stands in for: which directories get one, and when one ends.
 */
describe('the watchers of created directories, one by one', () => {
  const nodeFs = require('node:fs') as typeof fs;
  const realWatch = nodeFs.watch;
  /** A Node watcher the test drives: `change` reports a name below its directory. */
  class StandInWatch extends EventEmitter {
    closed = false;
    constructor(
      readonly dir: string,
      readonly change: (event: string, name: string | null) => void,
    ) {
      super();
    }
    close(): void {
      this.closed = true;
    }
  }
  let dir: string;
  let watches: StandInWatch[];
  let reported: string[];
  let logged: string[];
  let watchers: SubtreeWatchers;
  const log = {
    debug: () => undefined,
    info: (m: string) => void logged.push(m),
    warn: (m: string) => void logged.push(m),
    error: (m: string) => void logged.push(m),
  };
  const made = (...names: string[]) =>
    names.map((n) => {
      fs.mkdirSync(path.join(dir, n), { recursive: true });
      return path.join(dir, n);
    });
  const watched = () => watches.filter((w) => !w.closed).map((w) => path.relative(dir, w.dir));

  before(() => {
    nodeFs.watch = ((p: string, _options: unknown, change: StandInWatch['change']) => {
      const w = new StandInWatch(p, change);
      watches.push(w);
      return w;
    }) as unknown as typeof fs.watch;
  });
  after(() => {
    nodeFs.watch = realWatch;
  });
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-subtree-unit-'));
    watches = [];
    reported = [];
    logged = [];
    watchers = new SubtreeWatchers(log, (changed) => void reported.push(changed));
  });
  afterEach(() => {
    watchers.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('watches at most 256 created directories', () => {
    const dirs = made(...Array.from({ length: 257 }, (_, i) => `d${i}`));
    watchers.watchNewDirectories(dirs);
    assert.equal(watched().length, 256);
    assert.ok(!watched().includes('d256'), 'the 257th directory was watched');
  });

  it('gives a directory below a watched one no watcher of its own, a sibling its own, and a file or a path gone none', () => {
    const [a, below, sibling] = made('a', 'a/b', 'c');
    fs.writeFileSync(path.join(dir, 'f'), '');
    watchers.watchNewDirectories([
      a as string,
      below as string,
      sibling as string,
      path.join(dir, 'f'),
      path.join(dir, 'gone'),
    ]);
    assert.deepEqual(watched(), ['a', 'c']);
  });

  it('reports up to 4096 names below a tree, then ends its watcher and reports nothing more, not even an event on its way', () => {
    const [tree] = made('t') as [string];
    watchers.watchNewDirectories([tree]);
    const w = watches[0] as StandInWatch;
    for (let i = 0; i < 4096; i++) w.change('rename', `f${i}`);
    assert.equal(w.closed, false, 'ended at 4096 names');
    assert.equal(reported.length, 4096);
    w.change('rename', 'one-more');
    w.change('change', 'late');
    assert.equal(w.closed, true);
    assert.equal(reported.length, 4096);
    assert.deepEqual(logged, [
      `not watching below ${tree}: it holds more than 4096 entries (the workbench's watcher and the re-checks cover it)`,
    ]);
  });

  it("ends a watcher that fails, so that the tree can be watched again; an older watcher's failure leaves the newer one", () => {
    const [a, below] = made('a', 'a/b') as [string, string];
    watchers.watchNewDirectories([a]);
    // `a` replaced (reported as itself): its first watcher went, a second one watches it.
    watchers.watchNewDirectories([a]);
    const [first, second] = watches as [StandInWatch, StandInWatch];
    first.emit('error', new Error('EMFILE'));
    watchers.watchNewDirectories([below]);
    assert.deepEqual(watched(), ['a'], 'the failure of the replaced watcher ended the newer one');
    second.emit('error', new Error('ENOSPC'));
    assert.equal(second.closed, true);
    watchers.watchNewDirectories([below]);
    assert.deepEqual(watched(), ['a/b']);
  });

  it('ends every watcher with the service', () => {
    watchers.watchNewDirectories(made('a', 'c'));
    watchers.dispose();
    assert.deepEqual(watched(), []);
  });
});
