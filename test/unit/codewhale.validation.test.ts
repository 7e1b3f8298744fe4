import { strict as assert } from 'node:assert';
import { contractDetail } from '../../src/core/report/contract';
import * as fs from 'node:fs';
import { Fixture, index, writeW, byName, codes, messages, top } from './helpers/fixture';
import type { Snapshot } from '../../src/core/index/snapshot';
import { readPluginJson } from '../../src/core/systems/codewhale/formats/pluginJson';
import { Findings } from '../../src/core/diagnostics/findings';

/** The bundle `example-plugin` of W(extra) and every diagnostic. */
function w(f: Fixture, extra: string): { snapshot: Snapshot; decision: string; errors: string[] } {
  writeW(f, extra);
  const snapshot = index([f.path('ws')]);
  const item = byName(snapshot, 'example-plugin');
  return {
    snapshot,
    decision: item.decision,
    errors: snapshot.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
  };
}

function jsonBundle(f: Fixture, manifest: object | string, mcp?: object | string, name = 'j'): Snapshot {
  const dir = `ws/.codewhale/plugins/${name}`;
  f.write(`${dir}/plugin.json`, typeof manifest === 'string' ? manifest : JSON.stringify(manifest, null, 2));
  if (mcp !== undefined) f.write(`${dir}/mcp.json`, typeof mcp === 'string' ? mcp : JSON.stringify(mcp, null, 2));
  return index([f.path('ws')]);
}

const SCHEMA = 'https://agent-plugins.org/schemas/plugin.json';

