import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Indexer, type IndexOptions } from '../../src/core/index/indexer';
import { ParseCache } from '../../src/core/cache/parseCache';
import { NODE_CACHE_IO } from '../../src/core/cache/parseCacheIo';
import { mapTrustView } from './helpers/mapTrust';
import type { BundleStateView } from '../../src/core/decisions/trustView';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { HostFacts } from '../../src/core/host';
import { osPath } from '../../src/core/fs/rawNames';
import { run } from '../../src/cli/main';
import { Fixture, LINUX_HOST } from './helpers/fixture';

const SCHEMA = 'https://agent-plugins.org/schemas/plugin.json';
const NAMES = ['alpha', 'beta', 'gamma'];
const ID = 'snapshot-test';

type Edit =
  | { kind: 'skill-bytes'; bundle: number; text: string }
  | { kind: 'manifest'; bundle: number; name: number; remote: boolean }
  | { kind: 'break'; bundle: number }
  | { kind: 'add-file'; bundle: number; file: number; text: string }
  | { kind: 'remove-file'; bundle: number; file: number }
  | { kind: 'executable'; bundle: number }
  | { kind: 'rename-dir'; bundle: number }
  | { kind: 'trust'; bundle: number };

const FILES = ['skills/s/SKILL.md', 'skills/t/SKILL.md', 'mcp.json', 'bin/run.sh', 'skills/empty'];

/** Every snapshot figure but the counter of snapshots taken. */
function strip(s: Snapshot): unknown {
  return { ...s, generation: 0 };
}

/**
 * The parse cache never changes a snapshot (docs/parse-cache.md): after random edits
 * of bundles — bytes, files added and removed, an executable bit, a renamed directory,
 * a broken manifest, trust — an index that reuses the cache a previous process left
 * is deep-equal to one that derives everything afresh: items, diagnostics, decisions.
 */
