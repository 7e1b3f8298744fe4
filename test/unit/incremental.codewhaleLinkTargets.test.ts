import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { Indexer, type IndexOptions } from '../../src/core/index/indexer';
import { envelope } from '../../src/core/report/contract';
import { jsonText } from '../../src/core/report/jsonText';
import { Fixture, LINUX_HOST } from './helpers/fixture';

/**
 * A Codewhale discovery root behind a link that changes while the window is open: Codewhale's
 * home led elsewhere (`ln -sfn b ~/.codewhale`), and a link that leads nowhere yet
 * (`ws/.codewhale -> ../data/cw`, `data/cw` made later, nothing else leading there). VS Code
 * resolves a watcher's base when it makes the watcher (parcelWatcher.ts `normalizePath`) and
 * follows no link below it, so neither change happens under any watcher of the roots: the index
 * names what does change (the home's own entry; the first missing entry on the link's way), a
 * report of it re-reads the root as a fresh index reads it, and the watchers named from then on
 * follow where the link leads now. extension.linkedWatchers.test.ts plays the same through the
 * editor's watchers.
 */

const manifest = (name: string, version = '1.0.0') =>
  `schema_version = 1\n[plugin]\nname = "${name}"\nversion = "${version}"\n`;
const listed = (snapshot: Parameters<typeof envelope>[0]) => jsonText(envelope(snapshot));

