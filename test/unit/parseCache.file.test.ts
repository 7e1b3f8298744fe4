import { strict as assert } from 'node:assert';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MAX_SEGMENT_FILES, ParseCache } from '../../src/core/cache/parseCache';
import { NODE_CACHE_IO, type CacheIo } from '../../src/core/cache/parseCacheIo';
import { defaultCacheDirectory } from '../../src/core/cache/cacheDirectory';
import { Fixture } from './helpers/fixture';

const ID = 'test-identity';

/** The only file of a cache directory (one segment was saved). */
function cacheFile(dir: string): string {
  const files = fs.readdirSync(dir).filter((n) => n.endsWith('.cache'));
  assert.equal(files.length, 1, files.join(', '));
  return path.join(dir, files[0] as string);
}

function saved(dir: string, entries: Record<string, unknown>, identity = ID, io: CacheIo = NODE_CACHE_IO): void {
  const cache = new ParseCache(dir, io, identity);
  const seg = cache.segment('root');
  for (const [unit, value] of Object.entries(entries)) seg.put(unit, `key-${unit}`, value);
  cache.save();
}

function recalled(dir: string, unit: string, identity = ID, io: CacheIo = NODE_CACHE_IO): unknown {
  return new ParseCache(dir, io, identity).segment('root').get(unit, `key-${unit}`);
}

/**
 * The parse cache file (docs/parse-cache.md): disposable, so anything wrong with it
 * is a miss, never an error and never a value it did not store.
 */
