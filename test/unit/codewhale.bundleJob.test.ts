import { strict as assert } from 'node:assert';
import {
  announcedRoot,
  faultedBundle,
  runBundleJob,
  type BundleLoader,
} from '../../src/core/systems/codewhale/bundleJob';
import { loadCodewhaleBundle } from '../../src/core/systems/codewhale/bundle';
import { manifestOfRead, resolveManifest } from '../../src/core/systems/codewhale/bundleManifest';
import { readBundleTree, type TreeFailureKind } from '../../src/core/hashing/treeRead';
import type { TreeReadAhead } from '../../src/core/hashing/readAhead';
import { fsPatcher } from './helpers/fsPatch';
import type { CacheSegment } from '../../src/core/cache/parseCacheSegment';
import { Fixture, LINUX_HOST } from './helpers/fixture';

/**
 * One bundle job (codewhale.md §2.3 step 5): the loader gets the job's parse cache when
 * there is one, and a load that throws leaves a bundle that holds nothing but its fault.
 */
describe('Codewhale bundle job: what the loader is given, and what a fault leaves', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());
  const job = () => ({ dir: f.path('plugins/b'), scope: 'user' as const, canonicalDiscoveryRoot: f.path('plugins') });

  it("passes the job's parse cache to the loader, and none when the job has none", () => {
    f.write('plugins/b/plugin.toml', '');
    const seen: unknown[] = [];
    const spy: BundleLoader = (_dir, _label, ctx) => {
      seen.push(ctx.cache);
      throw new Error('stop');
    };
    const cache = { marker: 'segment' } as unknown as CacheSegment;
    runBundleJob({ ...job(), cache }, LINUX_HOST, spy);
    runBundleJob(job(), LINUX_HOST, spy);
    assert.deepEqual(seen, [cache, undefined]);
  });
  it('leaves a faulted bundle no files, directories or skills, and names the bundle in its one error', () => {
    const b = faultedBundle(job(), 'plugin.toml', new Error('boom'));
    assert.deepEqual([b.scope, b.files, b.directories, b.skills, b.anchors, b.valid], ['user', [], [], [], {}, false]);
    assert.equal(
      b.diagnostics[0]?.message,
      'internal error while reading the bundle b: boom; Skillgate treats it as invalid',
    );
  });

  describe('with a read-ahead', () => {
    const fsPatch = fsPatcher();
    /** A read-ahead that reads each root it is asked for now, and records the asks. */
    const readingAhead = () => {
      const asked: string[] = [];
      const ahead: TreeReadAhead = {
        announce: () => undefined,
        take: (root) => (asked.push(root), readBundleTree(root)),
        finish: () => undefined,
      };
      return { ahead, asked };
    };
    /** The bundle as the loader reads it on its own: its stat, lstat and realpath, its manifest, its walk. */
    const loadedByTheLoader = (label: 'plugin.toml' | 'plugin.json') =>
      loadCodewhaleBundle(job().dir, label, {
        scope: 'user',
        canonicalDiscoveryRoot: job().canonicalDiscoveryRoot,
        host: LINUX_HOST,
      });
    /** Every open of `file`. */
    const opensOf = (file: string) => fsPatch.calls('openSync', (p) => p === file);
    /** Every stat of a path inside `dir`. */
    const statsUnder = (dir: string) => fsPatch.calls('statSync', (p) => p.startsWith(dir + '/'));

    it('takes the read at the announced root and finds the manifest in it, without a stat per label', () => {
      f.write('plugins/b/plugin.json', JSON.stringify({ $schema: 's', name: 'b', version: '1.0.0' }));
      f.write('plugins/b/skills/s/SKILL.md', '---\nname: s\ndescription: d\n---\n');
      const { ahead, asked } = readingAhead();
      const stats = statsUnder(f.path('plugins/b'));
      const withRead = runBundleJob({ ...job(), readAhead: ahead }, LINUX_HOST);
      assert.deepEqual(asked, [announcedRoot(job())]);
      assert.deepEqual(stats, []);
      assert.equal(withRead?.label, 'plugin.json');
      assert.deepEqual(withRead, loadedByTheLoader('plugin.json'));
    });

    it('asks the disk for any other manifest, and loads it as without the read', () => {
      f.write('plugins/b/plugin.toml', 'name = "b"\n');
      const { ahead } = readingAhead();
      const stats = statsUnder(f.path('plugins/b'));
      const withRead = runBundleJob({ ...job(), readAhead: ahead }, LINUX_HOST);
      assert.ok(stats.length > 0);
      assert.equal(withRead?.label, 'plugin.toml');
      assert.deepEqual(withRead, loadedByTheLoader('plugin.toml'));
    });

    it('reads a bundle the read-ahead does not hold now, with the same code: no stat per label, the manifest opened once', () => {
      f.write('plugins/b/plugin.json', JSON.stringify({ $schema: 's', name: 'b', version: '1.0.0' }));
      f.write('plugins/b/skills/s/SKILL.md', '---\nname: s\ndescription: d\n---\n');
      const stats = statsUnder(f.path('plugins/b'));
      const opened = opensOf(f.path('plugins/b/plugin.json'));
      const notHeld: TreeReadAhead = { announce: () => undefined, take: () => undefined, finish: () => undefined };
      const b = runBundleJob({ ...job(), readAhead: notHeld }, LINUX_HOST);
      assert.deepEqual([stats, opened.length], [[], 1]);
      // Without a read-ahead at all, the same.
      assert.deepEqual(runBundleJob(job(), LINUX_HOST), b);
      assert.deepEqual([stats, opened.length], [[], 2]);
      assert.deepEqual(b, loadedByTheLoader('plugin.json'));
    });

    it('skips a directory whose read holds no manifest, as without the read', () => {
      f.write('plugins/b/README.md', 'no manifest');
      const { ahead, asked } = readingAhead();
      assert.equal(runBundleJob({ ...job(), readAhead: ahead }, LINUX_HOST), null);
      assert.equal(asked.length, 1);
      assert.equal(runBundleJob(job(), LINUX_HOST), null);
    });
  });

  describe("a read whose walk stopped: the diagnostic is the failure's kind, never its message's words", () => {
    // Each kind's code (codewhale.md §7.2; diagnosticCodes.ts), given a message that names another failure.
    const codes: [TreeFailureKind, string][] = [
      ['unreadable', 'codewhale.content.unreadable'],
      ['root-not-directory', 'codewhale.content.symlink'],
      ['symlink', 'codewhale.content.symlink'],
      ['special-file', 'codewhale.content.special-file'],
      ['changed-length', 'codewhale.content.changed'],
      ['file-limit', 'codewhale.content.limit'],
      ['byte-limit', 'codewhale.content.limit'],
      ['entry-limit', 'codewhale.content.limit'],
    ];
    for (const [kind, code] of codes)
      it(`${kind}: ${code}`, () => {
        f.write('plugins/b/plugin.toml', 'schema_version = 1\n[plugin]\nname = "b"\nversion = "1.0.0"\n');
        const whole = readBundleTree(announcedRoot(job()));
        const message =
          kind === 'changed-length'
            ? 'component trees may not contain symbolic link x'
            : 'component file x changed length while being reviewed';
        const read = { ...whole, failure: { kind, message, rel: 'x' } };
        const b = runBundleJob({ ...job(), read }, LINUX_HOST);
        assert.deepEqual(
          b?.diagnostics.map((d) => [d.code, d.message, d.file]),
          [[code, message, f.path('plugins/b/x')]],
        );
        assert.equal(b?.valid, false);
      });
  });

  describe('the manifest found in a read', () => {
    /** Each layout: what the read tells (undefined: the disk answers), and `resolveManifest` agrees wherever it tells. */
    const layouts: [string, (root: string) => void, string | undefined][] = [
      ['plugin.json alone', (r) => f.write(`${r}/plugin.json`, '{}'), 'plugin.json'],
      [
        'every form: the first in precedence',
        (r) => {
          for (const l of ['plugin.toml', 'plugin.json', 'kimi.plugin.json', '.claude-plugin/plugin.json'])
            f.write(`${r}/${l}`, '');
        },
        'plugin.json',
      ],
      [
        'plugin.json read, a link after it',
        (r) => (f.write(`${r}/plugin.json`, '{}'), f.symlink('/etc', `${r}/zz-link`)),
        'plugin.json',
      ],
      // A later label found in the read proves nothing: `stat` on a case-insensitive file system finds `PLUGIN.JSON` too.
      ['plugin.toml alone', (r) => f.write(`${r}/plugin.toml`, ''), undefined],
      [
        'kimi.plugin.json beside plugin.json in another case',
        (r) => (f.write(`${r}/PLUGIN.JSON`, '{}'), f.write(`${r}/kimi.plugin.json`, '')),
        undefined,
      ],
      ['the Claude form', (r) => f.write(`${r}/.claude-plugin/plugin.json`, '{}'), undefined],
      ['no manifest', (r) => f.write(`${r}/README.md`, ''), undefined],
      ['plugin.json a directory', (r) => f.write(`${r}/plugin.json/x`, ''), undefined],
      [
        'a link before plugin.json: the walk stopped before it',
        (r) => (f.write(`${r}/plugin.json`, '{}'), f.symlink('/etc', `${r}/a-link`)),
        undefined,
      ],
      [
        'plugin.json a link to a file, which stat follows',
        (r) => (f.write(`${r}/real.json`, '{}'), f.symlink(f.path(`${r}/real.json`), `${r}/plugin.json`)),
        undefined,
      ],
    ];
    for (const [name, make, expected] of layouts) {
      it(`${name}: ${String(expected)}`, () => {
        make('plugins/b');
        const root = f.path('plugins/b');
        const found = manifestOfRead(readBundleTree(root));
        assert.equal(found, expected);
        if (found !== undefined) assert.equal(found, resolveManifest(root));
      });
    }

    it('a root that is a link: unknown', () => {
      f.write('elsewhere/plugin.json', '{}');
      f.symlink(f.path('elsewhere'), 'plugins/b');
      assert.equal(manifestOfRead(readBundleTree(f.path('plugins/b'))), undefined);
    });
  });
});
