import { strict as assert } from 'node:assert';
import { loadWithVscode, vscodeStandIn } from './helpers/vscodeStandIn';
import type { TrustStore } from '../../src/core/trust/trustStore';

type Watchers = typeof import('../../src/extension/workspaceWatcher');

/** A workbench file watcher as VS Code makes it: what it watches, and its three kinds of event. */
interface MadeWatcher {
  readonly base: string;
  readonly pattern: string;
  created?: (uri: { fsPath: string }) => void;
  changed?: (uri: { fsPath: string }) => void;
  deleted?: (uri: { fsPath: string }) => void;
  disposed: boolean;
}

/**
 * The workbench's watchers of one window (workspaceWatcher.ts): what they are asked to
 * watch, and that every file created, changed or deleted there reaches the service in a
 * batch, so that reviewed content that changes loses its trust at once.
 */
describe('the workspace watcher', () => {
  const { WorkspaceWatcher } = loadWithVscode(() => require('../../src/extension/workspaceWatcher') as Watchers);
  const workspace = vscodeStandIn.api.workspace as unknown as Record<string, unknown>;
  const createFileSystemWatcher = workspace.createFileSystemWatcher;
  const STORE = '/state';
  let made: MadeWatcher[];
  /** What happened, in order: `make <pattern>`, `dispose <pattern>`. */
  let events: string[];
  let batches: { paths: string[]; storeChanged: boolean }[];
  let warned: string[];
  let storeFails: Error | undefined;
  let watcher: InstanceType<Watchers['WorkspaceWatcher']>;

  const log = {
    debug: () => undefined,
    info: () => undefined,
    warn: (m: string) => void warned.push(m),
    error: () => undefined,
  };
  const store = {
    dir: STORE,
    ensureDirectory: () => {
      if (storeFails) throw storeFails;
    },
  } as unknown as TrustStore;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** Longer than the batch's quiet period (150 ms). */
  const QUIET = 300;
  const live = () => made.filter((w) => !w.disposed);
  const watched = (w: MadeWatcher) => `${w.base} ${w.pattern}`;
  const one = (pattern: string) => {
    const w = live().find((m) => watched(m) === pattern);
    assert.ok(w, `${pattern} is watched (watched: ${live().map(watched).join(', ')})`);
    return w;
  };

  beforeEach(() => {
    vscodeStandIn.reset();
    [made, events, batches, warned] = [[], [], [], []];
    storeFails = undefined;
    workspace.createFileSystemWatcher = (p: { base: { fsPath: string }; pattern: string }) => {
      const w: MadeWatcher = { base: p.base.fsPath, pattern: p.pattern, disposed: false };
      made.push(w);
      events.push(`make ${watched(w)}`);
      return {
        onDidCreate: (h: MadeWatcher['created']) => void (w.created = h),
        onDidChange: (h: MadeWatcher['changed']) => void (w.changed = h),
        onDidDelete: (h: MadeWatcher['deleted']) => void (w.deleted = h),
        dispose: () => {
          w.disposed = true;
          events.push(`dispose ${watched(w)}`);
        },
      };
    };
    watcher = new WorkspaceWatcher(
      log,
      () => store,
      (paths, storeChanged) => void batches.push({ paths, storeChanged }),
    );
  });
  afterEach(() => watcher.dispose());
  after(() => {
    workspace.createFileSystemWatcher = createFileSystemWatcher;
    vscodeStandIn.reset();
  });

  it("watches each folder's agent roots, the trees and the files the agents name outside them, and the trust store", () => {
    watcher.watch(['/ws', '/lib'], {
      paths: ['/ws/.rivumi/hooks/covered.sh', '/ws/.rivumi-hooks/a[1].sh', '/home/u/x.sh'],
      trees: [
        { base: '/home/u/.eva', pattern: 'skills/**' },
        { base: '/home/u/.codewhale', pattern: '**' },
      ],
    });
    assert.deepEqual(live().map(watched).sort(), [
      '/home/u x.sh',
      '/home/u/.codewhale **/*',
      '/home/u/.eva skills/**',
      '/lib .codewhale/**',
      '/lib .rivumi/**',
      `${STORE} state.json`,
      '/ws .codewhale/**',
      '/ws .rivumi/**',
      '/ws/.rivumi-hooks a[[]1[]].sh',
    ]);
    assert.deepEqual(warned, []);
  });

  it('hands over a file created, changed or deleted under any watcher in one batch once the changes go quiet', async () => {
    watcher.watch(['/ws'], { paths: ['/ws/scripts/run.sh'], trees: [{ base: '/u', pattern: 'skills/**' }] });
    one('/ws .codewhale/**').created?.({ fsPath: '/ws/.codewhale/plugins/new/plugin.json' });
    one('/ws .rivumi/**').changed?.({ fsPath: '/ws/.rivumi/hooks.json' });
    one('/u skills/**').deleted?.({ fsPath: '/u/skills/s/SKILL.md' });
    one('/ws/scripts run.sh').changed?.({ fsPath: '/ws/scripts/run.sh' });
    assert.deepEqual(batches, [], 'not before the changes go quiet');
    await sleep(QUIET);
    assert.deepEqual(batches, [
      {
        paths: [
          '/ws/.codewhale/plugins/new/plugin.json',
          '/ws/.rivumi/hooks.json',
          '/u/skills/s/SKILL.md',
          '/ws/scripts/run.sh',
        ],
        storeChanged: false,
      },
    ]);
  });

  it("reports the trust store's file created, changed or deleted as a store change, not as a path", async () => {
    watcher.watch(['/ws'], { paths: [], trees: [] });
    const state = one(`${STORE} state.json`);
    for (const event of [state.created, state.changed, state.deleted]) {
      batches = [];
      event?.({ fsPath: `${STORE}/state.json` });
      await sleep(QUIET);
      assert.deepEqual(batches, [{ paths: [], storeChanged: true }]);
    }
  });

  it('says why the store directory cannot be made, and watches its file all the same', () => {
    storeFails = new Error('EACCES: permission denied');
    watcher.watch(['/ws'], { paths: [], trees: [] });
    assert.deepEqual(warned, [`trust store directory ${STORE} cannot be created: EACCES: permission denied`]);
    one(`${STORE} state.json`);
  });

  it('makes the new watchers before the old ones go, over the same folders when watching again', () => {
    watcher.watch(['/ws'], { paths: ['/a/x.sh'], trees: [] });
    const first = live();
    events = [];
    watcher.watchAgain({ paths: ['/b/y.sh'], trees: [] });
    assert.ok(
      first.every((w) => w.disposed),
      'the old watchers went',
    );
    assert.deepEqual(live().map(watched).sort(), [
      '/b y.sh',
      `${STORE} state.json`,
      '/ws .codewhale/**',
      '/ws .rivumi/**',
    ]);
    const lastMade = events.map((e) => e.startsWith('make ')).lastIndexOf(true);
    const firstDisposed = events.findIndex((e) => e.startsWith('dispose '));
    assert.ok(lastMade < firstDisposed, events.join('\n'));
  });

  it('watches again only when the latest result names a path or a tree the watchers do not cover', () => {
    watcher.watch(['/ws'], { paths: ['/a/x.sh'], trees: [{ base: '/u', pattern: 'skills/**' }] });
    const count = made.length;
    watcher.watchWhatItNames({ paths: ['/a/x.sh'], trees: [{ base: '/u', pattern: 'skills/**' }] });
    assert.equal(made.length, count, 'the same paths and trees: the same watchers');
    for (const names of [
      { paths: ['/a/x.sh', '/a/y.sh'], trees: [{ base: '/u', pattern: 'skills/**' }] },
      { paths: ['/a/x.sh', '/a/y.sh'], trees: [{ base: '/u', pattern: 'agents/**' }] },
      { paths: ['/a/x.sh', '/a/y.sh'], trees: [{ base: '/v', pattern: 'agents/**' }] },
      // Another tree, though base and pattern spell the same characters run together.
      { paths: ['/a/x.sh', '/a/y.sh'], trees: [{ base: '/v/a', pattern: 'bc/**' }] },
      { paths: ['/a/x.sh', '/a/y.sh'], trees: [{ base: '/v/ab', pattern: 'c/**' }] },
      { paths: ['/a/x.sh', '/a/y.sh'], trees: [] },
    ]) {
      watcher.watchWhatItNames(names);
      assert.deepEqual(
        live()
          .map(watched)
          .filter((w) => w.startsWith('/a ') || w.startsWith('/u ') || w.startsWith('/v')),
        [...names.trees.map((t) => `${t.base} ${t.pattern}`), '/a x.sh', '/a y.sh'],
        JSON.stringify(names),
      );
      one('/ws .rivumi/**');
    }
  });

  it('drops a pending batch and ends every watcher when disposed, and makes none after', async () => {
    watcher.watch(['/ws'], { paths: [], trees: [] });
    one('/ws .rivumi/**').changed?.({ fsPath: '/ws/.rivumi/hooks.json' });
    watcher.dispose();
    assert.deepEqual(live(), []);
    watcher.watch(['/ws'], { paths: [], trees: [] });
    assert.deepEqual(live(), [], 'no watcher made after dispose');
    await sleep(QUIET);
    assert.deepEqual(batches, []);
  });
});
