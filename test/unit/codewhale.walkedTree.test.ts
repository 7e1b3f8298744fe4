import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { hashBundleContent } from '../../src/core/hashing/bundleContent';
import { walkedTree, type BundleTree } from '../../src/core/systems/codewhale/bundleTree';
import { readRegularFile } from '../../src/core/fs/safeFs';
import { Fixture } from './helpers/fixture';

/**
 * The walked tree's own answers (bundleTree.ts), asked directly: the type of each path
 * the walk saw, and a kept file's bytes — the same as reading the disk, up to the byte
 * limit — while a file the walk did not keep is left to the disk (undefined).
 */
describe('the walked bundle tree: types and kept bytes, asked directly', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const treeOf = (keep: (rel: string) => boolean): BundleTree => {
    const walk = hashBundleContent(f.path('b'), 'plugin.json', fs.readFileSync(f.path('b/plugin.json')), keep);
    assert.ok(walk.ok);
    return walkedTree(walk);
  };
  beforeEach(() => {
    f.write('b/plugin.json', '{"name":"b"}');
    f.write('b/mcp.json', '{"mcpServers":{}}');
    f.write('b/bin/run.sh', '#!/bin/sh\n', 0o755);
    f.mkdir('b/empty');
  });

  it('tells files, directories (the root and empty ones too) and absent paths apart', () => {
    const tree = treeOf(() => false);
    assert.deepEqual(
      ['', 'plugin.json', 'mcp.json', 'bin', 'bin/run.sh', 'empty', 'missing', 'bin/missing', 'run.sh'].map((p) =>
        tree.typeOf(p),
      ),
      ['directory', 'file', 'file', 'directory', 'file', 'directory', undefined, undefined, undefined],
    );
  });

  it('reads a kept file as the disk does, with its executable bit', () => {
    const tree = treeOf((rel) => rel === 'mcp.json' || rel === 'bin/run.sh');
    for (const rel of ['mcp.json', 'bin/run.sh'])
      assert.deepEqual(tree.read(rel, 1024), readRegularFile(f.path('b', rel), 1024), rel);
    assert.deepEqual(tree.read('bin/run.sh', 1024), { ok: true, bytes: Buffer.from('#!/bin/sh\n'), executable: true });
  });

  it('reads a kept file of exactly the limit, and refuses one a byte over with its size', () => {
    const tree = treeOf((rel) => rel === 'mcp.json');
    const size = '{"mcpServers":{}}'.length;
    assert.equal(tree.read('mcp.json', size)?.ok, true);
    assert.deepEqual(tree.read('mcp.json', size - 1), { ok: false, reason: 'too-large', size });
    assert.deepEqual(tree.read('mcp.json', size - 1), readRegularFile(f.path('b/mcp.json'), size - 1));
  });

  it('answers missing and not-a-file itself, and leaves a file it did not keep to the disk', () => {
    const tree = treeOf((rel) => rel === 'mcp.json');
    assert.deepEqual(tree.read('missing.json', 1024), { ok: false, reason: 'missing' });
    assert.deepEqual(tree.read('empty', 1024), { ok: false, reason: 'not-file' });
    assert.deepEqual(tree.read('bin', 1024), readRegularFile(f.path('b/bin'), 1024));
    assert.equal(tree.read('plugin.json', 1024), undefined);
    assert.equal(tree.read('bin/run.sh', 1024), undefined);
  });
});
