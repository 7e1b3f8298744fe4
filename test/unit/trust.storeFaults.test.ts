import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { TrustStore } from '../../src/core/trust/trustStore';
import { doctor } from '../../src/core/trust/doctor';
import { Fixture } from './helpers/fixture';

/**
 * trust.md "The trust store": writes take an exclusive lock, re-read the file inside it,
 * write a temporary file, flush and rename it; no update is lost, no temporary file is
 * left behind, and a store that turned bad is never overwritten. The failures of the
 * file system and of the lock that a healthy machine never shows (a full disk, a lock
 * that cannot be taken, a directory another process creates at the same moment) are
 * injected here into `fs` and into the locking library, in this process, so that each
 * guard is seen by the tests that measure it (tests run as root: permissions cannot make
 * these fail).
 */

type Lock = (file: string, options: Record<string, unknown>) => Promise<() => Promise<void>>;

const nodeFs = require('node:fs') as Record<string, unknown>;
const lockfile = require('proper-lockfile') as { lock: Lock };

const KEY = 'a'.repeat(64);
const entry = {
  system: 'codewhale' as const,
  scope: 'workspace' as const,
  name: 'x',
  path: '/x',
  generation: 0,
  enabled: false,
  trust: null,
  reviewHistory: [],
};

describe('the trust store under injected file-system and lock failures (trust.md "The trust store")', () => {
  let f: Fixture;
  const restores: (() => void)[] = [];
  beforeEach(() => {
    f = new Fixture();
    applied = 0;
  });
  afterEach(() => {
    while (restores.length) restores.pop()?.();
    f.remove();
  });

  /** Replaces `obj[name]` for this test; `make` receives the original. */
  function replace<T>(obj: Record<string, unknown>, name: string, make: (original: T) => T): void {
    const original = obj[name] as T;
    obj[name] = make(original);
    restores.push(() => {
      obj[name] = original;
    });
  }

  const LOST = (file: string) =>
    `the trust store ${file} changed while this update was being made (another process took over its lock or rewrote it); nothing was written; try again`;
  let applied = 0;
  const add = (s: { bundles: Record<string, unknown> }) => {
    applied++;
    s.bundles[KEY] = { ...entry };
    return { ok: true as const, value: 'added' };
  };
  /** A store with one entry on disk; returns its text. */
  const seeded = async () => {
    const store = new TrustStore(f.path('state'));
    const r = await store.mutate((s) => {
      s.bundles['b'.repeat(64)] = { ...entry, name: 'seed' };
      return { ok: true, value: null };
    });
    assert.ok(r.ok);
    applied = 0;
    return { store, text: fs.readFileSync(store.file, 'utf8') };
  };
  const listing = () => fs.readdirSync(f.path('state')).sort();

  describe('the lock', () => {
    it('refuses the write with the reason when the lock cannot be taken, and writes nothing', async () => {
      const { store, text } = await seeded();
      replace<Lock>(lockfile, 'lock', () => async () => {
        throw Object.assign(new Error('Lock file is already being held'), { code: 'ELOCKED' });
      });
      assert.deepEqual(await store.mutate(add), {
        ok: false,
        message: `failed to lock the trust store ${store.file} for update: ELOCKED: Lock file is already being held; if no Skillgate is writing it now, remove the lock directory ${store.file}.lock and try again`,
      });
      assert.equal(applied, 0);
      assert.equal(fs.readFileSync(store.file, 'utf8'), text);
      assert.deepEqual(listing(), ['state.json']);
    });

    it('takes the lock beside state.json, taken over after 5 s without a refresh (or the period it is given)', async () => {
      const seen: Record<string, unknown>[] = [];
      replace<Lock>(lockfile, 'lock', (real) => (file, options) => {
        seen.push(options);
        return real(file, options);
      });
      const store = new TrustStore(f.path('state'));
      assert.ok((await store.mutate(add)).ok);
      assert.ok((await new TrustStore(f.path('state'), { lockStaleMs: 2000 }).mutate(add)).ok);
      assert.deepEqual(
        seen.map((o) => [o.lockfilePath, o.stale, o.realpath]),
        [
          [`${store.file}.lock`, 5000, false],
          [`${store.file}.lock`, 2000, false],
        ],
      );
    });

    it('writes nothing when its lock directory is gone the moment the lock is taken', async () => {
      const { store, text } = await seeded();
      replace<Lock>(lockfile, 'lock', (real) => async (file, options) => {
        const release = await real(file, options);
        fs.rmdirSync(`${store.file}.lock`);
        return release;
      });
      assert.deepEqual(await store.mutate(add), { ok: false, message: LOST(store.file) });
      assert.equal(applied, 0, 'the change is not even computed');
      assert.equal(fs.readFileSync(store.file, 'utf8'), text);
      assert.deepEqual(listing(), ['state.json']);
    });

    it('writes nothing when the lock library reports the lock compromised, and leaves the lock to its new owner', async () => {
      const { store, text } = await seeded();
      replace<Lock>(lockfile, 'lock', (real) => async (file, options) => {
        const release = await real(file, options);
        (options.onCompromised as (e: Error) => void)(new Error('Unable to update lock within the stale threshold'));
        return release;
      });
      assert.deepEqual(await store.mutate(add), { ok: false, message: LOST(store.file) });
      assert.equal(fs.readFileSync(store.file, 'utf8'), text);
      assert.ok(fs.statSync(`${store.file}.lock`).isDirectory(), 'a compromised lock is not ours to remove');
      assert.deepEqual(listing(), ['state.json', 'state.json.lock'], 'no temporary file');
    });

    it('re-reads inside the lock: a file that turned bad while the lock was taken is unavailable and never overwritten', async () => {
      const { store } = await seeded();
      replace<Lock>(lockfile, 'lock', (real) => async (file, options) => {
        const release = await real(file, options);
        fs.writeFileSync(store.file, 'null');
        return release;
      });
      const r = await store.mutate(add);
      assert.ok(!r.ok);
      assert.equal(
        r.message,
        `The trust store is unavailable: trust store ${store.file} has schema version undefined; this Skillgate reads version 1. Nothing was changed; run \`skillgate doctor\` to see why, and \`skillgate doctor --repair\` to move the bad file aside.`,
      );
      assert.equal(applied, 0);
      assert.equal(fs.readFileSync(store.file, 'utf8'), 'null');
      assert.deepEqual(listing(), ['state.json'], 'its own lock is released');
    });

    it('re-reads inside the lock: an update another writer committed while the lock was taken is kept', async () => {
      const { store } = await seeded();
      replace<Lock>(lockfile, 'lock', (real) => async (file, options) => {
        const release = await real(file, options);
        const raw = JSON.parse(fs.readFileSync(store.file, 'utf8'));
        raw.bundles['c'.repeat(64)] = { ...entry, name: 'other' };
        fs.writeFileSync(store.file, JSON.stringify(raw));
        return release;
      });
      assert.deepEqual(await store.mutate(add), { ok: true, value: 'added' });
      const after = store.read();
      assert.ok(after.ok);
      assert.deepEqual(Object.keys(after.state.bundles).sort(), ['a'.repeat(64), 'b'.repeat(64), 'c'.repeat(64)]);
    });

    it('writes nothing when refreshing its lock before the rename fails', async () => {
      const { store, text } = await seeded();
      replace<typeof fs.utimesSync>(nodeFs, 'utimesSync', (real) => (p, a, m) => {
        if (p === `${store.file}.lock`) throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
        real(p, a, m);
      });
      assert.deepEqual(await store.mutate(add), { ok: false, message: LOST(store.file) });
      assert.equal(fs.readFileSync(store.file, 'utf8'), text);
      assert.deepEqual(listing(), ['state.json'], 'no temporary file; its lock released');
    });

    it('writes nothing when its lock directory is replaced during the refresh (a takeover in between), and leaves the new one', async () => {
      const { store, text } = await seeded();
      const lock = `${store.file}.lock`;
      replace<typeof fs.utimesSync>(nodeFs, 'utimesSync', (real) => (p, a, m) => {
        if (p === lock) {
          fs.mkdirSync(`${lock}.new`);
          fs.rmdirSync(lock);
          fs.renameSync(`${lock}.new`, lock);
        }
        real(p, a, m);
      });
      assert.deepEqual(await store.mutate(add), { ok: false, message: LOST(store.file) });
      assert.equal(fs.readFileSync(store.file, 'utf8'), text);
      assert.ok(fs.statSync(lock).isDirectory(), 'the new owner keeps its lock');
    });
  });

  describe('the last check before the rename', () => {
    it('tells a lock taken over with the same mtime from its own by the inode', async () => {
      const { store, text } = await seeded();
      const lock = `${store.file}.lock`;
      const takeOverKeepingTime = () => {
        const { atime, mtime } = fs.statSync(lock);
        fs.mkdirSync(`${lock}.new`);
        fs.utimesSync(`${lock}.new`, atime, mtime);
        fs.rmdirSync(lock);
        fs.renameSync(`${lock}.new`, lock);
      };
      const taken = new TrustStore(f.path('state'), { beforeCommit: takeOverKeepingTime });
      assert.deepEqual(await taken.mutate(add), { ok: false, message: LOST(store.file) });
      assert.equal(fs.readFileSync(store.file, 'utf8'), text);
      assert.ok(fs.statSync(lock).isDirectory(), 'the new owner keeps its lock');
    });

    it('writes nothing when state.json, absent when read, cannot be read again before the rename', async () => {
      let failing = false;
      const file = f.path('state', 'state.json');
      replace<typeof fs.readFileSync>(
        nodeFs,
        'readFileSync',
        (real) =>
          ((p: fs.PathOrFileDescriptor, o?: unknown) => {
            if (failing && p === file) throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
            return (real as (...a: unknown[]) => unknown)(p, o);
          }) as typeof fs.readFileSync,
      );
      const store = new TrustStore(f.path('state'), { beforeCommit: () => void (failing = true) });
      assert.deepEqual(await store.mutate(add), { ok: false, message: LOST(file) });
      assert.ok(!fs.existsSync(file), 'nothing was written');
    });
  });

  describe('the state directory', () => {
    it('accepts a state directory another process created between the check and its own mkdir (EEXIST)', async () => {
      const store = new TrustStore(f.path('state'));
      replace<typeof fs.mkdirSync>(
        nodeFs,
        'mkdirSync',
        (real) =>
          ((p: fs.PathLike, o?: fs.MakeDirectoryOptions) => {
            if (p === f.path('state') && !fs.existsSync(p)) {
              real(p, { mode: 0o700 });
              throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${p}'`), { code: 'EEXIST' });
            }
            return real(p, o);
          }) as typeof fs.mkdirSync,
      );
      assert.deepEqual(await store.mutate(add), { ok: true, value: 'added' });
      const r = store.read();
      assert.ok(r.ok && Object.hasOwn(r.state.bundles, KEY));
    });

    it('refuses the write, naming the directory and the reason, when creating it fails otherwise', async () => {
      const store = new TrustStore(f.path('state'));
      replace<typeof fs.mkdirSync>(
        nodeFs,
        'mkdirSync',
        (real) =>
          ((p: fs.PathLike, o?: fs.MakeDirectoryOptions) => {
            if (p === f.path('state'))
              throw Object.assign(new Error(`EACCES: permission denied, mkdir '${p}'`), { code: 'EACCES' });
            return real(p, o);
          }) as typeof fs.mkdirSync,
      );
      assert.deepEqual(await store.mutate(add), {
        ok: false,
        message: `cannot create the trust store directory ${f.path('state')}: EACCES: permission denied`,
      });
      assert.equal(applied, 0);
      assert.ok(!fs.existsSync(f.path('state')));
    });
  });

  describe('the temporary file and the rename', () => {
    const injectOnce = (name: string, code: string) =>
      replace<(...a: unknown[]) => unknown>(nodeFs, name, (real) => {
        let armed = true;
        return (...a: unknown[]) => {
          if (armed) {
            armed = false;
            throw Object.assign(new Error(`${code}: injected`), { code });
          }
          return real(...a);
        };
      });

    for (const [name, code] of [
      ['writeSync', 'ENOSPC'],
      ['fsyncSync', 'EIO'],
      ['renameSync', 'EXDEV'],
    ] as const) {
      it(`reports a failed ${name} (${code}) with its reason, changes nothing and leaves no temporary file`, async () => {
        const { store, text } = await seeded();
        injectOnce(name, code);
        assert.deepEqual(await store.mutate(add), {
          ok: false,
          message: `failed to write the trust store ${store.file}: ${code}: injected; nothing was changed`,
        });
        assert.equal(fs.readFileSync(store.file, 'utf8'), text);
        assert.deepEqual(listing(), ['state.json'], 'no temporary file, the lock released');
        assert.deepEqual(await store.mutate(add), { ok: true, value: 'added' }, 'the next write works');
      });
    }

    // A full disk first shows as a short write (write(2) stores what fits and returns its
    // count), and only the next write fails with ENOSPC: a short write taken for the whole
    // renamed a truncated state.json over the good one and reported the update as made.
    it('writes the whole file or nothing: a short write on a filling disk is continued, and its ENOSPC changes nothing', async () => {
      const { store, text } = await seeded();
      let calls = 0;
      replace<(...a: unknown[]) => number>(nodeFs, 'writeSync', (real) => (fd, data, offset, length) => {
        calls += 1;
        if (calls > 1) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        const bytes = typeof data === 'string' ? Buffer.from(data) : (data as Buffer);
        const from = typeof offset === 'number' ? offset : 0;
        const all = typeof length === 'number' ? length : bytes.length - from;
        return real(fd, bytes, from, Math.ceil(all / 2));
      });
      assert.deepEqual(await store.mutate(add), {
        ok: false,
        message: `failed to write the trust store ${store.file}: ENOSPC: no space left on device, write; nothing was changed`,
      });
      assert.equal(fs.readFileSync(store.file, 'utf8'), text, 'the old store survives intact');
      assert.deepEqual(listing(), ['state.json'], 'no temporary file, the lock released');
    });

    // The rename is the commit: from then on every reader finds the update in state.json. A
    // directory flush that fails after it leaves the update in place, not yet durable; the
    // report said "nothing was changed" while the receipt was there.
    it('says an update is in place when only the directory flush after the rename failed, never that nothing changed', async () => {
      const { store } = await seeded();
      let calls = 0;
      replace<(fd: number) => void>(nodeFs, 'fsyncSync', (real) => (fd) => {
        calls += 1;
        // The first flush is the temporary file's, the second the directory's.
        if (calls === 2) throw Object.assign(new Error('EIO: injected'), { code: 'EIO' });
        real(fd);
      });
      assert.deepEqual(await store.mutate(add), {
        ok: false,
        message: `the trust store ${store.file} was updated, but its directory could not be flushed to disk (EIO: injected): the update is in place, and may not survive a crash until the next change to the store flushes it`,
      });
      assert.equal(calls, 2);
      const r = store.read();
      assert.ok(r.ok && r.state.bundles[KEY] !== undefined, 'the update is in state.json');
      assert.deepEqual(listing(), ['state.json'], 'no temporary file, the lock released');
    });

    it('continues a short write that the disk then completes', async () => {
      const { store } = await seeded();
      replace<(...a: unknown[]) => number>(nodeFs, 'writeSync', (real) => (fd, data, offset, length) => {
        const bytes = typeof data === 'string' ? Buffer.from(data) : (data as Buffer);
        const from = typeof offset === 'number' ? offset : 0;
        const all = typeof length === 'number' ? length : bytes.length - from;
        return real(fd, bytes, from, Math.min(all, 100));
      });
      assert.deepEqual(await store.mutate(add), { ok: true, value: 'added' });
      const r = store.read();
      assert.ok(r.ok && r.state.bundles[KEY] !== undefined && r.state.bundles['b'.repeat(64)] !== undefined);
    });

    it('writes the temporary file 0600 beside state.json, so the renamed file is private', async () => {
      const opened: [string, string, number][] = [];
      replace<typeof fs.openSync>(
        nodeFs,
        'openSync',
        (real) =>
          ((p: fs.PathLike, flags: string, mode?: number) => {
            if (typeof p === 'string' && p.includes('.tmp-')) opened.push([p, flags, mode as number]);
            return real(p, flags, mode);
          }) as typeof fs.openSync,
      );
      const store = new TrustStore(f.path('state'));
      assert.ok((await store.mutate(add)).ok);
      assert.equal(opened.length, 1);
      const [tmp, flags, mode] = opened[0] as [string, string, number];
      assert.match(tmp, new RegExp(`^${store.file.replace(/[.]/g, '\\.')}\\.tmp-${process.pid}-[0-9a-f]{12}$`));
      assert.deepEqual([flags, mode], ['wx', 0o600]);
      assert.equal(fs.statSync(store.file).mode & 0o777, 0o600);
    });
  });

  describe('doctor --repair', () => {
    // A read-only file system: the CLI printed `internal error: EROFS …` with exit code 2,
    // and under --json no object at all.
    it('reports a bad file it cannot move aside, with the reason, and leaves it as it is', () => {
      const store = new TrustStore(f.path('state'));
      f.write('state/state.json', '{bad', 0o600);
      fs.chmodSync(f.path('state'), 0o700);
      replace<typeof fs.renameSync>(nodeFs, 'renameSync', () => () => {
        throw Object.assign(new Error(`EROFS: read-only file system, rename '${store.file}'`), { code: 'EROFS' });
      });
      const report = doctor(store, { repair: true });
      assert.equal(report.movedAside, null);
      assert.equal(report.repairable, true);
      assert.match(
        report.problem ?? '',
        /is not valid JSON \(.*\); it could not be moved aside \(EROFS: read-only file system\)$/,
      );
      assert.equal(fs.readFileSync(store.file, 'utf8'), '{bad');
    });
  });
});
