import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadWithVscode, standInFileSystemWatchers, vscodeStandIn, type StandInWatcher } from './vscodeStandIn';

import type { Snapshot } from '../../../src/core/index/snapshot';

type Service = typeof import('../../../src/extension/skillgateService');

/** A Codewhale bundle `name` in `pluginsDir`: a plugin.json and one skill whose body is `body`. Its directory. */
export function writeBundle(pluginsDir: string, name: string, body: string): string {
  const b = path.join(pluginsDir, name);
  fs.mkdirSync(path.join(b, 'skills/s'), { recursive: true });
  fs.writeFileSync(
    path.join(b, 'plugin.json'),
    JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/plugin.json', name, version: '1.0.0' }),
  );
  fs.writeFileSync(path.join(b, 'skills/s/SKILL.md'), `---\nname: s\n---\n${body}\n`);
  return b;
}

/** The content hash the snapshot shows for the top-level bundle `name`. */
export function bundleHash(snapshot: Snapshot | undefined, name: string): string | null | undefined {
  return snapshot?.items.find((i) => i.parent === null && i.name === name)?.contentHash;
}

export interface WatchedWorkspace {
  readonly SkillgateService: Service['SkillgateService'];
  /** A fresh directory per test; the workspace folder is `ws` inside it. */
  readonly dir: string;
  readonly ws: string;
  /** Every file watcher the service made in this test, for `reportAsWorkbench`. */
  readonly watchers: StandInWatcher[];
  /** What the service logged at info, warn and error in this test, a message a line. */
  readonly lines: string[];
  readonly log: { debug: () => void; info: (m: string) => void; warn: (m: string) => void; error: (m: string) => void };
  /** Waits, polling, until `condition` holds. */
  until(condition: () => boolean, what: string, ms?: number): Promise<void>;
}

/**
 * The extension's index service over one workspace folder in the stand-in workbench, for a
 * suite that tests what the service watches: the index in the host, no user bundles, and no
 * steady re-check, so that only a watcher's report can show an edit. Registers the suite's
 * hooks (call it inside `describe`); each test gets a fresh folder, removed after it.
 */
export function watchedWorkspace(prefix: string, options: { createFolder?: boolean } = {}): WatchedWorkspace {
  const { SkillgateService } = loadWithVscode(() => require('../../../src/extension/skillgateService') as Service);
  const createWatcher = vscodeStandIn.api.workspace.createFileSystemWatcher;
  const inHost = process.env.SKILLGATE_INDEX_IN_HOST;
  let dir = '';
  let ws = '';
  let watchers: StandInWatcher[] = [];
  const lines: string[] = [];

  before(() => {
    process.env.SKILLGATE_INDEX_IN_HOST = '1';
    standInFileSystemWatchers((w) => watchers.push(w));
  });

  beforeEach(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
    ws = path.join(dir, 'ws');
    // A suite of directories created while the window is open starts with no folder on disk.
    if (options.createFolder !== false) fs.mkdirSync(ws);
    watchers = [];
    lines.length = 0;
    vscodeStandIn.reset();
    vscodeStandIn.api.workspace.workspaceFolders = [{ uri: { scheme: 'file', fsPath: ws } }];
    vscodeStandIn.settings.set('skillgate.stateDirectory', { globalValue: path.join(dir, 'state') });
    vscodeStandIn.settings.set('skillgate.includeUserBundles', { globalValue: false });
    vscodeStandIn.settings.set('skillgate.eva.home', { globalValue: path.join(dir, 'home') });
    vscodeStandIn.settings.set('skillgate.recheckIntervalSeconds', { globalValue: 0 });
  });

  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  after(() => {
    vscodeStandIn.api.workspace.createFileSystemWatcher = createWatcher;
    vscodeStandIn.reset();
    if (inHost === undefined) delete process.env.SKILLGATE_INDEX_IN_HOST;
    else process.env.SKILLGATE_INDEX_IN_HOST = inHost;
  });

  return {
    SkillgateService,
    get dir() {
      return dir;
    },
    get ws() {
      return ws;
    },
    get watchers() {
      return watchers;
    },
    lines,
    log: {
      debug: () => undefined,
      info: (m) => void lines.push(m),
      warn: (m) => void lines.push(m),
      error: (m) => void lines.push(m),
    },
    async until(condition, what, ms = 3000) {
      const end = Date.now() + ms;
      while (!condition()) {
        if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}
