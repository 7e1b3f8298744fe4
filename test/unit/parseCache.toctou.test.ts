import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadCodewhaleBundle } from '../../src/core/systems/codewhale/bundle';
import type { CodewhaleBundle } from '../../src/core/systems/codewhale/codewhaleBundle';
import { readBundleTree, type TreeRead } from '../../src/core/hashing/treeRead';
import { ParseCache } from '../../src/core/cache/parseCache';
import { NODE_CACHE_IO } from '../../src/core/cache/parseCacheIo';
import { readCacheFile } from '../../src/core/cache/parseCacheReader';
import type { ManifestLabel } from '../../src/core/systems/codewhale/manifest';
import { Fixture, LINUX_HOST } from './helpers/fixture';

/**
 * A bundle that changes between its walk and its parse (docs/parse-cache.md): its entry is
 * keyed by the walk's content hash, so the parse must take nothing from the disk that the
 * walk did not hold. The read is taken early, as the CLI's reader threads take it up to
 * LEAD bundles before the walk parses it; the disk then changes, and changes back. A run
 * that recalls the entry must equal a fresh one on the bytes as they are.
 */
describe('parse cache: a bundle changed between its walk and its parse', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const root = () => f.path('plugins');
  const dir = () => f.path('plugins/p');
  const cacheDir = () => f.path('cache');
  const load = (label: ManifestLabel, { cached = false, read }: { cached?: boolean; read?: TreeRead } = {}) => {
    const cache = cached ? new ParseCache(cacheDir(), NODE_CACHE_IO, 'toctou-test') : undefined;
    const bundle = loadCodewhaleBundle(dir(), label, {
      scope: 'user',
      canonicalDiscoveryRoot: root(),
      host: LINUX_HOST,
      ...(cache ? { cache: cache.segment('root') } : {}),
      ...(read ? { taken: { root: dir(), read } } : {}),
    });
    cache?.save();
    return bundle;
  };
  /** What a snapshot shows of a bundle; the walk's facts are read fresh either way. */
  const shown = (b: CodewhaleBundle) => ({
    valid: b.valid,
    mcp: b.mcpServerIds,
    capabilityHash: b.capabilityHash,
    codes: b.diagnostics.map((d) => d.code),
  });

  /** Reads the bundle, applies `change` before the parse, loads with the cache, undoes it, and compares. */
  const raced = (label: ManifestLabel, change: () => void, undo: () => void) => {
    const early = readBundleTree(dir());
    change();
    load(label, { cached: true, read: early });
    undo();
    const fresh = load(label);
    assert.deepEqual(shown(load(label, { cached: true })), shown(fresh));
    return fresh;
  };

  const claude = (extra: Record<string, unknown> = {}) =>
    f.write('plugins/p/.claude-plugin/plugin.json', JSON.stringify({ name: 'p', version: '1.0.0', ...extra }));
  const mcp = (id: string, command: string) =>
    f.write('plugins/p/.mcp.json', JSON.stringify({ mcpServers: { [id]: { command } } }));

  it("a Claude bundle's .mcp.json rewritten: its servers are the walked bytes'", () => {
    claude();
    mcp('aa', 'one');
    const fresh = raced(
      '.claude-plugin/plugin.json',
      () => mcp('bb', 'two'),
      () => mcp('aa', 'one'),
    );
    assert.deepEqual(fresh.mcpServerIds, ['aa']);
  });

  it('a Claude bundle gains a .mcp.json, a hooks file or a declared skills directory for a moment', () => {
    claude({ skills: './sk' });
    const fresh = raced(
      '.claude-plugin/plugin.json',
      () => {
        mcp('bb', 'two');
        f.write('plugins/p/sk/x/SKILL.md', '---\nname: x\ndescription: d\n---\n');
      },
      () => {
        fs.rmSync(path.join(dir(), '.mcp.json'));
        fs.rmSync(path.join(dir(), 'sk'), { recursive: true });
      },
    );
    assert.equal(fresh.valid, false);
    claude();
    raced(
      '.claude-plugin/plugin.json',
      () => f.write('plugins/p/hooks/hooks.json', '{}'),
      () => fs.rmSync(path.join(dir(), 'hooks'), { recursive: true }),
    );
  });

  it('a kimi bundle gains a root SKILL.md for a moment', () => {
    f.write('plugins/p/kimi.plugin.json', JSON.stringify({ name: 'p', version: '1.0.0' }));
    raced(
      'kimi.plugin.json',
      () => f.write('plugins/p/SKILL.md', '---\nname: p\ndescription: d\n---\n'),
      () => fs.rmSync(path.join(dir(), 'SKILL.md')),
    );
  });

  it('still recalls a Claude or kimi bundle whose disk agrees with its walk', () => {
    claude();
    mcp('aa', 'one');
    f.write('plugins/p/skills/s/SKILL.md', '---\nname: s\ndescription: d\n---\n');
    const fresh = load('.claude-plugin/plugin.json', { cached: true });
    const files = fs.readdirSync(cacheDir()).filter((n) => n.endsWith('.cache'));
    assert.equal(files.length, 1);
    const stored = readCacheFile(path.join(cacheDir(), files[0] as string), NODE_CACHE_IO, 'toctou-test');
    assert.deepEqual([...stored.keys()], [dir()], 'the bundle was stored');
    assert.deepEqual(load('.claude-plugin/plugin.json', { cached: true }), fresh);
    assert.deepEqual(fresh.mcpServerIds, ['aa']);
  });
});
