import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readBundleSource } from '../../src/core/trust/bundleSource';
import { removeTree, copyReviewed, verifyReviewedCopy } from '../../src/core/trust/reviewedCopy';
import { Fixture, writeW, byName, LINUX_HOST, index } from './helpers/fixture';

/**
 * trust.md "Snapshots of what was reviewed": the covered files copied read-only into
 * `snapshots/<contentHash>/`, kept only when the copy re-hashes to the approved hash.
 */
describe('snapshots of what was reviewed (trust.md)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());
  const W = 'ws/.codewhale/plugins/example-plugin';
  const source = () => {
    const r = readBundleSource(byName(index([f.path('ws')]), 'example-plugin'), LINUX_HOST);
    assert.ok(r.ok, r.ok ? '' : r.message);
    return r.source;
  };

  it('copies the files read-only (0444, 0555 for executables), empty directories too, and verifies the copy', () => {
    writeW(f);
    f.write(`${W}/run.sh`, '#!/bin/sh\n', 0o755);
    f.mkdir(`${W}/empty`);
    const s = source();
    const snaps = f.path('state/snapshots');
    const r = copyReviewed(snaps, s, s.item.contentHash as string);
    assert.deepEqual(r, { ok: true, dir: path.join(snaps, s.item.contentHash as string), reused: false });
    assert.equal(fs.statSync(path.join(r.dir, 'plugin.toml')).mode & 0o777, 0o444);
    assert.equal(fs.statSync(path.join(r.dir, 'run.sh')).mode & 0o777, 0o555);
    assert.ok(fs.statSync(path.join(r.dir, 'empty')).isDirectory());
    assert.deepEqual(fs.readdirSync(snaps), [s.item.contentHash]);
    assert.ok(verifyReviewedCopy(snaps, s, s.item.contentHash as string));
  });

  it('reuses a snapshot that still verifies, and replaces one that does not', () => {
    writeW(f);
    const s = source();
    const snaps = f.path('state/snapshots');
    const hash = s.item.contentHash as string;
    assert.ok(copyReviewed(snaps, s, hash).ok);
    assert.deepEqual(copyReviewed(snaps, s, hash), { ok: true, dir: path.join(snaps, hash), reused: true });
    const copied = path.join(snaps, hash, 'skills/example/SKILL.md');
    fs.chmodSync(copied, 0o644);
    fs.writeFileSync(copied, 'tampered');
    assert.equal(verifyReviewedCopy(snaps, s, hash), false);
    assert.deepEqual(copyReviewed(snaps, s, hash), { ok: true, dir: path.join(snaps, hash), reused: false });
    assert.equal(fs.readFileSync(copied, 'utf8'), '---\nname: example\ndescription: example\n---\nbody\n');
    assert.deepEqual(fs.readdirSync(snaps), [hash], 'no staging directory left behind');
  });

  it('does not verify a snapshot that is missing, a file, or under another hash', () => {
    writeW(f);
    const s = source();
    const snaps = f.path('state/snapshots');
    const hash = s.item.contentHash as string;
    assert.equal(verifyReviewedCopy(snaps, s, hash), false);
    f.write(`state/snapshots/${hash}`, 'a file');
    assert.equal(verifyReviewedCopy(snaps, s, hash), false);
    fs.rmSync(path.join(snaps, hash));
    assert.ok(copyReviewed(snaps, s, hash).ok);
    fs.renameSync(path.join(snaps, hash), path.join(snaps, 'f'.repeat(64)));
    assert.equal(verifyReviewedCopy(snaps, s, 'f'.repeat(64)), false);
  });

  it('does not verify a snapshot that is a symbolic link, even to a directory that re-hashes right', () => {
    // Rivumi's and Eva's re-hash read the copy's files by path, through a linked root: the
    // store's own check is what keeps a copy from being whatever the link points to now.
    const hash = 'c'.repeat(64);
    const snaps = f.path('state/snapshots');
    const elsewhere = f.mkdir('elsewhere');
    fs.mkdirSync(snaps, { recursive: true });
    fs.symlinkSync(elsewhere, path.join(snaps, hash));
    let rehashed = 0;
    const rehashes = {
      rehashCopy: () => {
        rehashed++;
        return hash;
      },
    };
    assert.equal(verifyReviewedCopy(snaps, rehashes, hash), false);
    assert.equal(rehashed, 0, 'nothing is read through the link');
  });

  it('refuses when the copy does not reproduce the approved hash, leaving nothing behind', () => {
    writeW(f);
    const s = source();
    const snaps = f.path('state/snapshots');
    const r = copyReviewed(snaps, s, 'e'.repeat(64));
    assert.deepEqual(r, {
      ok: false,
      message:
        'the bundle changed while it was being trusted: its copy does not reproduce the reviewed content hash; review it again',
    });
    assert.deepEqual(fs.readdirSync(snaps), []);
  });

  it('refuses a file that turned executable while it was copied', () => {
    writeW(f);
    const s = source();
    fs.chmodSync(f.path(`${W}/plugin.toml`), 0o755);
    const r = copyReviewed(f.path('state/snapshots'), s, s.item.contentHash as string);
    assert.deepEqual(r, {
      ok: false,
      message: 'plugin.toml changed while it was being copied for trust; review the bundle again',
    });
  });

  it('refuses a file hard-linked after it was hashed, leaving nothing behind (codewhale.md §8.6)', () => {
    writeW(f);
    const s = source();
    fs.linkSync(f.path(`${W}/plugin.toml`), f.path('elsewhere.toml'));
    const snaps = f.path('state/snapshots');
    const r = copyReviewed(snaps, s, s.item.contentHash as string);
    assert.deepEqual(r, {
      ok: false,
      message: 'plugin.toml is hard-linked; Plugin content may not contain hard-linked files',
    });
    assert.deepEqual(fs.readdirSync(snaps), []);
  });

  it('refuses a file edited or deleted after it was hashed, leaving nothing behind', () => {
    writeW(f);
    const s = source();
    const skill = f.path(`${W}/skills/example/SKILL.md`);
    const snaps = f.path('state/snapshots');
    fs.writeFileSync(skill, '---\nname: example\ndescription: edited\n---\nbody\n');
    assert.deepEqual(copyReviewed(snaps, s, s.item.contentHash as string), {
      ok: false,
      message: 'skills/example/SKILL.md changed while it was being copied for trust; review the bundle again',
    });
    assert.deepEqual(fs.readdirSync(snaps), []);
    fs.rmSync(skill);
    const gone = copyReviewed(snaps, s, s.item.contentHash as string);
    assert.ok(!gone.ok && /^could not snapshot the bundle: ENOENT/.test(gone.message), JSON.stringify(gone));
    assert.deepEqual(fs.readdirSync(snaps), []);
  });

  it('refuses with the reason when copying fails, leaving nothing behind', () => {
    writeW(f);
    const s = source();
    const snaps = f.path('state/snapshots');
    const r = copyReviewed(
      snaps,
      {
        ...s,
        rehashCopy: () => {
          throw new Error('disk full');
        },
      },
      s.item.contentHash as string,
    );
    assert.deepEqual(r, { ok: false, message: 'could not snapshot the bundle: disk full' });
    assert.deepEqual(fs.readdirSync(snaps), []);
  });

  // Two trusts of the same content at once (two windows, the CLI, the same bundle in another
  // worktree): removing the other's verified copy left a window where a receipt had no copy,
  // a half-removed one when the process was killed in it, and ENOTEMPTY when it raced the rename.
  it('keeps a verified copy another trust placed while this one copied, never removing it', () => {
    writeW(f);
    const s = source();
    const snaps = f.path('state/snapshots');
    const hash = s.item.contentHash as string;
    let placedByOther: number | undefined;
    const r = copyReviewed(
      snaps,
      {
        ...s,
        rehashCopy: (dir) => {
          if (placedByOther === undefined && path.basename(dir).startsWith('.staging-')) {
            const other = copyReviewed(snaps, s, hash);
            assert.ok(other.ok && !other.reused);
            placedByOther = fs.statSync(other.dir).ino;
          }
          return s.rehashCopy(dir);
        },
      },
      hash,
    );
    assert.deepEqual(r, { ok: true, dir: path.join(snaps, hash), reused: true });
    assert.equal(fs.statSync(path.join(snaps, hash)).ino, placedByOther, 'the copy in place was not replaced');
    assert.ok(verifyReviewedCopy(snaps, s, hash));
    assert.deepEqual(fs.readdirSync(snaps), [hash], 'no staging directory left behind');
  });

  it('replaces a copy that does not verify by moving it aside first, leaving nothing behind', () => {
    writeW(f);
    const s = source();
    const snaps = f.path('state/snapshots');
    const hash = s.item.contentHash as string;
    f.write(`state/snapshots/${hash}/plugin.toml`, 'half-removed by a writer that was killed');
    assert.deepEqual(copyReviewed(snaps, s, hash), { ok: true, dir: path.join(snaps, hash), reused: false });
    assert.ok(verifyReviewedCopy(snaps, s, hash));
    assert.deepEqual(fs.readdirSync(snaps), [hash]);
  });

  // A state directory that cannot be created (a read-only file system): a refusal, not a
  // throw the CLI reported as an internal error with exit code 2.
  it('refuses with the reason when the snapshot directory cannot be created', () => {
    writeW(f);
    const s = source();
    f.write('state', 'a file where the state directory should be');
    const r = copyReviewed(f.path('state/snapshots'), s, s.item.contentHash as string);
    assert.ok(!r.ok && /^could not snapshot the bundle: ENOTDIR/.test(r.message), JSON.stringify(r));
  });

  it('keeps the snapshot directory private (0700)', () => {
    writeW(f);
    const s = source();
    const r = copyReviewed(f.path('state/snapshots'), s, s.item.contentHash as string);
    assert.ok(r.ok);
    assert.equal(fs.statSync(r.dir).mode & 0o777, 0o700);
  });

  it('removes a read-only tree, and a missing one without error', () => {
    f.write('tree/a/b.txt', 'x', 0o444);
    fs.chmodSync(f.path('tree/a'), 0o555);
    removeTree(f.path('tree'));
    assert.ok(!fs.existsSync(f.path('tree')));
    removeTree(f.path('tree'));
  });

  it('removes a link in place of a copy as a link: what it leads to keeps its modes and its files', () => {
    f.write('elsewhere/secret.txt', 'x', 0o600);
    fs.chmodSync(f.path('elsewhere'), 0o750);
    fs.symlinkSync(f.path('elsewhere'), f.path('tree'));
    removeTree(f.path('tree'));
    assert.equal(fs.lstatSync(f.path('tree'), { throwIfNoEntry: false }), undefined, 'the link is gone');
    assert.equal(fs.statSync(f.path('elsewhere/secret.txt')).mode & 0o777, 0o600);
    assert.equal(fs.statSync(f.path('elsewhere')).mode & 0o777, 0o750);
  });
});
