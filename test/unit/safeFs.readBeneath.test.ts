import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { beneathWorks, openBeneath, readBeneath } from '../../src/core/fs/openBeneath';
import { READ_FLAGS, readRegularFile } from '../../src/core/fs/safeFs';
import { Fixture } from './helpers/fixture';

/**
 * A file read beneath a directory, one component at a time, never through a link on the way
 * (src/core/fs/openBeneath.ts): what Eva's and Rivumi's content hashes read. `O_NOFOLLOW`
 * guards only a path's last component, so a read by the whole path follows a directory
 * swapped for a link after the caller checked it and hashes bytes from outside the bundle.
 * Every other file must read exactly as `readRegularFile` reads its whole path: the same
 * result, the same limits, the same failure in the same words.
 */
(beneathWorks() ? describe : describe.skip)('reading a file beneath a directory (Linux)', () => {
  let f: Fixture;
  const OUTSIDE = 'outside bytes the bundle never held';
  beforeEach(() => {
    f = new Fixture();
    f.write('b/sub/a.txt', 'inside');
    f.write('b/sub/deep/x.sh', '#!/bin/sh\n', 0o755);
    f.write('b/file', 'a file, not a directory');
    f.write('outside/a.txt', OUTSIDE);
    f.write('outside/deep/x.sh', OUTSIDE);
  });
  afterEach(() => f.remove());

  const rel = (s: string | Buffer) => (typeof s === 'string' ? Buffer.from(s) : s);
  const both = (r: string | Buffer, limit = 1 << 20) => [
    readBeneath(f.path('b'), rel(r), limit),
    readRegularFile(Buffer.concat([Buffer.from(f.path('b')), Buffer.from('/'), rel(r)]), limit),
  ];

  it('reads what a read of the whole path reads, and fails as it fails, where no link is on the way', () => {
    f.symlink('../outside/a.txt', 'b/sub/link.txt');
    f.mkdir('b/sub/dir');
    execFileSync('mkfifo', [f.path('b/sub/fifo')]);
    const raw = Buffer.concat([Buffer.from(f.path('b/sub/r')), Buffer.from([0xff])]);
    fs.mkdirSync(raw);
    fs.writeFileSync(Buffer.concat([raw, Buffer.from('/n\xfe', 'latin1')]), 'raw');
    const cases: (string | Buffer)[] = [
      'sub/a.txt',
      'sub/deep/x.sh',
      'sub/none.txt',
      'none/a.txt',
      'file/a.txt',
      'sub/link.txt',
      'sub/dir',
      'sub/fifo',
      Buffer.concat([Buffer.from('sub/r'), Buffer.from([0xff]), Buffer.from('/n\xfe', 'latin1')]),
      `sub/${'n'.repeat(300)}/a.txt`,
      // Not a component each: opened whole, as before.
      'sub/./a.txt',
      'sub/../sub/a.txt',
      'sub//a.txt',
    ];
    for (const c of cases) {
      const [beneath, whole] = both(c);
      assert.deepEqual(beneath, whole, String(c));
    }
    assert.equal(both('sub/a.txt')[0]?.ok, true);
    assert.deepEqual(both('sub/deep/x.sh', 5), [
      { ok: false, reason: 'too-large', size: 10 },
      { ok: false, reason: 'too-large', size: 10 },
    ]);
  });

  it('fails as a read of the whole path does past PATH_MAX, where no component is looked up', () => {
    const cwd = process.cwd();
    let rel = 'sub';
    try {
      process.chdir(f.path('b/sub'));
      while (Buffer.byteLength(f.path('b', rel)) < 4200) {
        fs.mkdirSync('d'.repeat(200));
        process.chdir('d'.repeat(200));
        rel += '/' + 'd'.repeat(200);
      }
      fs.writeFileSync('a.txt', 'deep');
    } finally {
      process.chdir(cwd);
    }
    try {
      const [beneath, whole] = both(`${rel}/a.txt`);
      assert.equal(beneath?.ok === false && beneath.reason, 'io');
      assert.deepEqual(beneath, whole);
    } finally {
      // Node's rmSync names each entry by its whole path; rm(1) removes it from inside.
      execFileSync('rm', ['-rf', f.path('b/sub', 'd'.repeat(200))]);
    }
  });

  it('refuses a directory on the way that is a link as a link, where a read of the whole path reads outside', () => {
    fs.rmSync(f.path('b/sub'), { recursive: true });
    fs.symlinkSync('../outside', f.path('b/sub'));
    const [beneath, whole] = both('sub/a.txt');
    assert.equal(whole?.ok && whole.bytes.toString(), OUTSIDE);
    assert.deepEqual(beneath, { ok: false, reason: 'symlink' });
    assert.deepEqual(both('sub/deep/x.sh')[0], { ok: false, reason: 'symlink' });
    // Dangling, or two levels down.
    fs.rmSync(f.path('b/sub'));
    fs.symlinkSync('nowhere', f.path('b/sub'));
    assert.deepEqual(both('sub/a.txt')[0], { ok: false, reason: 'symlink' });
    f.mkdir('b/sub2');
    fs.symlinkSync('../../outside/deep', f.path('b/sub2/deep'));
    assert.deepEqual(both('sub2/deep/x.sh')[0], { ok: false, reason: 'symlink' });
    assert.throws(() => openBeneath(f.path('b'), Buffer.from('sub2/deep/x.sh'), READ_FLAGS), { code: 'ELOOP' });
  });

  it('follows a link at the directory it reads beneath, as the caller chose that spelling', () => {
    f.symlink('b', 'linked-b');
    assert.deepEqual(
      readBeneath(f.path('linked-b'), Buffer.from('sub/a.txt'), 100),
      readRegularFile(f.path('b/sub/a.txt'), 100),
    );
    assert.deepEqual(
      readBeneath(f.path('none'), Buffer.from('sub/a.txt'), 100),
      readRegularFile(f.path('none/sub/a.txt'), 100),
    );
  });

  it('leaves no descriptor open, however the read ends', () => {
    const open = (): number => fs.readdirSync('/proc/self/fd').length;
    const before = open();
    both('sub/deep/x.sh');
    both('sub/deep/none');
    both('file/a.txt');
    both('sub/deep/x.sh', 1);
    fs.symlinkSync('../../outside/deep', f.path('b/sub/linked'));
    both('sub/linked/x.sh');
    readBeneath(f.path('none'), Buffer.from('a/b'), 10);
    fs.closeSync(openBeneath(f.path('b'), Buffer.from('sub/deep/x.sh'), READ_FLAGS));
    assert.equal(open(), before);
  });
});
