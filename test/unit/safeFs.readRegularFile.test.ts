import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { readRegularFile } from '../../src/core/fs/safeFs';
import { Fixture } from './helpers/fixture';
import { fsPatcher } from './helpers/fsPatch';

/**
 * readRegularFile reads what the file holds when it is read, not what fstat said just
 * before: bytes past that size are read on in 64 KiB steps (through one reused buffer,
 * each step copied out), up to one byte past the limit.
 */
describe('readRegularFile past the size fstat reported', () => {
  const fsPatch = fsPatcher();
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());
  /** Every byte distinct from its neighbours' chunk: a chunk overwritten by the next shows. */
  const content = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 7 + (i >> 16)) & 0xff));
  /** fstat of `file`'s descriptor reports `size`: the file grew after it. */
  const statedSize = (file: string, size: number) => {
    let fd: number | undefined;
    fsPatch.replace('openSync', (realOpen) => (p: fs.PathLike, ...rest: unknown[]) => {
      const opened = (realOpen as (...a: unknown[]) => number)(p, ...rest);
      if (p === file) fd = opened;
      return opened;
    });
    fsPatch.replace('fstatSync', (realFstat) => (d: number, ...rest: unknown[]) => {
      const st = (realFstat as (...a: unknown[]) => fs.Stats)(d, ...rest);
      return d === fd ? Object.assign(st, { size }) : st;
    });
  };

  it('reads a file that grew by several chunks to its end, every byte in place', () => {
    const bytes = content(3 * 65536 + 123);
    const file = f.write('grown', bytes);
    statedSize(file, 10);
    const read = readRegularFile(file, 1048576);
    assert.ok(read.ok);
    assert.equal(read.bytes.length, bytes.length);
    assert.ok(read.bytes.equals(bytes));
  });

  it('refuses a file that grew past the limit, having read one byte more', () => {
    const file = f.write('grown', content(70000));
    statedSize(file, 10);
    assert.deepEqual(readRegularFile(file, 65536 + 100), { ok: false, reason: 'too-large', size: 65536 + 101 });
  });

  it('reads a file at its size in one step, and an empty one as empty', () => {
    const bytes = content(5000);
    const read = readRegularFile(f.write('plain', bytes), 1048576);
    assert.ok(read.ok && read.bytes.equals(bytes));
    assert.deepEqual(readRegularFile(f.write('empty', ''), 10), {
      ok: true,
      bytes: Buffer.alloc(0),
      executable: false,
    });
  });
});
