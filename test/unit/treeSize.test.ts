import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { holdsMoreEntriesThan } from '../../src/core/fs/treeSize';

describe('holdsMoreEntriesThan: a bounded count of a tree', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-treesize-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('counts files, directories and links at every depth, and follows no link', () => {
    fs.mkdirSync(path.join(dir, 'a/b'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'a/b/f'), '');
    fs.writeFileSync(path.join(dir, 'g'), '');
    // A link to a large tree counts once: it is not walked into.
    const big = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-treesize-big-'));
    try {
      for (let i = 0; i < 50; i++) fs.writeFileSync(path.join(big, `f${i}`), '');
      fs.symlinkSync(big, path.join(dir, 'link'));
      // a, a/b, a/b/f, g, link
      assert.equal(holdsMoreEntriesThan(dir, 5), false);
      assert.equal(holdsMoreEntriesThan(dir, 4), true);
    } finally {
      fs.rmSync(big, { recursive: true, force: true });
    }
  });

  it('walks into a directory whose name is not UTF-8, and takes one it cannot read for empty', () => {
    const raw = Buffer.concat([Buffer.from(path.join(dir, 'x')), Buffer.from([0xff])]);
    fs.mkdirSync(raw);
    fs.writeFileSync(Buffer.concat([raw, Buffer.from('/f')]), '');
    assert.equal(holdsMoreEntriesThan(dir, 1), true);
    assert.equal(holdsMoreEntriesThan(dir, 2), false);
    assert.equal(holdsMoreEntriesThan(path.join(dir, 'missing'), 0), false);
  });
});
