import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hashBundleContent } from '../../src/core/hashing/bundleContent';
import { readRegularFileVersion } from '../../src/core/fs/safeFs';
import { loadCodewhaleBundle } from '../../src/core/systems/codewhale/bundle';
import { readBundleTree } from '../../src/core/hashing/treeRead';
import type { TakenRead } from '../../src/core/hashing/readAhead';
import { Fixture, LINUX_HOST } from './helpers/fixture';
import { fsPatcher } from './helpers/fsPatch';

/**
 * The manifest is read once (codewhale.md §4.1, §7.2): the walk's record of it reuses the
 * loader's bytes only when it meets the very file they came from. Anything else between
 * the two reads (a rewrite, a chmod, a rename over, a link) is read again, with the
 * walk's own checks and messages, exactly as when the walk always read it.
 */
describe('Codewhale manifest read once for the content hash', () => {
  const fsPatch = fsPatcher();
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const MANIFEST = JSON.stringify({ $schema: 's', name: 'demo', version: '1.0.0' });
  const bundle = () => {
    f.write('plugins/demo/plugin.json', MANIFEST);
    f.write('plugins/demo/skills/a/SKILL.md', '---\nname: a\ndescription: d\n---\n');
    return { root: f.path('plugins/demo'), manifest: f.path('plugins/demo/plugin.json') };
  };
  const versioned = (manifest: string) => {
    const read = readRegularFileVersion(manifest, 1048576);
    assert.ok(read.ok && read.version);
    return read;
  };
  /** The walk as it was before: the manifest's bytes only, so its record reads the disk. */
  const rereading = (root: string, bytes: Buffer) => hashBundleContent(root, 'plugin.json', bytes, () => false);
  const manifestRecord = (walk: ReturnType<typeof hashBundleContent>) =>
    walk.ok ? walk.files.find((x) => x.path === 'plugin.json') : undefined;
  const opensOf = (file: string) => {
    const opened: string[] = [];
    fsPatch.replace('openSync', (realOpen) => (p: fs.PathLike, ...rest: unknown[]) => {
      if (p === file) opened.push(String(p));
      return (realOpen as (...a: unknown[]) => number)(p, ...rest);
    });
    return opened;
  };
  /** Runs `change` right after the walk lists the bundle root: the listing saw the old entry. */
  const afterListing = (root: string, change: () => void) => {
    fsPatch.replace('readdirSync', (realReaddir) => (p: fs.PathLike, ...rest: unknown[]) => {
      const listed = (realReaddir as (...a: unknown[]) => unknown)(p, ...rest);
      if (p === root) change();
      return listed;
    });
  };

  it('does not open the manifest again when the walk meets the same file, and hashes as a second read would', () => {
    const { root, manifest } = bundle();
    const read = versioned(manifest);
    const expected = rereading(root, read.bytes);
    const opened = opensOf(manifest);
    const once = hashBundleContent(root, 'plugin.json', read, () => false);
    assert.deepEqual(opened, []);
    assert.deepEqual(once, expected);
    assert.ok(once.ok);
  });

  it('reads a manifest rewritten between the reads again: its record holds what the disk holds now', () => {
    const { root, manifest } = bundle();
    const read = versioned(manifest);
    const rewritten = MANIFEST.replace('1.0.0', '2.0.0');
    fs.writeFileSync(manifest, rewritten);
    // Another modification time, so the test does not depend on the clock's granularity.
    fs.utimesSync(manifest, new Date(1e12), new Date(1e12));
    const opened = opensOf(manifest);
    const walk = hashBundleContent(root, 'plugin.json', read, () => false);
    assert.equal(opened.length, 1);
    assert.deepEqual(walk, rereading(root, read.bytes));
    assert.deepEqual(manifestRecord(walk), manifestRecord(rereading(root, Buffer.from(rewritten))));
  });

  it('reads a manifest renamed over with the same length and times again (another inode)', () => {
    const { root, manifest } = bundle();
    const read = versioned(manifest);
    const st = fs.statSync(manifest);
    const other = f.write('plugins/other.json', MANIFEST.replace('demo', 'evil'));
    fs.utimesSync(other, st.atime, st.mtime);
    fs.renameSync(other, manifest);
    const walk = hashBundleContent(root, 'plugin.json', read, () => false);
    assert.deepEqual(walk, rereading(root, read.bytes));
    const evil = Buffer.from(MANIFEST.replace('demo', 'evil'));
    assert.deepEqual(manifestRecord(walk), manifestRecord(rereading(root, evil)));
  });

  it('reads a manifest made executable between the reads again: its record says so', () => {
    const { root, manifest } = bundle();
    const read = versioned(manifest);
    fs.chmodSync(manifest, 0o755);
    const walk = hashBundleContent(root, 'plugin.json', read, () => false);
    assert.ok(walk.ok);
    assert.equal(manifestRecord(walk)?.executable, true);
    assert.deepEqual(walk, rereading(root, read.bytes));
  });

  it('fails closed with the same message when the manifest becomes a link after the walk listed it', () => {
    const { root, manifest } = bundle();
    const swap = () => {
      fs.renameSync(manifest, f.path('plugins/real.json'));
      fs.symlinkSync(f.path('plugins/real.json'), manifest);
    };
    const read = versioned(manifest);
    afterListing(root, swap);
    const walk = hashBundleContent(root, 'plugin.json', read, () => false);
    assert.deepEqual(walk, {
      ok: false,
      message: 'component trees may not contain symbolic link plugin.json',
      rel: 'plugin.json',
    });
  });

  it('reports that link from the loader as before: codewhale.content.symlink at the manifest', () => {
    const { root, manifest } = bundle();
    afterListing(root, () => {
      fs.renameSync(manifest, f.path('plugins/real.json'));
      fs.symlinkSync(f.path('plugins/real.json'), manifest);
    });
    const b = loadCodewhaleBundle(root, 'plugin.json', {
      scope: 'workspace',
      canonicalDiscoveryRoot: f.path('plugins'),
      host: LINUX_HOST,
    });
    assert.equal(b.valid, false);
    assert.equal(b.contentHash, undefined);
    assert.deepEqual(
      b.diagnostics.map((d) => [d.code, d.message, d.file]),
      [
        [
          'codewhale.content.symlink',
          'component trees may not contain symbolic link plugin.json',
          path.join(root, 'plugin.json'),
        ],
      ],
    );
  });

  describe('with a read taken ahead', () => {
    /** The read of `from`, read now, as the job hands it to the loader: taken at `root`. */
    const taken = (root: string, from = root): TakenRead => ({ root, read: readBundleTree(from) });
    const load = (root: string, read?: TakenRead) =>
      loadCodewhaleBundle(root, 'plugin.json', {
        scope: 'workspace',
        canonicalDiscoveryRoot: f.path('plugins'),
        host: LINUX_HOST,
        ...(read ? { taken: read } : {}),
      });
    /** The paths under `dir` that the loader lstats or resolves. */
    const rootChecksOf = (dir: string) => {
      const checked: string[] = [];
      const note = (p: unknown) => {
        if (String(p) === dir) checked.push(String(p));
      };
      fsPatch.replace('lstatSync', (real) => (p: fs.PathLike, ...rest: unknown[]) => {
        note(p);
        return (real as (...a: unknown[]) => unknown)(p, ...rest);
      });
      fsPatch.replace('realpathSync', (real) =>
        Object.assign((...a: unknown[]) => (real as (...b: unknown[]) => unknown)(...a), {
          native: (p: fs.PathLike, ...rest: unknown[]) => {
            note(p);
            return (real.native as (...b: unknown[]) => unknown)(p, ...rest);
          },
        }),
      );
      return checked;
    };

    it('parses the manifest among the files read ahead, never opening it itself, to the same bundle', () => {
      const { root, manifest } = bundle();
      const read = taken(root);
      const opened = opensOf(manifest);
      const b = load(root, read);
      assert.deepEqual(opened, []);
      assert.deepEqual(b, load(root));
    });

    it("answers the root's lstat and realpath from the read, whose walk found it a directory", () => {
      const { root } = bundle();
      const read = taken(root);
      const checked = rootChecksOf(root);
      const b = load(root, read);
      assert.deepEqual(checked, []);
      assert.equal(b.canonicalRoot, root);
      assert.deepEqual(b, load(root));
      // Without the read, the loader asks the disk, as the test sees.
      load(root);
      assert.ok(checked.length >= 2);
    });

    it('parses the bytes read ahead, so the hash covers exactly what was parsed', () => {
      const { root } = bundle();
      // What the reader read is another copy: the name parsed and the content hash are both of it.
      f.write('copy/demo/plugin.json', MANIFEST.replace('"demo"', '"read-ahead"'));
      f.write('copy/demo/skills/a/SKILL.md', '---\nname: a\ndescription: d\n---\n');
      const b = load(root, taken(root, f.path('copy/demo')));
      assert.equal(b.name, 'read-ahead');
      assert.equal(b.contentHash, load(f.path('copy/demo')).contentHash);
    });

    it('reads a manifest the read does not hold within the limit itself, with its message', () => {
      const { root, manifest } = bundle();
      fs.writeFileSync(manifest, `{"name":"demo","pad":"${'x'.repeat(1048576)}"}`);
      const read = taken(root);
      const opened = opensOf(manifest);
      const b = load(root, read);
      assert.ok(opened.length > 0);
      assert.deepEqual(
        b.diagnostics.map((d) => [d.code, d.message]),
        [['codewhale.manifest.file', 'plugin.json exceeds the 1048576-byte review limit']],
      );
      assert.deepEqual(b, load(root));
    });

    it('checks a bundle root that is a link itself: the read of it, which never entered it, is not used', () => {
      const { root } = bundle();
      const alias = f.symlink(root, 'plugins/alias');
      const read = taken(alias);
      assert.equal(read.read.steps.length, 0);
      const checked = rootChecksOf(alias);
      const b = load(alias, read);
      assert.ok(checked.length > 0);
      assert.deepEqual(
        b.diagnostics.map((d) => d.code),
        ['codewhale.manifest.root'],
      );
      assert.deepEqual(b, load(alias));
    });
  });
});
