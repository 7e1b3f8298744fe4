import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readBundleSource } from '../../src/core/trust/bundleSource';
import { readInvalidBundle } from '../../src/core/trust/invalidBundle';
import { hashBundleContent } from '../../src/core/hashing/bundleContent';
import { sha256Hex } from '../../src/core/hashing/framing';
import { hashTarget } from '../../src/core/index/hashTarget';
import { loadCodewhaleBundle } from '../../src/core/systems/codewhale/bundle';
import { readBundleTree } from '../../src/core/hashing/treeRead';
import type { TakenRead } from '../../src/core/hashing/readAhead';
import { byName, Fixture, index, LINUX_HOST } from './helpers/fixture';
import { fsPatcher } from './helpers/fsPatch';

/**
 * The manifest is read once (codewhale.md §4.1, §7.2): every reader of a bundle — the
 * index's job, review, trust and `hash` — reads the whole bundle first (bundleJob.ts) and
 * parses the manifest's bytes from that read, so the content hash covers exactly the bytes
 * parsed. The loader handed no read reads the manifest, then walks the bundle, reading it
 * again with the walk's own checks and messages.
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
  const opensOf = (file: string) => fsPatch.calls('openSync', (p) => p === file);
  /** The paths under `dir` that are stat'ed (how `resolveManifest` looks for each label). */
  const statsUnder = (dir: string) => fsPatch.calls('statSync', (p) => p.startsWith(dir + path.sep));
  /** Runs `change` right after the walk lists the bundle root: the listing saw the old entry. */
  const afterListing = (root: string, change: () => void) => {
    fsPatch.replace('readdirSync', (realReaddir) => (p: fs.PathLike, ...rest: unknown[]) => {
      const listed = (realReaddir as (...a: unknown[]) => unknown)(p, ...rest);
      if (p === root) change();
      return listed;
    });
  };

  describe('review, trust and `hash` read the bundle first, as the index does', () => {
    const indexed = () => {
      const { root, manifest } = bundle();
      f.write('ws/.codewhale/plugins/.keep', '');
      fs.renameSync(root, f.path('ws/.codewhale/plugins/demo'));
      const dir = f.path('ws/.codewhale/plugins/demo');
      const item = byName(index([f.path('ws')]), 'demo');
      return { dir, manifest: path.join(dir, path.basename(manifest)), item };
    };

    it('reads a bundle for review with one open of its manifest and no stat per label, to the hash the index shows', () => {
      const { dir, manifest, item } = indexed();
      const opened = opensOf(manifest);
      const stated = statsUnder(dir);
      const r = readBundleSource(item, LINUX_HOST);
      assert.ok(r.ok);
      assert.deepEqual(opened, [manifest]);
      assert.deepEqual(stated, []);
      assert.equal(r.source.item.contentHash, item.contentHash);
      assert.equal(r.source.item.reviewToken, item.reviewToken);
    });

    it("`hash` of the bundle directory and of its manifest: one open of the manifest, no stat per label, the index's token", () => {
      const { dir, manifest, item } = indexed();
      for (const target of [dir, manifest]) {
        const opened = opensOf(manifest);
        const stated = statsUnder(dir);
        const r = hashTarget(target);
        assert.ok(r.ok, target);
        assert.equal(r.reviewToken, item.reviewToken, target);
        assert.deepEqual(opened, [manifest], target);
        assert.deepEqual(stated, [], target);
      }
    });

    it('reads an invalid bundle for review once: its findings, files and content hash are of that one read', () => {
      const { dir, manifest } = indexed();
      fs.writeFileSync(manifest, MANIFEST.replace('"demo"', '"Bad_Name"'));
      const item = byName(index([f.path('ws')]), 'demo');
      assert.equal(item.decision, 'rejected');
      const skill = path.join(dir, 'skills/a/SKILL.md');
      const first = fs.readFileSync(skill);
      const walked = hashBundleContent(dir, 'plugin.json', fs.readFileSync(manifest), () => false);
      assert.ok(walked.ok);
      // A writer replaces the skill the moment the first read of it closes: a second read would see other bytes.
      const opened: string[] = [];
      let skillFd: number | undefined;
      fsPatch.replace('openSync', (real) => (p: fs.PathLike, ...rest: unknown[]) => {
        const fd = (real as (...a: unknown[]) => number)(p, ...rest);
        if (p === skill || p === manifest) opened.push(String(p));
        if (p === skill && opened.filter((o) => o === skill).length === 1) skillFd = fd;
        return fd;
      });
      fsPatch.replace('closeSync', (real) => (fd: number) => {
        (real as (fd: number) => void)(fd);
        if (fd !== skillFd) return;
        skillFd = undefined;
        fs.writeFileSync(skill, '---\nname: a\ndescription: changed while reviewed\n---\n');
      });
      const inv = readInvalidBundle(item, [], LINUX_HOST);
      assert.ok(inv);
      assert.deepEqual(opened, [manifest, skill]);
      assert.equal(inv.files.find((x) => x.path === 'skills/a/SKILL.md')?.sha256, sha256Hex(first));
      assert.equal(inv.contentHash, walked.contentHash);
      assert.ok(
        inv.diagnostics.some((d) => d.code.startsWith('codewhale.manifest') && d.severity === 'error'),
        JSON.stringify(inv.diagnostics.map((d) => d.code)),
      );
      assert.notDeepEqual(fs.readFileSync(skill), first);
    });

    it('reads a bundle whose manifest the read cannot answer from the disk: another form, by its stat', () => {
      const { dir, item } = indexed();
      fs.renameSync(path.join(dir, 'plugin.json'), path.join(dir, 'kimi.plugin.json'));
      const fresh = byName(index([f.path('ws')]), 'demo');
      const stated = statsUnder(dir);
      const r = readBundleSource(fresh, LINUX_HOST);
      assert.ok(r.ok);
      assert.ok(stated.length > 0);
      assert.equal(r.source.item.reviewToken, fresh.reviewToken);
      assert.notEqual(fresh.reviewToken, item.reviewToken);
    });
  });

  it('reports a manifest that becomes a link after the listing from the walk: codewhale.content.symlink at the manifest', () => {
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
