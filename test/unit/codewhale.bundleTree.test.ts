import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { hashBundleContent } from '../../src/core/hashing/bundleContent';
import { walkedTree, type BundleTree } from '../../src/core/systems/codewhale/bundleTree';
import { resolveContainedPath } from '../../src/core/systems/codewhale/containedPath';
import { readMcpJson } from '../../src/core/systems/codewhale/formats/mcpJson';
import { Findings } from '../../src/core/diagnostics/findings';
import { Fixture } from './helpers/fixture';

/**
 * The loader asks the walked tree what it would otherwise ask the disk. Every answer
 * must be the disk's answer, word for word, or the tree must decline and let the disk speak.
 */
describe('the walked bundle tree answers as the disk does', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const treeOf = (dir: string, keep: (rel: string) => boolean = () => true): BundleTree => {
    const walk = hashBundleContent(dir, 'plugin.json', fs.readFileSync(`${dir}/plugin.json`), keep);
    assert.ok(walk.ok, walk.ok ? '' : walk.message);
    return walkedTree(walk);
  };

  it('resolves component paths to the same result with and without the tree', () => {
    f.write('b/plugin.json', '{"name":"b"}');
    f.write('b/skills/one/SKILL.md', '---\nname: one\n---\n');
    f.write('b/bin/server.js', 'x', 0o755);
    f.write('b/a\\b', 'backslash is a name here');
    f.mkdir('b/empty');
    const root = f.path('b');
    const tree = treeOf(root);
    const raws = [
      'skills',
      './skills',
      'skills/',
      'skills//one',
      'skills/one/SKILL.md',
      'bin/server.js',
      'empty',
      '.',
      '',
      'missing',
      'bin/server.js/inside',
      'skills/../skills',
      '/etc',
      'a\\b',
      'sk\u0000ills',
    ];
    for (const raw of raws) {
      for (const kind of ['skills', 'MCP command', 'MCP cwd'] as const) {
        assert.deepEqual(
          resolveContainedPath(root, raw, kind, tree),
          resolveContainedPath(root, raw, kind),
          `${kind} ${JSON.stringify(raw)}`,
        );
      }
    }
  });

  it('reads mcp.json as the disk does: present, absent, a directory, too large, not kept', () => {
    const root = f.path('m');
    f.write('m/plugin.json', '{"name":"m"}');
    const compare = (what: string, keep?: (rel: string) => boolean) => {
      const viaTree = new Findings();
      const viaDisk = new Findings();
      const a = readMcpJson(`${root}/mcp.json`, viaTree, treeOf(root, keep));
      const b = readMcpJson(`${root}/mcp.json`, viaDisk);
      assert.deepEqual(a, b, what);
      assert.deepEqual(viaTree.diagnostics, viaDisk.diagnostics, what);
    };
    compare('absent');
    f.write('m/mcp.json', '{"mcpServers":{"local":{"command":"node","args":["x.js"]}}}');
    compare('present');
    compare('present but not kept by the walk', () => false);
    f.write('m/mcp.json', '{"mcpServers":{"bad":{"command":1}}}');
    compare('invalid');
    f.write('m/mcp.json', Buffer.alloc(1048577, 0x20));
    compare('too large');
    fs.rmSync(f.path('m/mcp.json'));
    f.mkdir('m/mcp.json');
    compare('a directory');
  });
});
