import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Snapshot } from '../../src/core/index/snapshot';
import { reportAsWorkbench, vscodeStandIn } from './helpers/vscodeStandIn';
import { bundleHash, watchedWorkspace, writeBundle } from './helpers/watchedWorkspace';
import { CORPUS } from './helpers/evaFixture';
import { RECHECK_MIN_INTERVAL_MS } from '../../src/extension/flows/recheckSchedule';

/**
 * An edit behind a link the agent follows reaches the index at once, not at the next
 * steady re-check (a minute by default): VS Code's watchers follow no link inside a
 * folder, so `<folder>/.codewhale/**` never reports an edit behind `.codewhale -> <target>`,
 * and the service must watch the target itself. The workbench is played by
 * `reportAsWorkbench`, which reports a change only to the watchers VS Code's would.
 */
describe('the watchers of what lies behind a followed link', function () {
  this.timeout(20000);
  const env = watchedWorkspace('skillgate-linked-');
  const { SkillgateService, log, until } = env;

  /** An edit to a skill behind the link, reported as the workbench would: the shown hash follows it. */
  const editIsSeen = async (target: string) => {
    const b = writeBundle(path.join(target, 'plugins'), 'b', 'one');
    const service = new SkillgateService(log);
    try {
      await service.refreshAll();
      const shown = bundleHash(service.snapshot, 'b');
      assert.ok(shown, 'the bundle behind the link is listed');
      const skill = path.join(b, 'skills/s/SKILL.md');
      fs.writeFileSync(skill, '---\nname: s\n---\ntwo\n');
      assert.ok(reportAsWorkbench(env.watchers, skill) > 0, 'a watcher covers the edited file');
      await until(() => bundleHash(service.snapshot, 'b') !== shown, 'the edit is shown');
    } finally {
      service.dispose();
    }
  };

  it('reports an edit in a bundle behind a .codewhale linked out of the folder', async () => {
    fs.mkdirSync(path.join(env.dir, 'shared'));
    fs.symlinkSync(path.join(env.dir, 'shared'), path.join(env.ws, '.codewhale'));
    await editIsSeen(path.join(env.dir, 'shared'));
  });

  it('reports an edit in a bundle behind a .codewhale linked to another directory of the folder', async () => {
    fs.mkdirSync(path.join(env.ws, 'tools/cw'), { recursive: true });
    fs.symlinkSync('tools/cw', path.join(env.ws, '.codewhale'));
    await editIsSeen(path.join(env.ws, 'tools/cw'));
  });

  it('lists a bundle cloned behind the link after the window opened, before plugins/ existed there', async () => {
    const shared = path.join(env.dir, 'shared');
    fs.mkdirSync(shared);
    fs.symlinkSync(shared, path.join(env.ws, '.codewhale'));
    const service = new SkillgateService(log);
    try {
      await service.refreshAll();
      assert.equal(bundleHash(service.snapshot, 'late'), undefined);
      const b = writeBundle(path.join(shared, 'plugins'), 'late', 'one');
      // Made in one burst (`git clone` into it): the target's watcher reports `plugins` appearing.
      assert.ok(reportAsWorkbench(env.watchers, path.join(shared, 'plugins')) > 0, 'a watcher covers plugins/');
      await until(() => bundleHash(service.snapshot, 'late') !== undefined, 'the new bundle is listed');
      // And its tree is watched from then on.
      const shown = bundleHash(service.snapshot, 'late');
      const skill = path.join(b, 'skills/s/SKILL.md');
      fs.writeFileSync(skill, '---\nname: s\n---\ntwo\n');
      assert.ok(reportAsWorkbench(env.watchers, skill) > 0, 'a watcher covers the edited file');
      await until(() => bundleHash(service.snapshot, 'late') !== shown, 'the edit is shown');
    } finally {
      service.dispose();
    }
  });

  /**
   * How long a change may take to show when it is seen at once: less than the first re-check after the
   * full index (flows/recheckSchedule.ts), which reads everything again and would show it anyway.
   */
  const AT_ONCE_MS = RECHECK_MIN_INTERVAL_MS / 2;

  /** `ln -sfn target link`: a new link renamed over the old one, one change of the link's own entry. */
  const leadElsewhere = (link: string, target: string) => {
    fs.symlinkSync(target, `${link}.new`);
    fs.renameSync(`${link}.new`, link);
  };

  it("re-reads the user bundles at once when Codewhale's home is led elsewhere, and watches where it leads now", async () => {
    // `~/.codewhale -> a` led to `b`: the watchers based at the home still watch `a` (VS Code resolved
    // the link when it made them), where nothing changed; only the home's own entry in its folder did.
    const home = path.join(env.dir, 'cw');
    writeBundle(path.join(env.dir, 'a/plugins'), 'ua', 'one');
    const ub = writeBundle(path.join(env.dir, 'b/plugins'), 'ub', 'one');
    fs.symlinkSync(path.join(env.dir, 'a'), home);
    vscodeStandIn.settings.set('skillgate.includeUserBundles', { globalValue: true });
    vscodeStandIn.settings.set('skillgate.codewhaleHome', { globalValue: home });
    const service = new SkillgateService(log);
    try {
      await service.refreshAll();
      assert.ok(bundleHash(service.snapshot, 'ua'), "the home's bundle is listed");
      assert.equal(bundleHash(service.snapshot, 'ub'), undefined);
      leadElsewhere(home, path.join(env.dir, 'b'));
      assert.ok(reportAsWorkbench(env.watchers, home) > 0, 'a watcher covers the home itself');
      const shows = (name: string) => bundleHash(service.snapshot, name) !== undefined;
      await until(
        () => shows('ub') && !shows('ua'),
        'the bundles of the new target are listed, and only they',
        AT_ONCE_MS,
      );
      // And the new target's tree is watched from then on.
      const shown = bundleHash(service.snapshot, 'ub');
      const skill = path.join(ub, 'skills/s/SKILL.md');
      fs.writeFileSync(skill, '---\nname: s\n---\ntwo\n');
      assert.ok(reportAsWorkbench(env.watchers, skill) > 0, 'a watcher covers the new target');
      await until(() => bundleHash(service.snapshot, 'ub') !== shown, 'the edit is shown');
    } finally {
      service.dispose();
    }
  });

  it('lists a bundle made behind a .codewhale that led nowhere when the window opened, nothing else leading there', async () => {
    // `.codewhale -> ../data/cw`, neither `data` nor `cw` there yet: each is made later, one at a time.
    fs.symlinkSync('../data/cw', path.join(env.ws, '.codewhale'));
    const data = path.join(env.dir, 'data');
    const service = new SkillgateService(log);
    try {
      await service.refreshAll();
      assert.equal(bundleHash(service.snapshot, 'late'), undefined);
      fs.mkdirSync(data);
      assert.ok(reportAsWorkbench(env.watchers, data) > 0, 'a watcher covers the first missing directory on the way');
      // Once `data` is reported, the next missing one on the way is watched.
      const cw = path.join(data, 'cw');
      // Asked without a report: the workbench reports nothing where nothing changed.
      const silently = () => env.watchers.map((w) => ({ ...w, changed: () => undefined }));
      await until(() => reportAsWorkbench(silently(), cw) > 0, 'cw is watched', AT_ONCE_MS);
      // Made in one burst (`git clone` into it): the watcher of `data` reports `cw` appearing.
      const b = writeBundle(path.join(cw, 'plugins'), 'late', 'one');
      assert.ok(reportAsWorkbench(env.watchers, cw) > 0, 'a watcher covers cw');
      await until(() => bundleHash(service.snapshot, 'late') !== undefined, 'the new bundle is listed', AT_ONCE_MS);
      // And its tree is watched from then on.
      const shown = bundleHash(service.snapshot, 'late');
      const skill = path.join(b, 'skills/s/SKILL.md');
      fs.writeFileSync(skill, '---\nname: s\n---\ntwo\n');
      assert.ok(reportAsWorkbench(env.watchers, skill) > 0, 'a watcher covers the edited file');
      await until(() => bundleHash(service.snapshot, 'late') !== shown, 'the edit is shown');
    } finally {
      service.dispose();
    }
  });

  /**
   * An edit behind a linked `.rivumi`, reported as the workbench would: the shown hash follows
   * it. The plugin's manifest, and, when the target is in the folder, a skill file it names
   * (one out of the folder Rivumi refuses: the path must stay inside the repository, rivumi.md §5.3).
   */
  const rivumiEditIsSeen = async (target: string, withSkill: boolean) => {
    fs.mkdirSync(path.join(target, 'plugins'), { recursive: true });
    const manifest = path.join(target, 'plugins/pk.json');
    const skill = path.join(target, 'plugins/a.md');
    fs.writeFileSync(manifest, JSON.stringify(withSkill ? { skills: [{ path: 'a.md' }] } : {}));
    fs.writeFileSync(skill, '---\nname: a\n---\none\n');
    const service = new SkillgateService(log);
    try {
      await service.refreshAll();
      const edit = async (file: string, text: string) => {
        const shown = bundleHash(service.snapshot, 'pk');
        assert.ok(shown, 'the plugin behind the link is listed');
        fs.writeFileSync(file, text);
        assert.ok(reportAsWorkbench(env.watchers, file) > 0, `a watcher covers ${path.basename(file)}`);
        await until(() => bundleHash(service.snapshot, 'pk') !== shown, `the edit to ${path.basename(file)} is shown`);
      };
      await edit(
        manifest,
        JSON.stringify({ description: 'edited', ...(withSkill ? { skills: [{ path: 'a.md' }] } : {}) }),
      );
      if (withSkill) await edit(skill, '---\nname: a\n---\ntwo\n');
    } finally {
      service.dispose();
    }
  };

  it('reports an edit to a plugin behind a .rivumi linked out of the folder', async () => {
    fs.mkdirSync(path.join(env.dir, 'shared'));
    fs.symlinkSync(path.join(env.dir, 'shared'), path.join(env.ws, '.rivumi'));
    await rivumiEditIsSeen(path.join(env.dir, 'shared'), false);
  });

  it('reports an edit to a plugin and its skill behind a .rivumi linked to another directory of the folder', async () => {
    fs.mkdirSync(path.join(env.ws, 'tools/rv'), { recursive: true });
    fs.symlinkSync('tools/rv', path.join(env.ws, '.rivumi'));
    await rivumiEditIsSeen(path.join(env.ws, 'tools/rv'), true);
  });

  it('reports an edit to the file a linked config/eva.yaml leads to (already watched by its real path)', async () => {
    fs.mkdirSync(path.join(env.ws, 'eva'));
    fs.mkdirSync(path.join(env.ws, 'config/adapters'), { recursive: true });
    const main = path.join(env.ws, 'eva/main.yaml');
    fs.writeFileSync(main, fs.readFileSync(path.join(CORPUS, 'config/eva.yaml')));
    fs.symlinkSync('../eva/main.yaml', path.join(env.ws, 'config/eva.yaml'));
    const invalid = (s: Snapshot | undefined) =>
      (s?.diagnostics ?? []).some((d) => d.code === 'eva.project.config-invalid' && d.file.endsWith('eva.yaml'));
    const service = new SkillgateService(log);
    try {
      await service.refreshAll();
      assert.equal(invalid(service.snapshot), false);
      fs.writeFileSync(main, 'runtime: [\n');
      assert.ok(reportAsWorkbench(env.watchers, main) > 0, 'a watcher covers the link’s target');
      await until(() => invalid(service.snapshot), 'the broken entry file is shown');
    } finally {
      service.dispose();
    }
  });
});
