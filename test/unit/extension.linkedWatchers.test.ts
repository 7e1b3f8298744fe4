import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Snapshot } from '../../src/core/index/snapshot';
import { reportAsWorkbench } from './helpers/vscodeStandIn';
import { bundleHash, watchedWorkspace, writeBundle } from './helpers/watchedWorkspace';
import { CORPUS } from './helpers/evaFixture';

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
