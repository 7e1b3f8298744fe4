import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Snapshot } from '../../src/core/index/snapshot';
import {
  loadWithVscode,
  reportAsWorkbench,
  standInFileSystemWatchers,
  vscodeStandIn,
  type StandInWatcher,
} from './helpers/vscodeStandIn';
import { CORPUS } from './helpers/evaFixture';

type Service = typeof import('../../src/extension/skillgateService');

/**
 * An edit behind a link the agent follows reaches the index at once, not at the next
 * steady re-check (a minute by default): VS Code's watchers follow no link inside a
 * folder, so `<folder>/.codewhale/**` never reports an edit behind `.codewhale -> <target>`,
 * and the service must watch the target itself. The workbench is played by
 * `reportAsWorkbench`, which reports a change only to the watchers VS Code's would.
 */
describe('the watchers of what lies behind a followed link', function () {
  this.timeout(20000);
  const { SkillgateService } = loadWithVscode(() => require('../../src/extension/skillgateService') as Service);
  const createWatcher = vscodeStandIn.api.workspace.createFileSystemWatcher;
  const inHost = process.env.SKILLGATE_INDEX_IN_HOST;
  let dir: string;
  let ws: string;
  let watchers: StandInWatcher[];
  const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

  before(() => {
    process.env.SKILLGATE_INDEX_IN_HOST = '1';
    standInFileSystemWatchers((w) => watchers.push(w));
  });

  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-linked-')));
    ws = path.join(dir, 'ws');
    fs.mkdirSync(ws);
    watchers = [];
    vscodeStandIn.reset();
    vscodeStandIn.api.workspace.workspaceFolders = [{ uri: { scheme: 'file', fsPath: ws } }];
    vscodeStandIn.settings.set('skillgate.stateDirectory', { globalValue: path.join(dir, 'state') });
    vscodeStandIn.settings.set('skillgate.includeUserBundles', { globalValue: false });
    vscodeStandIn.settings.set('skillgate.eva.home', { globalValue: path.join(dir, 'home') });
    // No re-check: only a watcher's report can show the edit.
    vscodeStandIn.settings.set('skillgate.recheckIntervalSeconds', { globalValue: 0 });
  });

  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  after(() => {
    vscodeStandIn.api.workspace.createFileSystemWatcher = createWatcher;
    vscodeStandIn.reset();
    if (inHost === undefined) delete process.env.SKILLGATE_INDEX_IN_HOST;
    else process.env.SKILLGATE_INDEX_IN_HOST = inHost;
  });

  const until = async (condition: () => boolean, what: string, ms = 3000) => {
    const end = Date.now() + ms;
    while (!condition()) {
      if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  const bundle = (pluginsDir: string, name: string, body: string) => {
    const b = path.join(pluginsDir, name);
    fs.mkdirSync(path.join(b, 'skills/s'), { recursive: true });
    fs.writeFileSync(
      path.join(b, 'plugin.json'),
      JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/plugin.json', name, version: '1.0.0' }),
    );
    fs.writeFileSync(path.join(b, 'skills/s/SKILL.md'), `---\nname: s\n---\n${body}\n`);
    return b;
  };
  const hashOf = (snapshot: Snapshot | undefined, name: string) =>
    snapshot?.items.find((i) => i.parent === null && i.name === name)?.contentHash;

  /** An edit to a skill behind the link, reported as the workbench would: the shown hash follows it. */
  const editIsSeen = async (target: string) => {
    const b = bundle(path.join(target, 'plugins'), 'b', 'one');
    const service = new SkillgateService(log);
    try {
      await service.refreshAll();
      const shown = hashOf(service.snapshot, 'b');
      assert.ok(shown, 'the bundle behind the link is listed');
      const skill = path.join(b, 'skills/s/SKILL.md');
      fs.writeFileSync(skill, '---\nname: s\n---\ntwo\n');
      assert.ok(reportAsWorkbench(watchers, skill) > 0, 'a watcher covers the edited file');
      await until(() => hashOf(service.snapshot, 'b') !== shown, 'the edit is shown');
    } finally {
      service.dispose();
    }
  };

  it('reports an edit in a bundle behind a .codewhale linked out of the folder', async () => {
    fs.mkdirSync(path.join(dir, 'shared'));
    fs.symlinkSync(path.join(dir, 'shared'), path.join(ws, '.codewhale'));
    await editIsSeen(path.join(dir, 'shared'));
  });

  it('reports an edit in a bundle behind a .codewhale linked to another directory of the folder', async () => {
    fs.mkdirSync(path.join(ws, 'tools/cw'), { recursive: true });
    fs.symlinkSync('tools/cw', path.join(ws, '.codewhale'));
    await editIsSeen(path.join(ws, 'tools/cw'));
  });

  it('lists a bundle cloned behind the link after the window opened, before plugins/ existed there', async () => {
    const shared = path.join(dir, 'shared');
    fs.mkdirSync(shared);
    fs.symlinkSync(shared, path.join(ws, '.codewhale'));
    const service = new SkillgateService(log);
    try {
      await service.refreshAll();
      assert.equal(hashOf(service.snapshot, 'late'), undefined);
      const b = bundle(path.join(shared, 'plugins'), 'late', 'one');
      // Made in one burst (`git clone` into it): the target's watcher reports `plugins` appearing.
      assert.ok(reportAsWorkbench(watchers, path.join(shared, 'plugins')) > 0, 'a watcher covers plugins/');
      await until(() => hashOf(service.snapshot, 'late') !== undefined, 'the new bundle is listed');
      // And its tree is watched from then on.
      const shown = hashOf(service.snapshot, 'late');
      const skill = path.join(b, 'skills/s/SKILL.md');
      fs.writeFileSync(skill, '---\nname: s\n---\ntwo\n');
      assert.ok(reportAsWorkbench(watchers, skill) > 0, 'a watcher covers the edited file');
      await until(() => hashOf(service.snapshot, 'late') !== shown, 'the edit is shown');
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
        const shown = hashOf(service.snapshot, 'pk');
        assert.ok(shown, 'the plugin behind the link is listed');
        fs.writeFileSync(file, text);
        assert.ok(reportAsWorkbench(watchers, file) > 0, `a watcher covers ${path.basename(file)}`);
        await until(() => hashOf(service.snapshot, 'pk') !== shown, `the edit to ${path.basename(file)} is shown`);
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
    fs.mkdirSync(path.join(dir, 'shared'));
    fs.symlinkSync(path.join(dir, 'shared'), path.join(ws, '.rivumi'));
    await rivumiEditIsSeen(path.join(dir, 'shared'), false);
  });

  it('reports an edit to a plugin and its skill behind a .rivumi linked to another directory of the folder', async () => {
    fs.mkdirSync(path.join(ws, 'tools/rv'), { recursive: true });
    fs.symlinkSync('tools/rv', path.join(ws, '.rivumi'));
    await rivumiEditIsSeen(path.join(ws, 'tools/rv'), true);
  });

  it('reports an edit to the file a linked config/eva.yaml leads to (already watched by its real path)', async () => {
    fs.mkdirSync(path.join(ws, 'eva'));
    fs.mkdirSync(path.join(ws, 'config/adapters'), { recursive: true });
    const main = path.join(ws, 'eva/main.yaml');
    fs.writeFileSync(main, fs.readFileSync(path.join(CORPUS, 'config/eva.yaml')));
    fs.symlinkSync('../eva/main.yaml', path.join(ws, 'config/eva.yaml'));
    const invalid = (s: Snapshot | undefined) =>
      (s?.diagnostics ?? []).some((d) => d.code === 'eva.project.config-invalid' && d.file.endsWith('eva.yaml'));
    const service = new SkillgateService(log);
    try {
      await service.refreshAll();
      assert.equal(invalid(service.snapshot), false);
      fs.writeFileSync(main, 'runtime: [\n');
      assert.ok(reportAsWorkbench(watchers, main) > 0, 'a watcher covers the link’s target');
      await until(() => invalid(service.snapshot), 'the broken entry file is shown');
    } finally {
      service.dispose();
    }
  });
});