describe('parse cache: cached snapshots equal fresh ones', () => {
  it('after any sequence of edits, in both scopes, across processes', function () {
    this.timeout(120000);
    const edit = fc.oneof(
      fc.record({ kind: fc.constant('skill-bytes' as const), bundle: fc.nat(4), text: fc.string({ maxLength: 6 }) }),
      fc.record({
        kind: fc.constant('manifest' as const),
        bundle: fc.nat(4),
        name: fc.nat(NAMES.length - 1),
        remote: fc.boolean(),
      }),
      fc.record({ kind: fc.constant('break' as const), bundle: fc.nat(4) }),
      fc.record({
        kind: fc.constant('add-file' as const),
        bundle: fc.nat(4),
        file: fc.nat(FILES.length - 1),
        text: fc.string({ maxLength: 40 }),
      }),
      fc.record({ kind: fc.constant('remove-file' as const), bundle: fc.nat(4), file: fc.nat(FILES.length - 1) }),
      fc.record({ kind: fc.constant('executable' as const), bundle: fc.nat(4) }),
      fc.record({ kind: fc.constant('rename-dir' as const), bundle: fc.nat(4) }),
      fc.record({ kind: fc.constant('trust' as const), bundle: fc.nat(4) }),
    );
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 6 }), (edits: Edit[]) => {
        const f = new Fixture();
        try {
          // Bundles 0-2 in the workspace (one named by bytes that are not UTF-8), 3-4 user bundles.
          const dirs = [
            'ws/.codewhale/plugins/b0',
            'ws/.codewhale/plugins/b1',
            'ws/.codewhale/plugins/b2\udcff',
            'home/plugins/u3',
            'home/plugins/u4',
          ];
          const write = (rel: string, content: string) => {
            const p = f.path(rel);
            fs.mkdirSync(osPath(path.dirname(p)), { recursive: true });
            fs.writeFileSync(osPath(p), content);
          };
          const manifest = (name: string, remote: boolean) =>
            JSON.stringify({
              $schema: SCHEMA,
              name,
              version: '1.0.0',
              ...(remote
                ? { extensions: { 'net.codewhale': { capabilities: { network_hosts: ['h.example.com'] } } } }
                : {}),
            });
          dirs.forEach((dir, i) => {
            write(`${dir}/plugin.json`, manifest(NAMES[i % NAMES.length] as string, false));
            write(`${dir}/skills/s/SKILL.md`, `---\nname: s${i}\ndescription: d\n---\nbody\n`);
          });
          const store = new Map<string, BundleStateView>();
          const trust = mapTrustView(store);
          const options: IndexOptions = {
            workspaces: [f.path('ws')],
            codewhaleHome: f.path('home'),
            host: LINUX_HOST,
            trust,
          };
          const cacheDir = f.path('cache');
          // Each cached index is a new process: it knows only what the last one saved.
          const cached = () =>
            new Indexer({ ...options, parseCache: new ParseCache(cacheDir, NODE_CACHE_IO, ID) }).indexAll();
          let snap = cached();
          for (const e of edits) {
            const dir = dirs[e.bundle] as string;
            if (e.kind === 'skill-bytes')
              write(`${dir}/skills/s/SKILL.md`, `---\nname: s${e.bundle}\n---\n${e.text}\n`);
            else if (e.kind === 'manifest') write(`${dir}/plugin.json`, manifest(NAMES[e.name] as string, e.remote));
            else if (e.kind === 'break') write(`${dir}/plugin.json`, '{ "name": ');
            else if (e.kind === 'add-file') {
              const rel = FILES[e.file] as string;
              if (rel.endsWith('empty')) fs.mkdirSync(osPath(f.path(dir, rel)), { recursive: true });
              else
                write(
                  `${dir}/${rel}`,
                  rel === 'mcp.json' ? `{"mcpServers":{"m":{"command":"${e.text.length}"}}}` : e.text,
                );
            } else if (e.kind === 'remove-file')
              fs.rmSync(osPath(f.path(dir, FILES[e.file] as string)), { recursive: true, force: true });
            else if (e.kind === 'executable') {
              const p = osPath(f.path(dir, 'plugin.json'));
              if (fs.existsSync(p)) fs.chmodSync(p, fs.statSync(p).mode ^ 0o100);
            } else if (e.kind === 'rename-dir') {
              // The same bytes under another directory: its ids and paths must follow the new name.
              const to = `${dir}-renamed`;
              if (fs.existsSync(osPath(f.path(dir)))) fs.renameSync(osPath(f.path(dir)), osPath(f.path(to)));
              dirs[e.bundle] = to;
            } else {
              const item = snap.items.find(
                (i) => i.parent === null && i.contentHash && i.path.endsWith(path.basename(dir)),
              );
              const key = item?.detail.bundleKey as string | undefined;
              if (item && key && item.contentHash && item.capabilityHash)
                store.set(key, {
                  enabled: true,
                  trust: { contentHash: item.contentHash, capabilityHash: item.capabilityHash },
                });
            }
            snap = cached();
            const fresh = new Indexer(options).indexAll();
            assert.deepEqual(strip(snap), strip(fresh), JSON.stringify(e));
            // And again with every bundle recalled from the cache.
            assert.deepEqual(strip(cached()), strip(fresh), `warm: ${JSON.stringify(e)}`);
          }
        } finally {
          f.remove();
        }
      }),
      { numRuns: 30 },
    );
  });

  it('never lets an entry keep a changed bundle at its old results (same size, same times)', () => {
    const f = new Fixture();
    try {
      const dir = f.path('ws/.codewhale/plugins/p');
      const manifest = (host: string) =>
        JSON.stringify({
          $schema: SCHEMA,
          name: 'p',
          version: '1.0.0',
          extensions: { 'net.codewhale': { capabilities: { network_hosts: [host] } } },
        });
      f.write('ws/.codewhale/plugins/p/plugin.json', manifest('a.example.com'));
      const options: IndexOptions = { workspaces: [f.path('ws')], codewhaleHome: null, host: LINUX_HOST };
      const cached = () =>
        new Indexer({ ...options, parseCache: new ParseCache(f.path('cache'), NODE_CACHE_IO, ID) }).indexAll();
      const before = cached();
      const file = path.join(dir, 'plugin.json');
      const { atime, mtime, size } = fs.statSync(file);
      // Same length, same timestamps: only the bytes tell.
      fs.writeFileSync(file, manifest('b.example.com'));
      fs.utimesSync(file, atime, mtime);
      assert.equal(fs.statSync(file).size, size);
      const after = cached();
      assert.deepEqual(strip(after), strip(new Indexer(options).indexAll()));
      const top = (s: Snapshot) => s.items.find((i) => i.parent === null);
      assert.notEqual(top(after)?.contentHash, top(before)?.contentHash);
      assert.notEqual(top(after)?.capabilityHash, top(before)?.capabilityHash);
    } finally {
      f.remove();
    }
  });

  it('asks the host about `[when]` on every index, never from the cache', () => {
    const f = new Fixture();
    try {
      f.write(
        'ws/.codewhale/plugins/p/plugin.toml',
        'schema_version = 1\n[plugin]\nname = "p"\nversion = "1.0.0"\n[when]\nbinaries = ["needed-tool"]\n',
      );
      const index = (host: HostFacts) =>
        new Indexer({
          workspaces: [f.path('ws')],
          codewhaleHome: null,
          host,
          parseCache: new ParseCache(f.path('cache'), NODE_CACHE_IO, ID),
        }).indexAll();
      const reasons = (s: Snapshot) => s.items.find((i) => i.parent === null)?.reasons;
      // Derived with the tool on PATH, then recalled after it is gone (and back).
      assert.ok(!reasons(index({ os: 'linux', hasBinary: () => true }))?.includes('not_applicable'));
      assert.ok(reasons(index({ os: 'linux', hasBinary: () => false }))?.includes('not_applicable'));
      assert.ok(!reasons(index({ os: 'linux', hasBinary: () => true }))?.includes('not_applicable'));
    } finally {
      f.remove();
    }
  });

  it('writes the cache where it is told, and nothing into the state directory on a read-only command', async () => {
    const f = new Fixture();
    try {
      f.write('ws/.codewhale/plugins/p/plugin.json', JSON.stringify({ $schema: SCHEMA, name: 'p', version: '1.0.0' }));
      const argv = ['list', '--json', '--no-user', '--workspace', f.path('ws'), '--state-dir', f.path('state')];
      const io = (env: NodeJS.ProcessEnv) => ({ out: () => {}, err: () => {}, env, cwd: f.root });
      assert.equal(await run([...argv, '--cache-dir', f.path('c1')], io({})), 0);
      assert.equal(await run(argv, io({ SKILLGATE_CACHE_DIR: f.path('c2') })), 0);
      assert.equal(await run([...argv, '--no-cache'], io({ SKILLGATE_CACHE_DIR: f.path('c3') })), 0);
      // No home in the environment: no per-user cache directory to use.
      assert.equal(await run(argv, io({})), 0);
      assert.equal(fs.readdirSync(f.path('c1')).length, 1);
      assert.equal(fs.readdirSync(f.path('c2')).length, 1);
      assert.ok(!fs.existsSync(f.path('c3')));
      assert.ok(!fs.existsSync(f.path('state')));
      assert.deepEqual(fs.readdirSync(f.root).sort(), ['c1', 'c2', 'ws']);
    } finally {
      f.remove();
    }
  });

  it("leaves the save to the caller when asked (the editor's worker sends the tree first), then is read back", async () => {
    const f = new Fixture();
    try {
      f.write('ws/.codewhale/plugins/p/plugin.json', JSON.stringify({ $schema: SCHEMA, name: 'p', version: '1.0.0' }));
      const cache = new ParseCache(f.path('cache'), NODE_CACHE_IO, ID);
      const indexer = new Indexer({ workspaces: [f.path('ws')], codewhaleHome: null, parseCache: cache });
      const snapshot = await indexer.indexAllAsync(undefined, { saveCacheLater: true });
      assert.ok(!fs.existsSync(f.path('cache')), 'nothing written before the caller saves');
      indexer.saveParseCache();
      const [file] = fs.readdirSync(f.path('cache'));
      const written = fs.statSync(f.path(`cache/${file}`));
      const again = new Indexer({
        workspaces: [f.path('ws')],
        codewhaleHome: null,
        parseCache: new ParseCache(f.path('cache'), NODE_CACHE_IO, ID),
      }).indexAll();
      assert.deepEqual(strip(again), strip(snapshot));
      // Every entry found and used: the next index writes nothing.
      assert.deepEqual(fs.readdirSync(f.path('cache')), [file]);
      assert.equal(fs.statSync(f.path(`cache/${file}`)).ino, written.ino);
      assert.equal(fs.statSync(f.path(`cache/${file}`)).mtimeMs, written.mtimeMs);
    } finally {
      f.remove();
    }
  });
});
