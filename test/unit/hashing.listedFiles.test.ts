import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { hashListed } from '../../src/core/hashing/listedFiles';
import { Fixture } from './helpers/fixture';

/**
 * The listed files of a unit that does not load (trust.md "Hashes": per-file hashes for
 * diffs; "a symlink anywhere ... is never followed"): each one that is a regular file
 * inside the root now, reached without a symbolic link, hashed; the others are absent.
 */
describe('hashing the listed files of an invalid unit (hashing/listedFiles.ts)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');

  it('hashes each regular file with its size, SHA-256 and executable bit, once, in byte order of the path', () => {
    f.write('root/b.txt', 'bee');
    f.write('root/a/run.sh', '#!/bin/sh\n', 0o755);
    f.write('root/B.txt', 'big');
    assert.deepEqual(hashListed(f.path('root'), ['b.txt', 'a/run.sh', 'B.txt', 'b.txt']), [
      { path: 'B.txt', size: 3, sha256: sha('big'), executable: false },
      { path: 'a/run.sh', size: 10, sha256: sha('#!/bin/sh\n'), executable: true },
      { path: 'b.txt', size: 3, sha256: sha('bee'), executable: false },
    ]);
  });

  it('leaves out what is missing, a directory, the root itself, and anything outside the root', () => {
    f.write('root/keep.txt', 'k');
    f.mkdir('root/dir');
    f.write('outside.txt', 'o');
    f.write('rootish/x.txt', 'x');
    assert.deepEqual(
      hashListed(f.path('root'), ['gone.txt', 'dir', '', '.', '../outside.txt', '../rootish/x.txt', 'keep.txt']).map(
        (x) => x.path,
      ),
      ['keep.txt'],
    );
  });

  it('covers a file whose name, or its directory name, starts with two dots: a name, not `..`', () => {
    f.write('root/..x', 'dots');
    f.write('root/..tools/run.sh', '#!/bin/sh\n', 0o755);
    assert.deepEqual(
      hashListed(f.path('root'), ['..x', '..tools/run.sh']).map((file) => file.path),
      ['..tools/run.sh', '..x'],
    );
  });

  it('never reads through a symbolic link: a linked file or a file behind a linked directory is absent', () => {
    f.write('target/secret.txt', 's');
    f.write('root/plain/ok.txt', 'ok');
    f.symlink(f.path('target'), 'root/linked');
    f.symlink(f.path('target/secret.txt'), 'root/plain/link.txt');
    f.symlink(f.path('root/plain'), 'root/alias');
    assert.deepEqual(
      hashListed(f.path('root'), ['linked/secret.txt', 'plain/link.txt', 'alias/ok.txt', 'plain/ok.txt']).map(
        (x) => x.path,
      ),
      ['plain/ok.txt'],
    );
  });

  it('treats a file on the way as no directory', () => {
    f.write('root/file', 'x');
    assert.deepEqual(hashListed(f.path('root'), ['file/inner.txt']), []);
  });
});
