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

type Service = typeof import('../../src/extension/skillgateService');

/**
 * A file the service watches by its own name is reported when it is edited, whatever the
 * name: VS Code reads a watcher's pattern as a glob (`[`, `]`, `{`, `}`, `*`, `?` are
 * syntax, and whitespace at either end is trimmed), so a hook script named `a[1].sh`
 * watched by that spelling would match `a1.sh`, never itself, and a repository could keep
 * an edited script shown at its reviewed hash until the next re-check. The workbench is
 * played by `reportAsWorkbench`, which matches as VS Code's glob does (helpers/vscodeGlob.ts).
 */
describe('the watcher of a file named with glob characters', function () {
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
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-names-')));
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
  const hooksHash = (snapshot: Snapshot | undefined) =>
    snapshot?.items.find((i) => i.system === 'rivumi' && i.parent === null && i.kind === 'hooks')?.contentHash;

  for (const name of ['a[1].sh', 'x{y}.sh', ']*?.sh', '[!a]-{b,c}.sh', ' lead.sh', 'trail.sh ']) {
    it(`reports an edit to the hook script ${JSON.stringify(name)}`, async () => {
      fs.mkdirSync(path.join(ws, '.rivumi'));
      fs.mkdirSync(path.join(ws, 'scripts'));
      const script = path.join(ws, 'scripts', name);
      fs.writeFileSync(script, 'echo one\n');
      fs.writeFileSync(
        path.join(ws, '.rivumi/hooks.json'),
        JSON.stringify({ pre_tool_use: [{ command: ['sh', `scripts/${name}`] }] }),
      );
      const service = new SkillgateService(log);
      try {
        await service.refreshAll();
        const shown = hooksHash(service.snapshot);
        assert.ok(shown, 'the hooks file is listed');
        fs.writeFileSync(script, 'echo two\n');
        assert.ok(reportAsWorkbench(watchers, script) > 0, 'a watcher covers the edited script');
        await until(() => hooksHash(service.snapshot) !== shown, 'the edit is shown');
      } finally {
        service.dispose();
      }
    });
  }
});
