import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { hashBundleContent, MAX_HASHED_BYTES, type ContentWalk } from '../../src/core/hashing/bundleContent';
import { readBundleTree } from '../../src/core/hashing/treeRead';
import {
  FAILED,
  LEAD,
  LEAD_BYTES,
  packTreeRead,
  POSTED,
  READING,
  RESUME_LEAD,
  TAKEN,
  unpackTreeRead,
  type PackedTree,
  type TreeReadAhead,
} from '../../src/core/hashing/readAhead';
import { WorkerReadAhead } from '../../src/cli/workerReadAhead';
import { ReadAheadPool, startReadAhead } from '../../src/cli/readAheadPool';
import { sha256Hex } from '../../src/core/hashing/framing';
import { Indexer } from '../../src/core/index/indexer';
import { EMPTY_TRUST } from '../../src/core/decisions/trustView';
import { generateWorkspace } from '../../bench/syntheticWorkspace';
import { Fixture } from './helpers/fixture';
import { NODE_BUNDLE, sameSnapshot } from './helpers/nodeBundle';

const READER_ENTRY = path.resolve(__dirname, '../../src/cli/treeReader.ts');
const MANIFEST = Buffer.from('{"$schema":"x","name":"b"}');

/** Everything a walk yields, with its retained bytes as plain entries (a Map compares by reference otherwise). */
const walked = (w: ContentWalk) => (w.ok ? { ...w, retained: [...w.retained] } : w);

/**
 * The CLI's read-ahead (docs/read-ahead.md): a reader thread walks the announced bundles
 * with the walk's own code, and the walk hashes what it read, exactly as a walk of its
 * own would; anything it does not hold, or a reader that fails, leaves the walk to read.
 */
