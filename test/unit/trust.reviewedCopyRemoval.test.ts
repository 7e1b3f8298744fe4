import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { removeTree } from '../../src/core/trust/reviewedCopy';
import { Fixture } from './helpers/fixture';

/**
 * Reviewed copies are read-only (trust.md "Snapshots of what was reviewed"), and
 * `doctor --prune` and a re-copy remove them. On a normal account an entry can only be
 * removed from a directory its owner may write; the tests run as root, who may remove
 * anything, so `rmSync` is replaced here by one that keeps that POSIX rule.
 */
describe('removing a read-only reviewed copy as a normal account would (trust/reviewedCopy.ts)', () => {
  const nodeFs = require('node:fs') as Record<string, unknown>;
  let f: Fixture;
  let restore: (() => void) | undefined;
  beforeEach(() => {
    f = new Fixture();
    const real = nodeFs.rmSync as typeof fs.rmSync;
    /** Refuses, as the kernel does for a non-root user, when a directory holding entries is not writable. */
    nodeFs.rmSync = ((p: fs.PathLike, options?: fs.RmOptions) => {
      const check = (dir: string): void => {
        const st = fs.lstatSync(dir, { throwIfNoEntry: false });
        if (!st?.isDirectory()) return;
        const entries = fs.readdirSync(dir);
        if (entries.length > 0 && (st.mode & 0o200) === 0)
          throw Object.assign(new Error(`EACCES: permission denied, unlink '${dir}'`), { code: 'EACCES' });
        for (const e of entries) check(path.join(dir, e));
      };
      check(String(p));
      real(p, options);
    }) as typeof fs.rmSync;
    restore = () => {
      nodeFs.rmSync = real;
    };
  });
  afterEach(() => {
    restore?.();
    f.remove();
  });

  it('makes every read-only directory and file of the copy writable first, at any depth, then removes it', () => {
    f.write('copy/a/b.txt', 'x', 0o444);
    f.write('copy/a/c/d.sh', '#!/bin/sh\n', 0o555);
    fs.chmodSync(f.path('copy/a/c'), 0o555);
    fs.chmodSync(f.path('copy/a'), 0o555);
    removeTree(f.path('copy'));
    assert.ok(!fs.existsSync(f.path('copy')));
  });

  it('never changes the mode of what a link inside the tree points to', () => {
    const outside = f.write('outside.txt', 'keep', 0o444);
    f.mkdir('copy/a');
    f.symlink(outside, 'copy/a/link');
    fs.chmodSync(f.path('copy/a'), 0o555);
    removeTree(f.path('copy'));
    assert.ok(!fs.existsSync(f.path('copy')));
    assert.equal(fs.statSync(outside).mode & 0o777, 0o444);
  });
});
