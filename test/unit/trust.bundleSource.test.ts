import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readBundleSource, isDirectory } from '../../src/core/trust/bundleSource';
import { Fixture, writeW, byName, LINUX_HOST, index } from './helpers/fixture';

/**
 * What a receipt records (trust.md "Trust units", "Operations"): the full capability
 * inventory the reviewer approves, read from disk at this moment, and a re-hash of a
 * copy that proves a snapshot holds exactly the reviewed bytes.
 */
describe('a trust unit read from disk for review and trust (trust.md)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());
  const W = 'ws/.codewhale/plugins/example-plugin';

  it('records every capability of a Codewhale bundle: components, MCP servers with their mappings, hosts, roots, [when], inventory', () => {
    writeW(
      f,
      '[commands]\npath = "skills"\n[capabilities]\nnetwork_hosts = ["api.example.com"]\nfilesystem_roots = ["data"]\n[when]\nos = ["linux"]\n[mcp_servers.fetch]\nurl = "https://api.example.com/mcp"\nenv_headers = { X-Key = "KEY_SRC" }\n[mcp_servers.local]\ncommand = "node"\nargs = ["a"]\nenv = { A = "${B}" }\n',
    );
    f.mkdir(`${W}/data`);
    const r = readBundleSource(byName(index([f.path('ws')]), 'example-plugin'), LINUX_HOST);
    assert.ok(r.ok, r.ok ? '' : r.message);
    const c = r.source.capabilities as Record<string, unknown>;
    assert.deepEqual(Object.keys(c), [
      'system',
      'compatibility',
      'components',
      'mcpServers',
      'networkHosts',
      'filesystemRoots',
      'lifecycleMutation',
      'when',
      'inventory',
    ]);
    assert.deepEqual(
      [c.system, c.compatibility, c.networkHosts, c.filesystemRoots, c.lifecycleMutation, c.when],
      ['codewhale', 'partial', ['api.example.com'], ['data'], false, { os: ['linux'], binaries: null }],
    );
    assert.deepEqual({ ...(c.components as object) }, { skills: ['skills'], commands: ['skills'] });
    const servers = c.mcpServers as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(servers), ['fetch', 'local']);
    assert.deepEqual(
      [
        servers.fetch?.transport,
        servers.fetch?.url,
        { ...(servers.fetch?.envHeaders as object) },
        { ...(servers.fetch?.env as object) },
      ],
      ['streamable-http', 'https://api.example.com/mcp', { 'X-Key': 'KEY_SRC' }, {}],
    );
    assert.deepEqual(
      [servers.local?.transport, servers.local?.command, servers.local?.args, { ...(servers.local?.env as object) }],
      ['stdio', 'node', ['a'], { A: 'B' }],
    );
    assert.equal('id' in (servers.local ?? {}), false, 'the id is the key, not repeated');
    assert.deepEqual((c.inventory as Record<string, unknown>).mcp_servers, 2);
    assert.deepEqual(r.source.directories, ['', 'data', 'skills', 'skills/example']);
    assert.deepEqual(
      [r.source.applicable, r.source.notCovered, r.source.root, r.source.canonicalPath],
      [true, [], f.path(W), f.path(W)],
    );
  });

  it('reports a Codewhale bundle whose [when] excludes the host as not applicable', () => {
    writeW(f, '[when]\nos = ["windows"]\n');
    const r = readBundleSource(byName(index([f.path('ws')]), 'example-plugin'), LINUX_HOST);
    assert.ok(r.ok);
    assert.equal(r.source.applicable, false);
  });

  it('re-hashes a faithful copy to the content hash, and a changed or manifest-less copy to something else', () => {
    writeW(f);
    const r = readBundleSource(byName(index([f.path('ws')]), 'example-plugin'), LINUX_HOST);
    assert.ok(r.ok);
    fs.cpSync(f.path(W), f.path('copy'), { recursive: true });
    assert.equal(r.source.rehashCopy(f.path('copy')), r.source.item.contentHash);
    fs.appendFileSync(f.path('copy/skills/example/SKILL.md'), 'more\n');
    assert.notEqual(r.source.rehashCopy(f.path('copy')), r.source.item.contentHash);
    fs.rmSync(f.path('copy/plugin.toml'));
    assert.equal(r.source.rehashCopy(f.path('copy')), undefined);
  });

  it('records each Rivumi hook by event and command line, numbering repeats, and re-hashes a copy', () => {
    f.write('ws/.rivumi/hooks.json', '{"pre_tool_use":[{"command":["true"]},{"command":["true"]}]}');
    const r = readBundleSource(byName(index([f.path('ws')]), 'hooks.json'), LINUX_HOST);
    assert.ok(r.ok, r.ok ? '' : r.message);
    const c = r.source.capabilities as { system: string; kind: string; hooks: Record<string, unknown> };
    assert.deepEqual([c.system, c.kind], ['rivumi', 'hooks']);
    assert.deepEqual(Object.keys(c.hooks), ['pre_tool_use: ["true"]', 'pre_tool_use: ["true"] (#2)']);
    assert.deepEqual(c.hooks['pre_tool_use: ["true"]'], {
      event: 'pre_tool_use',
      argv: ['true'],
      timeoutSeconds: 5,
      tools: ['*'],
    });
    assert.deepEqual(
      [r.source.root, r.source.canonicalPath, r.source.directories, r.source.applicable],
      [f.path('ws'), f.path('ws/.rivumi/hooks.json'), [], true],
    );
    fs.cpSync(f.path('ws'), f.path('copy'), { recursive: true });
    assert.equal(r.source.rehashCopy(f.path('copy')), r.source.item.contentHash);
    fs.writeFileSync(f.path('copy/.rivumi/hooks.json'), '{}');
    assert.notEqual(r.source.rehashCopy(f.path('copy')), r.source.item.contentHash);
  });

  it('refuses what is not a trust unit, and a unit that is gone', () => {
    writeW(f);
    const s = index([f.path('ws')]);
    const child = readBundleSource(byName(s, 'example-plugin:example'), LINUX_HOST);
    assert.deepEqual(child, {
      ok: false,
      message:
        'example-plugin:example is not a trust unit; only these are trusted: Rivumi plugins and the Rivumi hooks file; Codewhale bundles; Eva skill adapters and lua_skills',
    });
    fs.rmSync(f.path(W), { recursive: true });
    const gone = readBundleSource(byName(s, 'example-plugin'), LINUX_HOST);
    assert.ok(!gone.ok);
    assert.match(gone.message, /^bundle example-plugin at .* can no longer be read$/);
  });

  it('tells a directory from a file, a link and nothing', () => {
    f.write('file', 'x');
    f.mkdir('dir');
    f.symlink(f.path('dir'), 'link');
    assert.deepEqual(
      ['dir', 'file', 'link', 'missing'].map((n) => isDirectory(path.join(f.root, n))),
      [true, false, false, false],
    );
  });
});