describe('the read-ahead of bundle trees', function () {
  this.timeout(60000);
  let dir: string;
  let script: string;
  let f: Fixture;
  const readers: WorkerReadAhead[] = [];
  const reader = (s = script, patienceMs?: number) => {
    const r = new WorkerReadAhead(s, patienceMs);
    readers.push(r);
    return r;
  };

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-read-ahead-'));
    script = path.join(dir, 'treeReader.js');
    // Built as esbuild.mjs builds it: a standalone bundle, the walk's modules inside.
    buildSync({ ...NODE_BUNDLE, entryPoints: [READER_ENTRY], outfile: script });
  });
  beforeEach(() => (f = new Fixture()));
  afterEach(() => {
    for (const r of readers.splice(0)) r.dispose();
    f.remove();
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Until the reader has posted `n` reads: the walk takes only what the reader reached. */
  const posted = async (ahead: { readonly posted: number }, n: number) => {
    for (let i = 0; i < 500 && ahead.posted < n; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(ahead.posted, n);
  };
  const settle = () => new Promise((resolve) => setTimeout(resolve, 300));
  /** Each root's walk with the read-ahead is exactly its walk without. */
  const sameWalks = (roots: readonly string[], ahead: TreeReadAhead, keep: (rel: string) => boolean = () => false) => {
    for (const root of roots) {
      const own = hashBundleContent(root, 'plugin.json', MANIFEST, keep);
      assert.deepEqual(
        walked(hashBundleContent(root, 'plugin.json', MANIFEST, keep, ahead.take(root))),
        walked(own),
        root,
      );
    }
  };
  /** A stand-in reader script: `body` runs with `workerData` and the shared `state` (its slots by their names). */
  const stubReader = (name: string, body: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(
      file,
      `const { workerData } = require('node:worker_threads');\nconst state = new Int32Array(workerData.state);\n${body}`,
    );
    return file;
  };

  /** Bundles that walk, and bundles that stop the walk each in its own way. */
  const bundles = (): string[] => {
    const ok = f.mkdir('b-ok');
    f.write('b-ok/plugin.json', MANIFEST);
    f.write('b-ok/bin/run.sh', '#!/bin/sh\n', 0o755);
    f.write('b-ok/skills/a/SKILL.md', '---\nname: a\n---\nbody\n');
    f.write('b-ok/empty', '');
    f.mkdir('b-ok/skills/nothing-here');
    fs.writeFileSync(
      Buffer.concat([Buffer.from(path.join(ok, 'skills') + '/n'), Buffer.from([0xff]), Buffer.from('.md')]),
      'raw',
    );
    f.write('b-link/plugin.json', MANIFEST);
    f.symlink('/etc/hostname', 'b-link/escape');
    f.write('b-fifo/plugin.json', MANIFEST);
    execFileSync('mkfifo', [f.path('b-fifo/pipe')]);
    f.write('b-rawdir/plugin.json', MANIFEST);
    fs.mkdirSync(Buffer.concat([Buffer.from(f.path('b-rawdir') + '/d'), Buffer.from([0xfe])]));
    fs.writeFileSync(
      Buffer.concat([Buffer.from(f.path('b-rawdir') + '/d'), Buffer.from([0xfe]), Buffer.from('/f')]),
      'y',
    );
    return ['b-ok', 'b-link', 'b-fifo', 'b-rawdir', 'b-missing'].map((b) => f.path(b));
  };

  it('packs a read into one buffer and back, names that are not UTF-8 and a failure included', () => {
    for (const root of bundles()) {
      const read = readBundleTree(root);
      const { tree, transfer } = packTreeRead(7, root, read);
      assert.equal(transfer.length, 1);
      // As postMessage carries it: a structured clone, the bytes transferred.
      const { framed, ...unpacked } = unpackTreeRead(structuredClone(tree, { transfer }));
      // The reader adds each file's digest; each file's bytes are a view into the frames.
      const digested = read.steps.map((s) => (s.kind === 'file' ? { ...s, sha256: sha256Hex(s.bytes) } : s));
      assert.deepEqual(unpacked, { ...read, steps: digested }, root);
      for (const s of unpacked.steps) if (s.kind === 'file') assert.equal(s.bytes.buffer, framed?.buffer);
    }
  });

  it('refuses to unpack a read whose digests fall short, rather than list a file without its hash', () => {
    const root = bundles()[0] as string;
    const { tree } = packTreeRead(7, root, readBundleTree(root));
    // The reader falls back to a walk of its own when unpacking throws (WorkerReadAhead.unpacked).
    assert.throws(() => unpackTreeRead({ ...tree, digests: tree.digests.slice(0, -1) }), /without its digests/);
  });

  it('gives the walk the very result of a walk of its own, for every kind of bundle', async () => {
    const roots = bundles();
    const ahead = reader();
    ahead.announce(roots);
    await posted(ahead, roots.length);
    const keep = (rel: string) => rel.endsWith('.md');
    sameWalks(roots, ahead, keep);
    assert.equal(ahead.reads, roots.length, 'every bundle came from the reader');
    const ok = hashBundleContent(roots[0] as string, 'plugin.json', MANIFEST, keep);
    assert.ok(ok.ok && ok.files.some((file) => file.rawPath) && ok.retained.size === 2);
  });

  it('a walk stopped in the reader thread arrives saying which failure it met, as its kind', async () => {
    const [, link, fifo, , missing] = bundles();
    f.write('b-file', 'not a folder');
    // Past the byte budget by its size alone: a sparse file, refused before it is read.
    f.write('b-big/plugin.json', MANIFEST);
    fs.truncateSync(f.write('b-big/huge.bin', ''), MAX_HASHED_BYTES + 1);
    // A path full of another failure's words: the kind is the failure's, whatever the path says.
    f.write('b-words/plugin.json', MANIFEST);
    execFileSync('mkfifo', [f.path('b-words/x changed length while being reviewed')]);
    const expected = new Map([
      [link as string, 'symlink'],
      [fifo as string, 'special-file'],
      [missing as string, 'unreadable'],
      [f.path('b-file'), 'root-not-directory'],
      [f.path('b-big'), 'byte-limit'],
      [f.path('b-words'), 'special-file'],
    ]);
    const ahead = reader();
    ahead.announce([...expected.keys()]);
    await posted(ahead, expected.size);
    for (const [root, kind] of expected) {
      const failure = ahead.take(root)?.failure;
      assert.equal(failure?.kind, kind, root);
      assert.deepEqual(failure, readBundleTree(root).failure, root);
    }
    assert.equal(ahead.reads, expected.size, 'every failure came from the reader');
  });

  it('refuses a packed failure without a kind it knows, rather than guess one from the message', () => {
    const root = bundles()[1] as string;
    const { tree } = packTreeRead(7, root, readBundleTree(root));
    const failure = tree.failure as NonNullable<PackedTree['failure']>;
    const { kind: _dropped, ...older } = failure;
    // The reader falls back to a walk of its own when unpacking throws (WorkerReadAhead.unpacked).
    // Forms no reader of this build posts: a failure of an older build's form, and a kind the walk does not name.
    for (const foreign of [older, { ...failure, kind: 'bogus' }])
      assert.throws(() => unpackTreeRead({ ...tree, failure: foreign } as unknown as PackedTree), /without a kind/);
  });

  it('holds only what was announced and not passed: the walk reads the rest itself', async () => {
    const roots = bundles();
    const ahead = reader();
    ahead.announce(roots);
    await posted(ahead, roots.length);
    assert.equal(ahead.take(f.path('elsewhere')), undefined, 'never announced');
    // The walk skips the first two (no manifest, say): the reader's reads of them are dropped.
    assert.ok(ahead.take(roots[2] as string));
    assert.equal(ahead.take(roots[0] as string), undefined, 'passed');
    assert.equal(ahead.take(roots[2] as string), undefined, 'taken once');
    assert.ok(ahead.take(roots[3] as string));
  });

  it('keeps its places in step with the reader when a root is announced again', async () => {
    const roots = bundles();
    const ahead = reader();
    ahead.announce(roots.slice(0, 2));
    ahead.announce([roots[0] as string, roots[2] as string]);
    await posted(ahead, 4);
    assert.ok(ahead.take(roots[0] as string));
    assert.ok(ahead.take(roots[2] as string), 'the read at its own place, not the repeated root');
    assert.equal(ahead.reads, 2);
  });

  it('runs at most LEAD bundles ahead of the walk, and on once the walk has taken half of them', async () => {
    const roots: string[] = [];
    for (let i = 0; i < 2 * LEAD + 8; i++)
      roots.push(f.write(`many/p${i}/plugin.json`, MANIFEST).replace(/\/plugin\.json$/, ''));
    const ahead = reader();
    ahead.announce(roots);
    await posted(ahead, LEAD);
    await settle();
    assert.equal(ahead.posted, LEAD);
    // Asleep until the walk is RESUME_LEAD behind: a wake per bundle taken cost the walk more than the reads.
    assert.ok(ahead.take(roots[10] as string));
    await settle();
    assert.equal(ahead.posted, LEAD, 'not woken for every bundle taken');
    assert.ok(ahead.take(roots[LEAD - RESUME_LEAD - 1] as string));
    await settle();
    assert.equal(ahead.posted, LEAD - RESUME_LEAD + LEAD, 'woken, it reads on up to LEAD ahead');
    assert.ok(ahead.take(roots[LEAD] as string));
    assert.equal(ahead.reads, 3);
  });

  it('stops reading ahead past LEAD_BYTES waiting, whatever the count', async () => {
    const big = Buffer.alloc(LEAD_BYTES / 2 + 1);
    const roots = [0, 1, 2, 3].map((i) => {
      f.write(`big/p${i}/plugin.json`, MANIFEST);
      f.write(`big/p${i}/blob`, big);
      return f.path(`big/p${i}`);
    });
    const ahead = reader();
    ahead.announce(roots);
    await posted(ahead, 2);
    await settle();
    assert.equal(ahead.posted, 2, 'the second read passes the bound; no third is read');
    assert.ok(ahead.take(roots[0] as string));
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(ahead.posted, 3);
  });

  it('never waits for a bundle the reader has not reached: the walk reads it, and the reader skips it', async () => {
    const roots = bundles();
    // A reader still busy with the first bundle (one the walk will pass without walking, say).
    const stuck = stubReader(
      'stuck.js',
      `workerData.port.on('message', () => { Atomics.store(state, ${READING}, 0); Atomics.wait(state, ${TAKEN}, 0); });`,
    );
    const ahead = reader(stuck, 60000);
    ahead.announce(roots);
    await settle();
    const started = Date.now();
    sameWalks([roots[1] as string], ahead);
    assert.ok(Date.now() - started < 5000, 'read in place at once');
    assert.equal(ahead.reads, 0);
  });

  it('a reader that fails, or posts reads of another form, leaves every walk to the walk', () => {
    const roots = bundles();
    const failing = stubReader(
      'failing.js',
      `workerData.port.on('message', () => { Atomics.store(state, ${FAILED}, 1); Atomics.notify(state, ${POSTED}); });`,
    );
    const foreign = stubReader(
      'foreign.js',
      `workerData.port.on('message', (roots) => roots.forEach((root, seq) => {
         workerData.port.postMessage({ format: 0, seq, root, steps: [] });
         Atomics.add(state, ${POSTED}, 1); Atomics.notify(state, ${POSTED});
       }));`,
    );
    const silent = stubReader('silent.js', `workerData.port.on('message', () => {});`);
    for (const s of [failing, foreign, silent]) {
      const ahead = reader(s, 200);
      ahead.announce(roots);
      sameWalks(roots, ahead);
      assert.equal(ahead.reads, 0, s);
    }
  });

  it('indexes a workspace to the same snapshot as an index without it', async () => {
    const ws = f.mkdir('ws');
    generateWorkspace(ws, 40);
    const options = { workspaces: [ws], codewhaleHome: null };
    const ahead = reader();
    // Announced once before, read to the end: the index's own announcement keeps their places.
    const plugins = fs.realpathSync(path.join(ws, '.codewhale', 'plugins'));
    ahead.announce(fs.readdirSync(plugins).map((name) => path.join(plugins, name)));
    await posted(ahead, 40);
    const withReader = new Indexer({ ...options, readAhead: ahead }).indexAll();
    const without = new Indexer(options).indexAll();
    sameSnapshot(withReader, without, 'the index with the reader differs');
    assert.equal(ahead.reads, 40);
  });

  it('stops its reader once the index has loaded every unit, before the index composes', async () => {
    const ws = f.mkdir('ws');
    generateWorkspace(ws, 12);
    const options = { workspaces: [ws], codewhaleHome: null };
    const ahead = reader();
    const events: string[] = [];
    const recording: TreeReadAhead = {
      announce: (roots) => ahead.announce(roots),
      take: (root) => {
        events.push('take');
        return ahead.take(root);
      },
      finish: () => {
        events.push('finish');
        ahead.finish();
      },
    };
    const trust = () => {
      events.push('compose');
      return EMPTY_TRUST;
    };
    const indexer = new Indexer({ ...options, readAhead: recording, trust });
    const snapshot = indexer.indexAll();
    assert.deepEqual(events.slice(events.indexOf('finish')), ['finish', 'compose']);
    assert.equal(events.filter((e) => e === 'take').length, 12);
    await ahead.exited;
    // After it, a bundle is read by the walk: a refresh still sees what is on disk.
    const plugins = path.join(ws, '.codewhale', 'plugins');
    const first = path.join(plugins, fs.readdirSync(plugins).sort()[0] as string);
    fs.writeFileSync(path.join(first, 'README.md'), 'changed\n');
    const refreshed = indexer.refresh([path.join(first, 'README.md')]);
    sameSnapshot(refreshed, new Indexer(options).indexAll(), 'the refresh after the reader stopped differs');
    assert.notDeepEqual(refreshed.items, snapshot.items);
  });

  describe('on several reader threads', () => {
    const pools: ReadAheadPool[] = [];
    afterEach(() => {
      for (const p of pools.splice(0)) p.dispose();
    });

    it('deals the roots out in turn and gives every walk the very result of its own', async () => {
      const roots = bundles();
      const first = reader();
      const second = reader();
      const pool = new ReadAheadPool([first, second]);
      pools.push(pool);
      pool.announce(roots);
      await posted(first, 3); // places 0, 2, 4
      await posted(second, 2); // places 1, 3
      sameWalks(roots, pool, (rel) => rel.endsWith('.md'));
      assert.deepEqual([first.reads, second.reads, pool.reads], [3, 2, 5]);
    });

    it("leaves a failed reader's share to the walk while the others read on", async () => {
      const roots = bundles();
      const broken = reader(stubReader('fails-at-once.js', `throw new Error('no reader here');`), 200);
      const working = reader();
      const pool = new ReadAheadPool([broken, working]);
      pools.push(pool);
      pool.announce(roots);
      await posted(working, 2);
      await settle();
      sameWalks(roots, pool);
      assert.deepEqual([broken.reads, working.reads], [0, 2]);
    });

    it('indexes a workspace as the CLI starts it, to the same snapshot as an index without it', async () => {
      const ws = f.mkdir('ws');
      generateWorkspace(ws, 40);
      const options = { workspaces: [ws], codewhaleHome: null };
      assert.equal(startReadAhead(path.join(dir, 'no-such-reader.js')), undefined, 'no script, no read-ahead');
      const pool = startReadAhead(script);
      assert.ok(pool);
      pools.push(pool);
      // Announced before, read to the end (as the earlier test does for one reader): every walk takes a read.
      const plugins = fs.realpathSync(path.join(ws, '.codewhale', 'plugins'));
      pool.announce(
        fs
          .readdirSync(plugins)
          .sort()
          .map((name) => path.join(plugins, name)),
      );
      await posted(pool, 40);
      const withReaders = new Indexer({ ...options, readAhead: pool }).indexAll();
      sameSnapshot(withReaders, new Indexer(options).indexAll(), 'the index with the readers differs');
      assert.equal(pool.reads, 40);
      // The index finished the pool: every reader's thread is gone.
      await Promise.all(pool.threadsExited());
    });
  });
});
