import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { cacheKey, CODE_DIR, CoreCodeCache, MAX_CODE_FILES } from '../../src/core/cache/codeCache';
import { run } from '../../src/cli/main';
import type { GlobalOptions } from '../../src/cli/options';
import { Fixture } from './helpers/fixture';

const proto = Module.prototype as unknown as { _compile: unknown };

/** A stand-in for dist/core.js: some functions, and a count of how often its body ran. */
const CORE = `'use strict';
exports.twice = function twice(n) { return [n, n].map((x) => x * 2); };
exports.ran = (globalThis.codeCacheTestRuns = (globalThis.codeCacheTestRuns ?? 0) + 1);
`;

/**
 * The CLI's V8 code cache of the core bundle (docs/code-cache.md): keyed by the source
 * and the runtime, read only from the user's own private directory and file, and
 * anything wrong with it is a compile as without it, never an error or another result.
 */
describe('the CLI code cache of the core bundle (docs/code-cache.md)', () => {
  let f: Fixture;
  let loads = 0;
  const original = proto._compile;
  const uid = process.getuid?.() ?? 0;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => {
    proto._compile = original;
    f.remove();
  });

  /** Loads `source` as a core at a path of its own (as another process would: no in-memory reuse), then saves. */
  function load(source: string, cacheDir: string | null, owner = uid) {
    return loadAs(source, cacheDir, owner);
  }
  function loadAs(source: string, cacheDir: string | null, owner: number | null) {
    const file = f.write(`install-${loads++}/core.js`, source);
    const cache = new CoreCodeCache(file, { uid: owner, sourceMaps: false });
    cache.install(cacheDir);
    const exports = require(file) as { twice: (n: number) => number[]; ran: number };
    assert.equal(proto._compile, original, 'the hook is gone once the core is compiled');
    cache.save();
    return exports;
  }
  const codeDir = () => f.path('cache', CODE_DIR);
  const codeFiles = () =>
    fs.existsSync(codeDir()) ? fs.readdirSync(codeDir()).filter((n) => n.endsWith('.code')) : [];
  const theFile = () => {
    const files = codeFiles();
    assert.equal(files.length, 1, files.join(', '));
    return path.join(codeDir(), files[0] as string);
  };
  /** The file's identity: a rewrite renames a new file over it. */
  const inode = (file: string) => fs.statSync(file).ino;

  it('writes the code after the first run, private to the user, and reuses it without rewriting', () => {
    const first = load(CORE, f.path('cache'));
    assert.deepEqual(first.twice(3), [6, 6]);
    const file = theFile();
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.equal(fs.statSync(codeDir()).mode & 0o777, 0o700);
    const written = inode(file);
    const again = load(CORE, f.path('cache'));
    assert.deepEqual(again.twice(4), [8, 8]);
    assert.equal(again.ran, first.ran + 1, 'the body ran once per load');
    assert.equal(inode(file), written, 'a usable cache is not written again');
    assert.deepEqual(
      fs.readdirSync(codeDir()).filter((n) => !n.endsWith('.code')),
      [],
      'no temporary file is left',
    );
  });

  it('keys the code by the source and the runtime: another source or V8 option gets a file of its own', () => {
    load(CORE, f.path('cache'));
    load(`${CORE}// another build of the same length or not\n`, f.path('cache'));
    assert.equal(codeFiles().length, 2);
    assert.notEqual(cacheKey(CORE), cacheKey(`${CORE} `));
    const options = process.env.NODE_OPTIONS;
    try {
      const before = cacheKey(CORE);
      process.env.NODE_OPTIONS = '--max-semi-space-size=64';
      assert.notEqual(cacheKey(CORE), before);
    } finally {
      if (options === undefined) delete process.env.NODE_OPTIONS;
      else process.env.NODE_OPTIONS = options;
    }
  });

  it('keys the code by the V8 options the process set for itself too', () => {
    const flags = ['--max-inlined-bytecode-size-cumulative=150'];
    assert.notEqual(cacheKey(CORE, flags), cacheKey(CORE));
    assert.equal(cacheKey(CORE, flags), cacheKey(CORE, [...flags]));
    assert.equal(cacheKey(CORE, []), cacheKey(CORE));
  });

  it('ignores a file stored under another key, and rewrites it', () => {
    load(CORE, f.path('cache'));
    const file = theFile();
    const bytes = fs.readFileSync(file);
    const newline = bytes.indexOf(0x0a);
    const header = JSON.parse(bytes.toString('utf8', 0, newline)) as { key: string };
    fs.writeFileSync(
      file,
      Buffer.concat([
        Buffer.from(`${JSON.stringify({ ...header, key: 'f'.repeat(64) })}\n`),
        bytes.subarray(newline + 1),
      ]),
    );
    const spoiled = inode(file);
    assert.deepEqual(load(CORE, f.path('cache')).twice(1), [2, 2]);
    assert.notEqual(inode(file), spoiled, 'rewritten');
    assert.equal(JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[0] as string).key, header.key);
  });

  for (const [what, spoil] of [
    ['a flipped bit', (b: Buffer) => Buffer.concat([b.subarray(0, -1), Buffer.from([(b.at(-1) ?? 0) ^ 1])])],
    ['a truncated file', (b: Buffer) => b.subarray(0, b.length - 7)],
    ['an empty file', () => Buffer.alloc(0)],
    ['a header that is not JSON', (b: Buffer) => Buffer.concat([Buffer.from('{not json\n'), b])],
  ] as const) {
    it(`ignores ${what} (never an error, the same exports) and writes a whole file again`, () => {
      load(CORE, f.path('cache'));
      const file = theFile();
      fs.writeFileSync(file, spoil(fs.readFileSync(file)));
      const spoiled = inode(file);
      assert.deepEqual(load(CORE, f.path('cache')).twice(5), [10, 10]);
      assert.notEqual(inode(file), spoiled, 'rewritten');
      const again = inode(file);
      load(CORE, f.path('cache'));
      assert.equal(inode(file), again, 'the rewritten file is used');
    });
  }

  it('rewrites data V8 rejects though its header and CRC are right', () => {
    load(CORE, f.path('cache'));
    const file = theFile();
    const bytes = fs.readFileSync(file);
    const newline = bytes.indexOf(0x0a);
    const header = JSON.parse(bytes.toString('utf8', 0, newline)) as Record<string, unknown>;
    const junk = Buffer.alloc(bytes.length - newline - 1, 0x5a);
    fs.writeFileSync(
      file,
      Buffer.concat([Buffer.from(`${JSON.stringify({ ...header, crc: zlib.crc32(junk) })}\n`), junk]),
    );
    const spoiled = inode(file);
    assert.deepEqual(load(CORE, f.path('cache')).twice(2), [4, 4]);
    assert.notEqual(inode(file), spoiled);
  });

  it('keeps no code cache without a cache directory (--no-cache, no home), an owner to check (Windows), or with source maps on', () => {
    assert.deepEqual(load(CORE, null).twice(1), [2, 2]);
    assert.deepEqual(loadAs(CORE, f.path('cache'), null).twice(1), [2, 2]);
    const file = f.write('mapped/core.js', CORE);
    const mapped = new CoreCodeCache(file, { uid, sourceMaps: true });
    mapped.install(f.path('cache'));
    assert.equal(proto._compile, original);
    assert.deepEqual((require(file) as { twice: (n: number) => number[] }).twice(1), [2, 2]);
    mapped.save();
    assert.equal(fs.existsSync(f.path('cache')), false);
  });

  it('never reads code from, or writes it into, a directory another user owns or can write', () => {
    load(CORE, f.path('cache'));
    const file = theFile();
    const written = inode(file);
    // Another user's directory: the files in it are not read, and nothing is written.
    assert.deepEqual(load(CORE, f.path('cache'), uid + 1).twice(1), [2, 2]);
    assert.equal(inode(file), written);
    fs.chmodSync(codeDir(), 0o777);
    load(CORE, f.path('cache'));
    assert.equal(inode(file), written, 'a directory others can write is neither read nor written');
    fs.chmodSync(codeDir(), 0o700);
  });

  for (const [what, expose] of [
    ['writable by others', (file: string) => fs.chmodSync(file, 0o666)],
    ['writable by the group', (file: string) => fs.chmodSync(file, 0o620)],
    ['linked twice', (file: string) => fs.linkSync(file, f.path('elsewhere'))],
    [
      'a symbolic link',
      (file: string) => {
        fs.renameSync(file, f.path('elsewhere'));
        fs.symlinkSync(f.path('elsewhere'), file);
      },
    ],
  ] as const) {
    it(`never reads code from a file ${what}: it is replaced by one of its own`, () => {
      load(CORE, f.path('cache'));
      const file = theFile();
      expose(file);
      const exposed = fs.lstatSync(file).ino;
      assert.deepEqual(load(CORE, f.path('cache')).twice(1), [2, 2]);
      const now = fs.lstatSync(file);
      assert.notEqual(now.ino, exposed, 'refused and rewritten');
      assert.ok(now.isFile() && (now.mode & 0o777) === 0o600 && now.nlink === 1);
    });
  }

  it(`keeps the ${MAX_CODE_FILES} newest code files`, () => {
    for (let i = 0; i <= MAX_CODE_FILES + 1; i++) {
      load(`${CORE}// build ${i}\n`, f.path('cache'));
      // Distinct write times, newest last.
      for (const n of codeFiles()) {
        const p = path.join(codeDir(), n);
        const t = fs.statSync(p).mtimeMs / 1000;
        fs.utimesSync(p, t - 1, t - 1);
      }
    }
    assert.equal(codeFiles().length, MAX_CODE_FILES);
  });

  it('compiles a core that does not parse as Node would: the same error, once', () => {
    const file = f.write('broken/core.js', 'exports.x = ;\n');
    const cache = new CoreCodeCache(file, { uid, sourceMaps: false });
    cache.install(f.path('cache'));
    assert.throws(() => require(file), SyntaxError);
    assert.equal(proto._compile, original);
    cache.save();
    assert.deepEqual(codeFiles(), []);
  });

  it('serves only the core: every other module compiles as Node does, and the hook stays until the core loads', () => {
    const other = f.write('other.js', 'exports.y = 7;\n');
    const cache = new CoreCodeCache(f.path('never/core.js'), { uid, sourceMaps: false });
    cache.install(f.path('cache'));
    try {
      assert.equal((require(other) as { y: number }).y, 7);
      assert.notEqual(proto._compile, original);
    } finally {
      proto._compile = original;
    }
    cache.save();
    assert.equal(fs.existsSync(f.path('cache')), false);
  });

  it('the CLI names the cache directory before it loads the core, and none with --no-cache', async () => {
    const seen: (string | null)[] = [];
    const io = { out: () => undefined, err: () => undefined, env: {}, cwd: f.root };
    const before = (o: GlobalOptions) => void seen.push(o.cacheDir);
    await run(['--version'], io, before);
    assert.deepEqual(seen, [], '--version needs no core');
    const ws = ['--workspace', f.mkdir('ws')];
    await run(['list', '--no-user', ...ws, '--cache-dir', 'c'], io, before);
    await run(['list', '--no-user', ...ws, '--no-cache'], io, before);
    assert.deepEqual(seen, [f.path('c'), null]);
  });

  it('the CLI names no cache directory inside a workspace folder, so no bytecode the checkout holds is run', async () => {
    // A pull request can commit `.skillgate-cache/code/core-….code`: a checkout made by the
    // same user is the user's own and 0755/0644, so the ownership checks pass. The CLI decides
    // while it parses its options, before the code cache is installed (cli.ts `beforeCore`).
    f.mkdir('ws/.skillgate-cache/code');
    f.symlink(f.path('ws'), 'link');
    const seen: (string | null)[] = [];
    let err = '';
    const io = { out: () => undefined, err: (t: string) => void (err += t), env: {}, cwd: f.path('ws') };
    const before = (o: GlobalOptions) => void seen.push(o.cacheDir);
    await run(['list', '--no-user', '--cache-dir', '.skillgate-cache'], io, before);
    await run(['list', '--no-user', '--cache-dir', f.path('link/.skillgate-cache')], io, before);
    await run(['list', '--no-user', '--cache-dir', f.path('beside')], io, before);
    assert.deepEqual(seen, [null, null, f.path('beside')]);
    assert.equal(
      err.match(/^skillgate: warning: the cache directory .* is inside the workspace folder /gm)?.length,
      2,
      err,
    );
  });
});
