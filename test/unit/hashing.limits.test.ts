import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  ENTRY_LIMIT_MESSAGE,
  hashBundleContent,
  LIMIT_MESSAGE,
  MAX_HASHED_BYTES,
  MAX_HASHED_FILES,
  MAX_WALKED_ENTRIES,
} from '../../src/core/hashing/bundleContent';
import { Fixture } from './helpers/fixture';
import { logicalPath } from './helpers/fsPatch';

/**
 * The content walk's limits (codewhale.md §3 and §7.2; trust.md): 4,096 files and
 * 64 MiB of file bytes per bundle, and Skillgate's own 65,536 directory entries, each
 * tested on both sides. Built cheaply: empty files, sparse files, and a listing of
 * symbolic links served from memory (a link is refused when the walk reaches it, so an
 * entry count that passes shows as that refusal instead of the limit).
 */
describe('content walk limits, at and just past each one', function () {
  this.timeout(120000);
  const nodeFs = require('node:fs') as typeof import('node:fs');
  const realReaddir = nodeFs.readdirSync;
  let f: Fixture;
  // Thousands of files: on a memory file system when there is one (Linux), else the temporary directory.
  beforeEach(() => (f = fs.existsSync('/dev/shm') ? new Fixture('/dev/shm') : new Fixture()));
  afterEach(() => {
    nodeFs.readdirSync = realReaddir;
    f.remove();
  });

  const MANIFEST = Buffer.from('schema_version = 1\n[plugin]\nname = "big"\nversion = "1.0.0"\n');
  const walk = (root: string) => hashBundleContent(root, 'plugin.toml', MANIFEST, () => false);
  const bundle = () => {
    const root = f.mkdir('big');
    fs.writeFileSync(path.join(root, 'plugin.toml'), MANIFEST);
    return root;
  };
  const emptyFiles = (dir: string, n: number, prefix = 'f') => {
    fs.mkdirSync(dir, { recursive: true });
    for (let i = 0; i < n; i++) fs.writeFileSync(path.join(dir, `${prefix}${i}`), '');
  };
  /** Serves `dir`'s listing as `n` symbolic links named l0, l1, … (the walk lists through `fs`). */
  const listAs = (dir: string, n: number) => {
    const fake = Array.from({ length: n }, (_, i) => ({
      name: `l${i}`,
      isSymbolicLink: () => true,
      isDirectory: () => false,
      isFile: () => false,
    }));
    nodeFs.readdirSync = ((p: fs.PathLike, ...rest: unknown[]) =>
      logicalPath(p) === dir
        ? fake
        : (realReaddir as (...a: unknown[]) => unknown)(p, ...rest)) as typeof nodeFs.readdirSync;
  };

  it('states the upstream limits', () => {
    assert.deepEqual([MAX_HASHED_FILES, MAX_HASHED_BYTES, MAX_WALKED_ENTRIES], [4096, 67108864, 65536]);
    assert.equal(LIMIT_MESSAGE, 'plugin bundle content exceeds the plugin review limit (4096 files / 67108864 bytes)');
    assert.equal(
      ENTRY_LIMIT_MESSAGE,
      "plugin bundle content exceeds Skillgate's walk limit (65536 directory entries; the agent counts files only), so it cannot be reviewed here",
    );
  });

  it('hashes 4,096 files and refuses the 4,097th', () => {
    const root = bundle();
    emptyFiles(path.join(root, 'd'), MAX_HASHED_FILES - 1);
    const at = walk(root);
    assert.ok(at.ok, at.ok ? '' : at.message);
    assert.equal(at.files.length, 4096);
    fs.writeFileSync(path.join(root, 'z'), '');
    const past = walk(root);
    assert.deepEqual(past, { ok: false, kind: 'file-limit', message: LIMIT_MESSAGE, rel: 'z' });
  });

  it('hashes 64 MiB of file bytes and refuses one byte more, counted over all files', () => {
    const root = bundle();
    // Sparse files: no disk space, and the manifest's bytes count too (it is walked first here).
    const half = Math.floor((MAX_HASHED_BYTES - MANIFEST.length) / 2);
    const sized = (name: string, size: number) => {
      fs.writeFileSync(path.join(root, name), '');
      fs.truncateSync(path.join(root, name), size);
    };
    sized('x.bin', half);
    sized('y.bin', MAX_HASHED_BYTES - MANIFEST.length - half);
    const at = walk(root);
    assert.ok(at.ok, at.ok ? '' : at.message);
    assert.equal(
      at.files.reduce((n, x) => n + x.size, 0),
      MAX_HASHED_BYTES,
    );
    sized('y.bin', MAX_HASHED_BYTES - MANIFEST.length - half + 1);
    assert.deepEqual(walk(root), { ok: false, kind: 'byte-limit', message: LIMIT_MESSAGE, rel: 'y.bin' });
  });

  it('refuses 65,537 directory entries when a directory is listed, counting across directories; 65,536 are walked', () => {
    const root = bundle();
    // The root lists 1,001 entries (the manifest, 999 empty files, `z`), walked first;
    // `z` then lists the rest, all symbolic links, so its listing alone decides: at the
    // limit the walk goes on and refuses the first link, past it the listing is refused.
    // 64,535 real links cost seconds on a busy machine, so `z`'s listing is served from memory.
    emptyFiles(root, 999, 'e');
    fs.mkdirSync(path.join(root, 'z'));
    listAs(path.join(root, 'z'), MAX_WALKED_ENTRIES - 1001);
    const at = walk(root);
    assert.deepEqual(
      at,
      { ok: false, kind: 'symlink', message: 'component trees may not contain symbolic link z/l0', rel: 'z/l0' },
      'at the limit the walk reaches the first link',
    );
    listAs(path.join(root, 'z'), MAX_WALKED_ENTRIES - 1000);
    assert.deepEqual(walk(root), { ok: false, kind: 'entry-limit', message: ENTRY_LIMIT_MESSAGE, rel: 'z' });
  });

  it('counts a single listing of 65,537 entries against the limit before walking any', () => {
    const root = bundle();
    listAs(root, MAX_WALKED_ENTRIES + 1);
    assert.deepEqual(walk(root), { ok: false, kind: 'entry-limit', message: ENTRY_LIMIT_MESSAGE });
    listAs(root, MAX_WALKED_ENTRIES);
    assert.deepEqual(walk(root), {
      ok: false,
      kind: 'symlink',
      message: 'component trees may not contain symbolic link l0',
      rel: 'l0',
    });
  });

  it('closes every file it opens: walking a bundle again and again leaves no descriptor open', () => {
    const root = bundle();
    for (let i = 0; i < 20; i++) fs.writeFileSync(path.join(root, `f${i}.txt`), `file ${i}`);
    const open = () => fs.readdirSync('/proc/self/fd').length;
    assert.ok(walk(root).ok);
    const before = open();
    for (let i = 0; i < 10; i++) assert.ok(walk(root).ok);
    assert.equal(open(), before, 'descriptors leaked by the content walk');
  });

  it('refuses a symlinked bundle root, and a root that is a file or missing', () => {
    const root = bundle();
    f.symlink(root, 'link');
    assert.deepEqual(walk(f.path('link')), {
      ok: false,
      kind: 'root-not-directory',
      message: 'plugin root must be a directory, not a symbolic link',
    });
    assert.deepEqual(walk(path.join(root, 'plugin.toml')), {
      ok: false,
      kind: 'root-not-directory',
      message: 'plugin root must be a directory, not a symbolic link',
    });
    const missing = walk(f.path('missing'));
    // The reason is the operating system's, in the message: a refusal names why, in Rust's words as upstream
    // prints it (validate_from_path's `failed to inspect plugin root: {e}`); Node's on Windows.
    const said =
      process.platform === 'win32'
        ? /^failed to inspect plugin root: .*ENOENT/
        : /^failed to inspect plugin root: No such file or directory \(os error 2\)$/;
    assert.ok(!missing.ok && said.test(missing.message), missing.ok ? '' : missing.message);
    assert.equal(missing.kind, 'unreadable');
    assert.ok(walk(root).ok);
  });

  it('refuses a symbolic link anywhere in the bundle and a FIFO, naming each', () => {
    const root = bundle();
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    assert.deepEqual(walk(root), {
      ok: false,
      kind: 'special-file',
      message: 'component pipe is neither a regular file nor directory',
      rel: 'pipe',
    });
    fs.rmSync(path.join(root, 'pipe'));
    fs.symlinkSync('plugin.toml', path.join(root, 'alias'));
    assert.deepEqual(walk(root), {
      ok: false,
      kind: 'symlink',
      message: 'component trees may not contain symbolic link alias',
      rel: 'alias',
    });
    fs.rmSync(path.join(root, 'alias'));
    fs.mkdirSync(path.join(root, 'sub'));
    fs.symlinkSync('../plugin.toml', path.join(root, 'sub', 'alias'));
    assert.deepEqual(walk(root), {
      ok: false,
      kind: 'symlink',
      message: 'component trees may not contain symbolic link sub/alias',
      rel: 'sub/alias',
    });
  });

  it('keeps empty directories in the hash and lists them', () => {
    const root = bundle();
    const before = walk(root);
    fs.mkdirSync(path.join(root, 'empty'));
    const after = walk(root);
    assert.ok(before.ok && after.ok);
    assert.notEqual(before.contentHash, after.contentHash);
    assert.deepEqual(after.directories, ['', 'empty']);
    assert.deepEqual(
      after.files.map((x) => [x.path, x.size, x.executable]),
      [['plugin.toml', MANIFEST.length, false]],
    );
  });

  it('returns the bytes of exactly the files asked for', () => {
    const root = bundle();
    fs.mkdirSync(path.join(root, 'skills'));
    fs.writeFileSync(path.join(root, 'skills', 'SKILL.md'), 'skill');
    fs.writeFileSync(path.join(root, 'other.txt'), 'other');
    const r = hashBundleContent(root, 'plugin.toml', MANIFEST, (rel) => rel === 'skills/SKILL.md');
    assert.ok(r.ok);
    assert.deepEqual(
      [...r.retained.entries()].map(([k, v]) => [k, v.toString()]),
      [['skills/SKILL.md', 'skill']],
    );
    assert.deepEqual(
      r.files.map((x) => x.path),
      ['other.txt', 'plugin.toml', 'skills/SKILL.md'],
    );
  });

  it('marks a file executable by any execute bit', () => {
    const root = bundle();
    for (const [name, mode] of [
      ['u', 0o744],
      ['g', 0o654],
      ['o', 0o645],
      ['none', 0o644],
    ] as const) {
      fs.writeFileSync(path.join(root, name), '');
      fs.chmodSync(path.join(root, name), mode);
    }
    const r = walk(root);
    assert.ok(r.ok);
    assert.deepEqual(Object.fromEntries(r.files.map((x) => [x.path, x.executable])), {
      g: true,
      none: false,
      o: true,
      'plugin.toml': false,
      u: true,
    });
  });
  describe('what the disk can do between listing and reading, injected', () => {
    const realOpen = nodeFs.openSync;
    const realFstat = nodeFs.fstatSync;
    const realReadSync = nodeFs.readSync;
    afterEach(() => {
      nodeFs.openSync = realOpen;
      nodeFs.fstatSync = realFstat;
      nodeFs.readSync = realReadSync;
    });
    const withFile = () => {
      const root = bundle();
      fs.writeFileSync(path.join(root, 'f.txt'), 'hello');
      return { root, file: path.join(root, 'f.txt') };
    };
    const errno = (code: string) => Object.assign(new Error(`${code}: injected`), { code });
    const onFile = <T extends (...a: never[]) => unknown>(
      real: T,
      target: string | number | (() => number | undefined),
      replace: (...a: Parameters<T>) => ReturnType<T>,
    ): T =>
      ((...a: Parameters<T>) =>
        logicalPath(a[0]) === (typeof target === 'function' ? target() : target)
          ? replace(...a)
          : (real as (...x: Parameters<T>) => ReturnType<T>)(...a)) as T;

    it('refuses a file swapped for a link after listing (the open does not follow it)', () => {
      const { root, file } = withFile();
      nodeFs.openSync = onFile(realOpen, file, () => {
        throw errno('ELOOP');
      });
      assert.deepEqual(walk(root), {
        ok: false,
        kind: 'symlink',
        message: 'component trees may not contain symbolic link f.txt',
        rel: 'f.txt',
      });
    });

    it('refuses a file it cannot open, with the reason', () => {
      const { root, file } = withFile();
      nodeFs.openSync = onFile(realOpen, file, () => {
        throw errno('EIO');
      });
      const r = walk(root);
      assert.ok(!r.ok);
      assert.equal(r.kind, 'unreadable');
      assert.equal(r.rel, 'f.txt');
      assert.match(r.message, /^failed to read component file f\.txt: .*EIO/);
    });

    it('refuses what turned out not to be a regular file once opened', () => {
      const { root, file } = withFile();
      let fd: number | undefined;
      nodeFs.openSync = onFile(realOpen, file, (...a) => (fd = realOpen(...a)));
      nodeFs.fstatSync = onFile(
        realFstat,
        () => fd,
        (...a) => Object.assign(realFstat(...a), { isFile: () => false }) as ReturnType<typeof realFstat>,
      );
      assert.deepEqual(walk(root), {
        ok: false,
        kind: 'special-file',
        message: 'component f.txt is neither a regular file nor directory',
        rel: 'f.txt',
      });
    });

    it('refuses a file that shrank while it was read', () => {
      const { root, file } = withFile();
      let fd: number | undefined;
      nodeFs.openSync = onFile(realOpen, file, (...a) => (fd = realOpen(...a)));
      nodeFs.fstatSync = onFile(
        realFstat,
        () => fd,
        (...a) => Object.assign(realFstat(...a), { size: 9 }) as ReturnType<typeof realFstat>,
      );
      assert.deepEqual(walk(root), {
        ok: false,
        kind: 'changed-length',
        message: 'component file f.txt changed length while being reviewed',
        rel: 'f.txt',
      });
    });

    it('refuses a file whose read fails, with the reason', () => {
      const { root, file } = withFile();
      let fd: number | undefined;
      nodeFs.openSync = onFile(realOpen, file, (...a) => (fd = realOpen(...a)));
      nodeFs.readSync = onFile(
        realReadSync,
        () => fd,
        () => {
          throw errno('EIO');
        },
      );
      const r = walk(root);
      assert.ok(!r.ok);
      assert.equal(r.kind, 'unreadable');
      assert.match(r.message, /^failed to read component file f\.txt: .*EIO/);
    });

    it('refuses a directory it cannot list, naming it', () => {
      const root = bundle();
      fs.mkdirSync(path.join(root, 'sub'));
      nodeFs.readdirSync = onFile(realReaddir, path.join(root, 'sub'), () => {
        throw errno('EIO');
      });
      const r = walk(root);
      assert.ok(!r.ok);
      assert.equal(r.kind, 'unreadable');
      assert.equal(r.rel, 'sub');
      assert.match(r.message, /^failed to read component directory sub: .*EIO/);
    });
  });

  it('spells a name that is not UTF-8 by escaped bytes, keeps its raw bytes, and walks under it', () => {
    const root = bundle();
    const raw = Buffer.concat([Buffer.from(root + '/d'), Buffer.from([0xff])]);
    fs.mkdirSync(raw);
    fs.writeFileSync(Buffer.concat([raw, Buffer.from('/x')]), 'x');
    const r = walk(root);
    assert.ok(r.ok, r.ok ? '' : r.message);
    const f2 = r.files.find((x) => x.rawPath);
    assert.ok(f2, JSON.stringify(r.files));
    assert.equal(typeof f2.path, 'string');
    assert.deepEqual(Buffer.from(f2.rawPath as Uint8Array), Buffer.from([0x64, 0xff, 0x2f, 0x78]));
    assert.ok(r.directories.every((d) => typeof d === 'string'));
  });
});