describe('incremental indexing of Codewhale roots behind links led elsewhere, or leading nowhere yet', () => {
  let f: Fixture;
  beforeEach(() => {
    f = new Fixture();
    f.mkdir('ws');
  });
  afterEach(() => f.remove());

  const options = (codewhaleHome: string | null): IndexOptions => ({
    workspaces: [f.path('ws')],
    codewhaleHome,
    evaHome: null,
    host: LINUX_HOST,
  });
  /** The refreshed index against a fresh one over the same disk. */
  const asFresh = (ix: Indexer, reported: string[], home: string | null) => {
    const after = listed(ix.refresh(reported));
    assert.equal(after, listed(new Indexer(options(home)).indexAll()), 'the refreshed index is a fresh one');
    return after;
  };
  const userTree = (ix: Indexer) => ix.watchedTrees().filter((t) => t.pattern === 'plugins/**');

  it("watches Codewhale's home itself: led elsewhere, a report of it re-reads the user root, watched where it leads now", () => {
    // The same bundle directory name in both targets: it must be read again, never kept from `a`.
    f.write('a/plugins/x/plugin.toml', manifest('ua'));
    f.write('b/plugins/x/plugin.toml', manifest('ub', '2.0.0'));
    f.symlink(f.path('a'), 'cw');
    const home = f.path('cw');
    const ix = new Indexer(options(home));
    assert.match(listed(ix.indexAll()), /"ua"/);
    // Its own entry, in its folder: a watch of that folder's entries, not of its tree (workspaceWatcher.ts `watch`).
    assert.ok(ix.watchedPaths().includes(home), JSON.stringify(ix.watchedPaths()));
    // Its tree from where the home leads: a watcher based at the link would stay at `a` once it leads to `b`.
    assert.deepEqual(userTree(ix), [{ base: f.path('a'), pattern: 'plugins/**' }]);
    // `ln -sfn b cw`.
    f.symlink(f.path('b'), 'cw.new');
    fs.renameSync(f.path('cw.new'), home);
    const after = asFresh(ix, [home], home);
    assert.match(after, /"ub"/);
    assert.doesNotMatch(after, /"ua"/);
    assert.deepEqual(userTree(ix), [{ base: f.path('b'), pattern: 'plugins/**' }]);
  });

  it("watches the user tree from Codewhale's home as given when it is no link, or leads nowhere", () => {
    f.write('home/plugins/x/plugin.toml', manifest('u'));
    const ix = new Indexer(options(f.path('home')));
    ix.indexAll();
    assert.deepEqual(userTree(ix), [{ base: f.path('home'), pattern: 'plugins/**' }]);
    f.symlink(f.path('nowhere'), 'cw');
    const dangling = new Indexer(options(f.path('cw')));
    dangling.indexAll();
    assert.deepEqual(userTree(dangling), [{ base: f.path('cw'), pattern: 'plugins/**' }]);
  });

  /** A root behind a link to `data/cw`, which does not exist yet; nothing else leads there. */
  const LINKS: readonly { name: string; make: () => void; home: () => string | null }[] = [
    {
      name: 'the workspace’s .codewhale (ws/.codewhale -> ../data/cw)',
      make: () => f.symlink('../data/cw', 'ws/.codewhale'),
      home: () => null,
    },
    {
      name: 'the workspace’s .codewhale through a second link (ws/.codewhale -> ../via, via -> data/cw)',
      make: () => {
        f.symlink('../via', 'ws/.codewhale');
        f.symlink('data/cw', 'via');
      },
      home: () => null,
    },
    {
      name: 'Codewhale’s home (cw -> data/cw)',
      make: () => f.symlink('data/cw', 'cw'),
      home: () => f.path('cw'),
    },
  ];

  for (const link of LINKS)
    it(`${link.name}: the first missing entry on the way is watched, and its report lists the root as a fresh index does`, () => {
      link.make();
      const home = link.home();
      const ix = new Indexer(options(home));
      const before = listed(ix.indexAll());
      // `data` made first, alone: `cw` is the entry missing now.
      assert.ok(ix.watchedPaths().includes(f.path('data')), JSON.stringify(ix.watchedPaths()));
      f.mkdir('data');
      asFresh(ix, [f.path('data')], home);
      assert.ok(ix.watchedPaths().includes(f.path('data/cw')), JSON.stringify(ix.watchedPaths()));
      assert.ok(!ix.watchedPaths().includes(f.path('data')), 'no longer missing, no longer awaited');
      // Then `cw` with a bundle in it, in one burst: its appearing is what the watcher of `data` reports.
      f.write('data/cw/plugins/x/plugin.toml', manifest('late'));
      const after = asFresh(ix, [f.path('data/cw')], home);
      assert.notEqual(after, before);
      assert.match(after, /"late"/);
      // Resolved: awaited no more, and watched now as where the link leads (an empty target removed and made again).
      assert.ok(!ix.watchedPaths().includes(f.path('data')), 'resolved, awaited no more');
      assert.ok(ix.watchedPaths().includes(f.path('data/cw')), 'where the link leads, watched by its name');
    });

  it('awaits a file where the way needs a directory: replaced by one, the root is listed as a fresh index lists it', () => {
    f.write('data', 'not a directory');
    f.symlink('../data/cw', 'ws/.codewhale');
    const ix = new Indexer(options(null));
    ix.indexAll();
    assert.ok(ix.watchedPaths().includes(f.path('data')), JSON.stringify(ix.watchedPaths()));
    fs.rmSync(f.path('data'));
    f.write('data/cw/plugins/x/plugin.toml', manifest('late'));
    assert.match(asFresh(ix, [f.path('data')], null), /"late"/);
  });

  // Changed on purpose: the links on a way are watched too (linkWay.ts), a loop's among them, as one led
  // elsewhere may lead somewhere; before, nothing on a loop was, and a loop undone waited for the re-check.
  it('awaits nothing behind a link that loops, or one that resolves, and watches the links on their ways', () => {
    f.symlink('.codewhale', 'ws/.codewhale');
    f.mkdir('ws2/.codewhale/plugins');
    f.symlink('../ws2/.codewhale', 'ws3/.codewhale');
    f.symlink('b', 'a');
    f.symlink('a', 'b');
    f.symlink('a', 'cw');
    const ix = new Indexer({ ...options(f.path('cw')), workspaces: ['ws', 'ws2', 'ws3'].map((w) => f.path(w)) });
    ix.indexAll();
    assert.deepEqual(ix.watchedPaths().sort(), [
      // The home's loop, each link on it.
      f.path('a'),
      f.path('b'),
      f.path('cw'),
      f.path('cw/plugins'),
      f.path('ws/.codewhale'),
      f.path('ws/.codewhale/plugins'),
      // Where ws3's `.codewhale` leads, watched by its name; awaited, nothing.
      f.path('ws2/.codewhale'),
      f.path('ws2/.codewhale/plugins'),
      f.path('ws3/.codewhale'),
      f.path('ws3/.codewhale/plugins'),
    ]);
  });
});