describe('Codewhale validation (codewhale.md §4, §10.1)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('validates W("") with one skill and no warnings', () => {
    const r = w(f, '');
    assert.deepEqual(r.snapshot.diagnostics, []);
    assert.equal(r.decision, 'disabled');
    assert.equal(byName(r.snapshot, 'example-plugin:example').kind, 'skill');
    // §10.1 case 1: skills = 1, in the inventory and as items.
    assert.equal((byName(r.snapshot, 'example-plugin').detail.inventory as { skills: number }).skills, 1);
    assert.equal(r.snapshot.items.filter((i) => i.kind === 'skill').length, 1);
  });

  it('accepts a legacy manifest with schema 0 and version 0.0.0, with two warnings', () => {
    f.write('ws/.codewhale/plugins/legacy/plugin.toml', '[plugin]\nname = "legacy"\n');
    const s = index([f.path('ws')]);
    const item = byName(s, 'legacy');
    assert.equal(item.decision, 'disabled');
    assert.equal(item.detail.version, '0.0.0');
    assert.deepEqual(codes(s), ['codewhale.manifest-legacy', 'codewhale.manifest-legacy']);
    assert.deepEqual(messages(s), [
      'legacy manifest: add `schema_version = 1`',
      'legacy manifest: add a semantic `[plugin].version`; displaying `0.0.0`',
    ]);
  });

  it('rejects an unknown top-level field at that field', () => {
    const r = w(f, 'unknown = true\n');
    assert.equal(r.decision, 'rejected');
    const d = r.snapshot.diagnostics[0];
    assert.ok(d && d.message.startsWith('failed to parse plugin.toml near bytes '), d?.message);
    assert.deepEqual(d.range, { start: { line: 6, character: 0 }, end: { line: 6, character: 7 } });
  });

  it('rejects the name Bad_Name, the version latest, and schema 1 without a version', () => {
    f.write(
      'ws/.codewhale/plugins/a/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "Bad_Name"\nversion = "1.0.0"\n',
    );
    f.write('ws/.codewhale/plugins/b/plugin.toml', 'schema_version = 1\n[plugin]\nname = "b"\nversion = "latest"\n');
    f.write('ws/.codewhale/plugins/c/plugin.toml', 'schema_version = 1\n[plugin]\nname = "c"\n');
    const s = index([f.path('ws')]);
    assert.deepEqual(
      top(s).map((i) => i.decision),
      ['rejected', 'rejected', 'rejected'],
    );
    assert.ok(
      messages(s).includes('plugin name `Bad_Name` must be 1-64 lowercase ASCII letters, digits, or internal hyphens'),
    );
    assert.ok(messages(s).some((m) => m.startsWith('plugin version `latest` is not valid semantic versioning')));
    assert.ok(messages(s).some((m) => m.startsWith('plugin version `` is not valid semantic versioning')));
  });

  it('never echoes a sensitive value in a TOML type error', () => {
    f.write(
      'ws/.codewhale/plugins/s/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "s"\nversion = "1.0.0"\ndescription = ["sk-sensitive-value"]\n',
    );
    const s = index([f.path('ws')]);
    assert.equal(byName(s, 's').decision, 'rejected');
    assert.ok(s.diagnostics.length > 0);
    for (const m of messages(s)) assert.ok(!m.includes('sk-sensitive-value'), m);
  });

  for (const bad of ['../escape', '/tmp/escape', 'C:\\\\escape', '\\\\\\\\server\\\\share']) {
    it(`rejects the commands path ${bad}`, () => {
      const r = w(f, `[commands]\npath = "${bad}"\n`);
      assert.equal(r.decision, 'rejected');
      assert.ok(
        r.errors.some((e) => /commands path (must be relative|escapes the plugin root)/.test(e)),
        r.errors.join('\n'),
      );
    });
  }

  it('rejects a symlinked skills directory and a file symlink inside skills/', () => {
    f.write(
      'ws/.codewhale/plugins/a/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "a"\nversion = "1.0.0"\n[skills]\npath = "skills"\n',
    );
    f.write('real/x/SKILL.md', '---\nname: x\n---\nbody\n');
    f.symlink(f.path('real'), 'ws/.codewhale/plugins/a/skills');
    writeW(f, '', 'ws/.codewhale/plugins/b');
    f.symlink(f.path('real/x/SKILL.md'), 'ws/.codewhale/plugins/b/skills/link.md');
    const s = index([f.path('ws')]);
    assert.equal(top(s)[0]?.decision, 'rejected');
    assert.equal(top(s)[1]?.decision, 'rejected');
    assert.ok(messages(s).some((m) => m.includes('skills path may not traverse symbolic link')));
    assert.ok(messages(s).includes('component trees may not contain symbolic link skills/link.md'));
  });

  it('rejects a symlinked manifest and a symlinked bundle directory', () => {
    f.write('elsewhere/plugin.toml', 'schema_version = 1\n[plugin]\nname = "m"\nversion = "1.0.0"\n');
    f.mkdir('ws/.codewhale/plugins/m');
    f.symlink(f.path('elsewhere/plugin.toml'), 'ws/.codewhale/plugins/m/plugin.toml');
    f.symlink(f.path('elsewhere'), 'ws/.codewhale/plugins/linked');
    const s = index([f.path('ws')]);
    assert.equal(byName(s, 'm').decision, 'rejected');
    assert.ok(messages(s).includes('plugin.toml must be a regular file, not a symbolic link'));
    assert.ok(codes(s).includes('codewhale.bundle-symlink'));
  });

  it('rejects a control character and a bidi override in the author', () => {
    f.write(
      'ws/.codewhale/plugins/a/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "a"\nversion = "1.0.0"\nauthor = "line\\nbreak"\n',
    );
    f.write(
      'ws/.codewhale/plugins/b/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "b"\nversion = "1.0.0"\nauthor = "safe\\u202elmot.nigulp"\n',
    );
    const s = index([f.path('ws')]);
    assert.deepEqual(messages(s), [
      'author may not contain control characters',
      'author may not contain bidirectional formatting characters',
    ]);
  });

  describe('icons', () => {
    const png = (w: number, h: number) => {
      const b = Buffer.alloc(33);
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
      b.writeUInt32BE(13, 8);
      b.write('IHDR', 12, 'latin1');
      b.writeUInt32BE(w, 16);
      b.writeUInt32BE(h, 20);
      return `data:image/png;base64,${b.toString('base64')}`;
    };
    const cases: [string, string, string | undefined][] = [
      ['a real small PNG', png(16, 16), undefined],
      ['an https URL', 'https://example.com/icon.png', 'plugin icon must be an inline PNG'],
      ['an SVG data URL', 'data:image/svg+xml,<svg/>', 'plugin icon must be an inline PNG'],
      ['invalid base64', 'data:image/png;base64,invalid', 'plugin icon has invalid base64'],
      ['width 100000', png(100000, 16), 'plugin icon must fit within 256 by 256 pixels'],
      ['a 32769-character string', 'data:image/png;base64,' + 'A'.repeat(32769 - 22), 'plugin icon exceeds 32 KiB'],
    ];
    for (const [name, icon, expected] of cases) {
      it(`${expected ? 'rejects' : 'accepts'} ${name}`, () => {
        f.write(
          'ws/.codewhale/plugins/i/plugin.toml',
          `schema_version = 1\n[plugin]\nname = "i"\nversion = "1.0.0"\nicon = "${icon}"\n`,
        );
        const s = index([f.path('ws')]);
        assert.deepEqual(messages(s), expected ? [expected] : []);
      });
    }
  });

  it('accepts a bundle with 8 nested directories plus a payload', () => {
    writeW(f);
    f.write('ws/.codewhale/plugins/example-plugin/a/b/c/d/e/f/g/h/payload.txt', 'x');
    assert.equal(index([f.path('ws')]).diagnostics.length, 0);
  });

  describe('plugin.json', () => {
    it('rejects a missing $schema', () => {
      const s = jsonBundle(f, { name: 'j', version: '1.0.0' });
      assert.equal(byName(s, 'j').decision, 'rejected');
      assert.deepEqual(messages(s), ['failed to parse plugin.json: missing field `$schema`']);
    });
    it('rejects a root mcpServers key at that key', () => {
      const s = jsonBundle(f, { $schema: SCHEMA, name: 'j', version: '1.0.0', mcpServers: {} });
      assert.deepEqual(messages(s), ['failed to parse plugin.json: unknown field `mcpServers`']);
      assert.deepEqual(s.diagnostics[0]?.range, { start: { line: 4, character: 2 }, end: { line: 4, character: 14 } });
    });
    it('rejects an unknown net.codewhale key and ignores other namespaces', () => {
      const s = jsonBundle(f, {
        $schema: SCHEMA,
        name: 'j',
        version: '1.0.0',
        extensions: { 'net.codewhale': { surprise: 1 }, 'com.other': { anything: [1] } },
      });
      assert.deepEqual(messages(s), ['plugin.json extensions["net.codewhale"] is invalid: unknown field `surprise`']);
    });
    it('composes the author, reads when.os from the extension, and has no skills without skills/', () => {
      const s = jsonBundle(f, {
        $schema: SCHEMA,
        name: 'j',
        version: '1.0.0',
        author: { name: 'Acme', email: 'plugins@acme.example', url: 'https://acme.example' },
        extensions: { 'net.codewhale': { when: { os: ['macos'] } } },
      });
      const item = byName(s, 'j');
      assert.deepEqual(s.diagnostics, []);
      assert.equal((contractDetail(item, []).facts as { when: { os: string[] } }).when.os[0], 'macos');
      assert.deepEqual(item.reasons, ['not_reviewed', 'not_enabled', 'not_applicable']);
      assert.equal(s.items.filter((i) => i.kind === 'skill').length, 0);
    });
    it('rejects an extra root key, a nameless author, and a bad name', () => {
      jsonBundle(f, { $schema: SCHEMA, name: 'a', version: '1.0.0', extra: 1 }, undefined, 'a');
      jsonBundle(f, { $schema: SCHEMA, name: 'b', version: '1.0.0', author: { name: ' ' } }, undefined, 'b');
      const s = jsonBundle(f, { $schema: SCHEMA, name: 'Not--Valid', version: '1.0.0' }, undefined, 'c');
      assert.deepEqual(
        top(s).map((i) => i.decision),
        ['rejected', 'rejected', 'rejected'],
      );
      assert.ok(messages(s).includes('plugin.json author.name must be a non-empty string'));
      assert.ok(
        messages(s).some((m) =>
          m.startsWith('plugin.json name `Not--Valid` is invalid under the Agent Plugins standard'),
        ),
      );
    });
    it('reads plugin.json before plugin.toml: its name wins', () => {
      f.write(
        'ws/.codewhale/plugins/both/plugin.toml',
        'schema_version = 1\n[plugin]\nname = "from-toml"\nversion = "1.0.0"\n',
      );
      const s = jsonBundle(f, { $schema: SCHEMA, name: 'from-json', version: '1.0.0' }, undefined, 'both');
      assert.deepEqual(
        top(s).map((i) => i.name),
        ['from-json'],
      );
    });
    it('accepts a third-party bundle with stdio and sse servers (§10.1 case 15)', () => {
      f.write('ws/.codewhale/plugins/third/skills/x/SKILL.md', '---\nname: x\n---\nbody\n');
      f.write('ws/.codewhale/plugins/third/bin/run.sh', '#!/bin/sh\n', 0o755);
      const s = jsonBundle(
        f,
        {
          $schema: SCHEMA,
          name: 'third',
          version: '1.0.0',
          author: { name: 'Other Client', email: 'plugins@other.example' },
          extensions: { 'com.other': { x: 1 }, 'net.codewhale': { capabilities: { network_hosts: ['example.com'] } } },
        },
        {
          mcpServers: {
            local: {
              command: 'bin/run.sh',
              args: ['--port', '8080'],
              env: { API_KEY: '${THIRD_PARTY_API_KEY}' },
              cwd: 'bin',
            },
            remote: {
              type: 'sse',
              url: 'https://example.com/mcp',
              extensions: { 'net.codewhale': { env_headers: { 'X-Api-Key': 'REMOTE_KEY' } } },
            },
          },
        },
        'third',
      );
      assert.deepEqual(
        s.diagnostics.filter((d) => d.severity === 'error'),
        [],
      );
      const inv = byName(s, 'third').detail.inventory as Record<string, number>;
      assert.deepEqual([inv.mcp_servers, inv.stdio_mcp_servers, inv.remote_mcp_servers], [2, 1, 1]);
      // The composed author (compose_author, codewhale.md §3.2), as the manifest reader holds it.
      const file = f.path('ws/.codewhale/plugins/third/plugin.json');
      const m = readPluginJson(
        file,
        fs.readFileSync(file, 'utf8'),
        f.path('ws/.codewhale/plugins/third'),
        new Findings(),
      );
      assert.equal(m?.author?.value, 'Other Client <plugins@other.example>');
    });
    it('rejects any providers declaration under policy v3', () => {
      const s = jsonBundle(
        f,
        { $schema: SCHEMA, name: 'p', version: '1.0.0', extensions: { 'net.codewhale': { providers: {} } } },
        undefined,
        'p',
      );
      assert.equal(byName(s, 'p').decision, 'rejected');
      writeW(f, '[providers.x]\nkind = "y"\n', 'ws/.codewhale/plugins/q');
      assert.equal(top(index([f.path('ws')])).find((i) => i.path.endsWith('/q'))?.decision, 'rejected');
    });
  });

  describe('names (§3.8, §10.3)', () => {
    const valid = ['a', '0', 'ab', 'a-b', 'a.b', 'a-b.c-d', 'a.-b', 'acme.tools', 'a'.repeat(64)];
    const invalid = ['', 'A', 'a_b', 'a b', '-a', 'a-', '.a', 'a.', 'a--b', 'a..b', 'café', 'a'.repeat(65)];
    for (const n of valid)
      it(`accepts the Agent Plugins name ${JSON.stringify(n.length > 10 ? `${n.length} × a` : n)}`, () => {
        assert.deepEqual(messages(jsonBundle(f, { $schema: SCHEMA, name: n, version: '1.0.0' })), []);
      });
    for (const n of invalid)
      it(`rejects the Agent Plugins name ${JSON.stringify(n.length > 10 ? `${n.length} × a` : n)}`, () => {
        assert.deepEqual(
          top(jsonBundle(f, { $schema: SCHEMA, name: n, version: '1.0.0' })).map((i) => i.decision),
          ['rejected'],
        );
      });
    it('accepts a--b in plugin.toml', () => {
      f.write(
        'ws/.codewhale/plugins/x/plugin.toml',
        'schema_version = 1\n[plugin]\nname = "a--b"\nversion = "1.0.0"\n',
      );
      assert.deepEqual(messages(index([f.path('ws')])), []);
    });
  });

  it('rejects a Windows-looking absolute path on every host', () => {
    for (const p of [
      'C:\\\\plugins\\\\server.js',
      'C:/plugins/server.js',
      '\\\\plugins\\\\server.js',
      '/plugins/server.js',
    ]) {
      const r = w(f, `[commands]\npath = "${p}"\n`);
      assert.ok(
        r.errors.some((e) => e.startsWith('commands path must be relative')),
        `${p}: ${r.errors.join('; ')}`,
      );
      f.remove();
      f = new Fixture();
    }
    // §10.1 case 8, the other half: `plugins/server.js` and `server.js` are relative on every host.
    for (const p of ['plugins/server.js', 'server.js']) {
      const r = w(f, `[commands]\npath = "${p}"\n`);
      assert.ok(!r.errors.some((e) => e.startsWith('commands path must be relative')), `${p}: ${r.errors.join('; ')}`);
      f.remove();
      f = new Fixture();
    }
  });

  it('reads the last line of a broken TOML file as the parse position', () => {
    f.write('ws/.codewhale/plugins/x/plugin.toml', 'schema_version = 1\n[plugin]\nname = \n');
    const s = index([f.path('ws')]);
    assert.equal(s.diagnostics[0]?.range.start.line, 2);
    assert.ok(fs.existsSync(f.path('ws/.codewhale/plugins/x/plugin.toml')));
  });
});
