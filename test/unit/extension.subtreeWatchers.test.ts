import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
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