describe('parse cache file', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('recalls a stored value by unit and exact key, and nothing under another key', () => {
    const dir = f.path('cache');
    saved(dir, { a: { name: 'x', list: [1, 'two', null], nested: { s: '\ud800 lone \n tab\t' } } });
    assert.deepEqual(recalled(dir, 'a'), { name: 'x', list: [1, 'two', null], nested: { s: '\ud800 lone \n tab\t' } });
    assert.equal(new ParseCache(dir, NODE_CACHE_IO, ID).segment('root').get('a', 'other-key'), undefined);
    assert.equal(new ParseCache(dir, NODE_CACHE_IO, ID).segment('other-root').get('a', 'key-a'), undefined);
  });

  it('ignores a file written by other code (another identity) or in another format', () => {
    const dir = f.path('cache');
    saved(dir, { a: 1 });
    assert.equal(recalled(dir, 'a', 'another-version'), undefined);
    const file = cacheFile(dir);
    const text = fs.readFileSync(file, 'utf8');
    fs.writeFileSync(file, text.replace('"format":1', '"format":2'));
    assert.equal(recalled(dir, 'a'), undefined);
  });

  it('ignores a truncated file, a flipped byte, an empty file and one that is not a cache at all', () => {
    const dir = f.path('cache');
    saved(dir, { a: { name: 'abcdef' }, b: { name: 'ghijkl' } });
    const file = cacheFile(dir);
    const good = fs.readFileSync(file);
    for (let cut = 0; cut < good.length; cut += Math.max(1, Math.floor(good.length / 40))) {
      fs.writeFileSync(file, good.subarray(0, cut));
      assert.equal(recalled(dir, 'a'), undefined, `cut at ${cut}`);
    }
    const flipped = Buffer.from(good);
    const at = flipped.indexOf('abcdef');
    flipped[at] = 'A'.charCodeAt(0);
    fs.writeFileSync(file, flipped);
    assert.equal(recalled(dir, 'a'), undefined);
    for (const junk of ['', '\n', 'null\n', '{"magic":"skillgate-parse-cache"}\n', 'not json at all']) {
      fs.writeFileSync(file, junk);
      assert.equal(recalled(dir, 'a'), undefined, JSON.stringify(junk));
    }
    fs.writeFileSync(file, good);
    assert.deepEqual(recalled(dir, 'a'), { name: 'abcdef' });
  });

  it('writes and reads a file larger than the pieces it is written and read in, entry for entry', () => {
    const dir = f.path('cache');
    // About 3 MB of entries, with characters of 1 to 4 UTF-8 bytes falling on every piece boundary.
    const entries: Record<string, unknown> = {};
    for (let i = 0; i < 300; i++) entries[`u${i}`] = { i, text: `é€😀x`.repeat(1000 + i) };
    saved(dir, entries);
    const seg = new ParseCache(dir, NODE_CACHE_IO, ID).segment('root');
    for (const [unit, value] of Object.entries(entries)) assert.deepEqual(seg.get(unit, `key-${unit}`), value, unit);
    const bytes = fs.readFileSync(cacheFile(dir));
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 5) ^ 1, bytes.length - 5);
    fs.writeFileSync(cacheFile(dir), bytes);
    assert.equal(recalled(dir, 'u0'), undefined);
  });

  it('writes an entry longer than a piece whole, between short ones, each line as the format spells it', () => {
    const dir = f.path('cache');
    // 1.5 M characters of 1 to 4 UTF-8 bytes: longer than a piece even as one-byte text.
    const entries: Record<string, unknown> = { a: 1, long: { text: `é€😀x`.repeat(300_000) }, z: ['\u2028', '\t'] };
    saved(dir, entries);
    const lines = fs.readFileSync(cacheFile(dir), 'utf8').split('\n');
    assert.deepEqual(
      lines.slice(1),
      Object.entries(entries).map(
        ([u, v]) => `${JSON.stringify(u)}\t${JSON.stringify(`key-${u}`)}\t${JSON.stringify(v)}`,
      ),
    );
    const seg = new ParseCache(dir, NODE_CACHE_IO, ID).segment('root');
    for (const [unit, value] of Object.entries(entries)) assert.deepEqual(seg.get(unit, `key-${unit}`), value, unit);
  });

  it('rebuilds a corrupt file on the next save', () => {
    const dir = f.path('cache');
    saved(dir, { a: 1 });
    fs.writeFileSync(cacheFile(dir), 'garbage');
    saved(dir, { a: 2 });
    assert.equal(recalled(dir, 'a'), 2);
  });

  it('reads no entry another user could have written: a directory or file others can write, a file linked twice', function () {
    if (process.platform === 'win32') this.skip(); // no owner or mode bits to check
    const dir = f.path('cache');
    saved(dir, { a: { forged: false } });
    const file = cacheFile(dir);
    // Another local user with write access forges an entry whose header and CRC are right.
    fs.chmodSync(dir, 0o777);
    assert.equal(recalled(dir, 'a'), undefined, 'a directory others can write');
    saved(dir, { a: { forged: true } });
    fs.chmodSync(dir, 0o700);
    assert.deepEqual(recalled(dir, 'a'), { forged: false }, 'nothing is written into such a directory');
    fs.chmodSync(file, 0o620);
    assert.equal(recalled(dir, 'a'), undefined, 'a file the group can write');
    fs.chmodSync(file, 0o600);
    fs.linkSync(file, f.path('elsewhere'));
    assert.equal(recalled(dir, 'a'), undefined, 'a file linked twice');
    fs.unlinkSync(f.path('elsewhere'));
    assert.deepEqual(recalled(dir, 'a'), { forged: false });
  });

  it('treats a FIFO, a link or a device in place of its file as a miss, without waiting or reading on', function () {
    if (process.platform === 'win32') this.skip();
    this.timeout(60000);
    const dir = f.path('cache');
    saved(dir, { a: 1 });
    const file = cacheFile(dir);
    // A child process, so a read that blocks (a FIFO nobody writes) or never ends (/dev/zero) fails the test.
    const recalledInChild = () =>
      spawnSync(
        process.execPath,
        [
          '-r',
          'tsx/cjs',
          '-e',
          `const { ParseCache } = require(${JSON.stringify(path.resolve(__dirname, '../../src/core/cache/parseCache'))});
           const v = new ParseCache(${JSON.stringify(dir)}, undefined, ${JSON.stringify(ID)}).segment('root').get('a', 'key-a');
           process.stdout.write(JSON.stringify(v ?? null));`,
        ],
        { encoding: 'utf8', timeout: 15000, cwd: path.resolve(__dirname, '../..') },
      );
    const good = fs.readFileSync(file);
    fs.rmSync(file);
    execFileSync('mkfifo', [file]);
    const fifo = recalledInChild();
    assert.deepEqual([fifo.stdout, fifo.signal], ['null', null], 'a FIFO');
    fs.rmSync(file);
    fs.symlinkSync('/dev/zero', file);
    const device = recalledInChild();
    assert.deepEqual([device.stdout, device.signal], ['null', null], 'a link to a device');
    // A link to a good file elsewhere: the cache's files are never links.
    fs.writeFileSync(f.path('elsewhere'), good);
    fs.rmSync(file);
    fs.symlinkSync(f.path('elsewhere'), file);
    assert.equal(recalled(dir, 'a'), undefined, 'a link');
  });

  it('stops reading a file whose first line is longer than any header', () => {
    const dir = f.path('cache');
    saved(dir, { a: 1 });
    fs.writeFileSync(cacheFile(dir), Buffer.alloc(8 << 20, 0x20));
    let read = 0;
    const counting: CacheIo = {
      ...NODE_CACHE_IO,
      readFile: (file, take) => NODE_CACHE_IO.readFile(file, (piece) => ((read += piece.length), take(piece))),
    };
    assert.equal(recalled(dir, 'a', ID, counting), undefined);
    assert.ok(read <= 1 << 20, `${read} bytes read`);
  });

  it('treats an unreadable file as a miss and a failed write as nothing written (injected failures)', () => {
    const dir = f.path('cache');
    saved(dir, { a: 1 });
    const failing = (call: keyof CacheIo): CacheIo => ({
      ...NODE_CACHE_IO,
      [call]: () => {
        throw Object.assign(new Error(`EACCES: ${call}`), { code: 'EACCES' });
      },
    });
    assert.equal(recalled(dir, 'a', ID, failing('readFile')), undefined);
    for (const call of ['mkdir', 'writeFile', 'rename', 'list', 'unlink'] as const) {
      assert.doesNotThrow(() => saved(dir, { a: call }, ID, failing(call)), call);
      // A failed write leaves the last good file and no temporary file behind.
      assert.deepEqual(
        fs.readdirSync(dir).filter((n) => n.endsWith('.tmp')),
        [],
        call,
      );
    }
    assert.equal(recalled(dir, 'a'), 'unlink');
  });

  it('keeps only the entries the last run used', () => {
    const dir = f.path('cache');
    saved(dir, { a: 1, b: 2 });
    const cache = new ParseCache(dir, NODE_CACHE_IO, ID);
    cache.beginRun();
    assert.equal(cache.segment('root').get('a', 'key-a'), 1);
    cache.save();
    assert.equal(recalled(dir, 'a'), 1);
    assert.equal(recalled(dir, 'b'), undefined);
  });

  it('does not rewrite a file when the run used exactly what it holds', () => {
    const dir = f.path('cache');
    saved(dir, { a: 1 });
    const writes: string[] = [];
    const io: CacheIo = {
      ...NODE_CACHE_IO,
      writeFile: (file, data) => (writes.push(file), NODE_CACHE_IO.writeFile(file, data)),
    };
    const cache = new ParseCache(dir, io, ID);
    assert.equal(cache.segment('root').get('a', 'key-a'), 1);
    cache.save();
    assert.deepEqual(writes, []);
  });

  it('keeps at most a bounded number of segment files, dropping the oldest', () => {
    const dir = f.path('cache');
    const seen = new Set<string>();
    for (let i = 0; i < MAX_SEGMENT_FILES + 3; i++) {
      const cache = new ParseCache(dir, NODE_CACHE_IO, ID);
      cache.segment(`root-${i}`).put('a', 'k', i);
      cache.save();
      // Each new file older than the next: a clock that does not tick between saves cannot order them.
      for (const n of fs.readdirSync(dir).filter((n) => !seen.has(n))) {
        seen.add(n);
        fs.utimesSync(path.join(dir, n), new Date(1000 * (i + 1)), new Date(1000 * (i + 1)));
      }
    }
    assert.equal(fs.readdirSync(dir).filter((n) => n.endsWith('.cache')).length, MAX_SEGMENT_FILES);
    const value = (i: number) => new ParseCache(dir, NODE_CACHE_IO, ID).segment(`root-${i}`).get('a', 'k');
    assert.equal(value(0), undefined);
    assert.equal(value(MAX_SEGMENT_FILES + 2), MAX_SEGMENT_FILES + 2);
  });

  it('gives readers a whole file from one writer while several processes write at once', async function () {
    this.timeout(60000);
    const dir = f.path('cache');
    const script = f.write(
      'writer.ts',
      `import { ParseCache } from ${JSON.stringify(path.resolve(__dirname, '../../src/core/cache/parseCache'))};
const [dir, writer] = process.argv.slice(2);
for (let round = 0; round < 25; round++) {
  const cache = new ParseCache(dir, undefined, ${JSON.stringify(ID)});
  const seg = cache.segment('root');
  for (let u = 0; u < 50; u++) seg.put('unit-' + u, 'k', { writer, round, pad: 'x'.repeat(2000) });
  cache.save();
}
`,
    );
    const writers = [0, 1, 2, 3].map(
      (w) =>
        new Promise<number | null>((resolve) =>
          spawn(process.execPath, ['--require', 'tsx/cjs', script, dir, `w${w}`], {
            cwd: path.resolve(__dirname, '../..'),
            stdio: 'inherit',
          }).on('exit', resolve),
        ),
    );
    let done = false;
    const all = Promise.all(writers).then((codes) => ((done = true), codes));
    let reads = 0;
    while (!done) {
      const seg = new ParseCache(dir, NODE_CACHE_IO, ID).segment('root');
      const values = Array.from(
        { length: 50 },
        (_, u) => seg.get(`unit-${u}`, 'k') as { writer: string; round: number },
      );
      if (values[0] !== undefined) {
        reads++;
        // Every entry from the same writer and round: never a mix, never a half-written file.
        for (const v of values) assert.deepEqual([v?.writer, v?.round], [values[0].writer, values[0].round]);
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    assert.deepEqual(await all, [0, 0, 0, 0]);
    assert.ok(reads > 0);
    assert.deepEqual(
      fs.readdirSync(dir).filter((n) => n.endsWith('.tmp')),
      [],
    );
  });

  it('lives in the per-user cache directory, never the state directory, and nowhere without a home', () => {
    assert.equal(defaultCacheDirectory({ SKILLGATE_CACHE_DIR: 'rel/c', HOME: '/h' }, 'linux'), path.resolve('rel/c'));
    assert.equal(defaultCacheDirectory({ HOME: '/h' }, 'linux'), '/h/.cache/skillgate');
    assert.equal(defaultCacheDirectory({ HOME: '/h', XDG_CACHE_HOME: '/x' }, 'linux'), '/x/skillgate');
    assert.equal(defaultCacheDirectory({ HOME: '/h', XDG_CACHE_HOME: 'relative' }, 'linux'), '/h/.cache/skillgate');
    assert.equal(defaultCacheDirectory({ HOME: '/h' }, 'darwin'), '/h/Library/Caches/skillgate');
    assert.equal(
      defaultCacheDirectory({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32'),
      path.join('C:\\Users\\u\\AppData\\Local', 'skillgate-cache'),
    );
    assert.equal(defaultCacheDirectory({}, 'linux'), undefined);
    assert.equal(defaultCacheDirectory({}, 'win32'), undefined);
  });
});
