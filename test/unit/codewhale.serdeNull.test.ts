import { strict as assert } from 'node:assert';
import { Findings } from '../../src/core/diagnostics/findings';
import { readPluginJson } from '../../src/core/systems/codewhale/formats/pluginJson';
import { readKimiJson } from '../../src/core/systems/codewhale/formats/kimiJson';
import type { Manifest } from '../../src/core/systems/codewhale/manifest';
import { Fixture } from './helpers/fixture';

/**
 * JSON `null` as Codewhale's serde structs read it (codewhale.md §4.2, "JSON manifests
 * follow serde_json"): a field declared `Option<T>` takes `null` as None, the same as the
 * field left out, while a `String`, `Vec`, map or `bool` field refuses it. So a
 * `plugin.json` with `"version": null` loads (as `0.0.0`), and one with
 * `"keywords": null` does not. Expected outcomes are those of serde_derive 1.0.152 and
 * serde_json 1.0.87 on upstream's own structs (agent_plugin.rs, manifest.rs, mcp.rs).
 */
describe('Codewhale JSON manifests: null where serde reads an Option (codewhale.md §3.2–§3.5)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const SCHEMA = '"$schema":"https://agent-plugins.org/schemas/plugin.json"';
  const readJson = (text: string, mcp?: string) => {
    const root = f.mkdir('b');
    if (mcp !== undefined) f.write('b/mcp.json', mcp);
    const findings = new Findings();
    const m = readPluginJson(f.path('b/plugin.json'), text, root, findings);
    return { m, messages: findings.diagnostics.map((d) => d.message) };
  };
  const readKimi = (text: string) => {
    const root = f.mkdir('b');
    const findings = new Findings();
    const m = readKimiJson(f.path('b/kimi.plugin.json'), text, root, findings);
    return { m, messages: findings.diagnostics.map((d) => d.message) };
  };
  const loaded = (r: { m: Manifest | undefined; messages: string[] }): Manifest => {
    assert.deepEqual(r.messages, []);
    assert.ok(r.m);
    return r.m;
  };

  it('plugin.json: null for every Option field loads as if the field were absent', () => {
    const m = loaded(
      readJson(
        `{${SCHEMA},"name":"p","version":null,"description":null,"author":{"name":"N","email":null,"url":null},` +
          '"homepage":null,"repository":null,"license":null,"extensions":{"net.codewhale":{"display_name":null,' +
          '"icon":null,"skills":{"path":null,"paths":["s"]},"commands":null,"agents":null,"hooks":null,"lsp":null,' +
          '"native":null,"capabilities":null,"when":{"os":null,"binaries":null}}}}',
      ),
    );
    assert.equal(m.version.value, '0.0.0');
    assert.equal(m.author?.value, 'N');
    for (const absent of ['description', 'homepage', 'repository', 'license', 'displayName', 'icon'] as const)
      assert.equal(m[absent], undefined, absent);
    assert.deepEqual(Object.keys(m.components), ['skills']);
    assert.deepEqual(
      m.components.skills?.paths.map((p) => p.value),
      ['s'],
    );
    assert.equal(m.lifecycleMutation, false);
    // `"when": {}` in effect: a `[when]` that restricts nothing.
    assert.ok(m.when);
    assert.equal(m.when.os, undefined);
    assert.equal(m.when.binaries, undefined);
  });

  it('plugin.json: a null author or extension field reads as none', () => {
    const m = loaded(readJson(`{${SCHEMA},"name":"p","author":null,"extensions":{"net.codewhale":{"when":null}}}`));
    assert.equal(m.author, undefined);
    assert.equal(m.when, undefined);
  });

  it('plugin.json: null stays refused where serde reads a String, Vec, map, bool or struct', () => {
    for (const [text, message] of [
      [`{"$schema":null,"name":"p"}`, 'failed to parse plugin.json: expected string at `$schema`'],
      [`{${SCHEMA},"name":null}`, 'failed to parse plugin.json: expected string at `name`'],
      [`{${SCHEMA},"name":"p","keywords":null}`, 'failed to parse plugin.json: expected array at `keywords`'],
      [`{${SCHEMA},"name":"p","extensions":null}`, 'failed to parse plugin.json: expected record at `extensions`'],
      [
        `{${SCHEMA},"name":"p","author":{"name":null}}`,
        'failed to parse plugin.json: expected string at `author.name`',
      ],
      [
        `{${SCHEMA},"name":"p","extensions":{"net.codewhale":null}}`,
        'plugin.json extensions["net.codewhale"] is invalid: expected object',
      ],
      [
        `{${SCHEMA},"name":"p","extensions":{"net.codewhale":{"skills":{"paths":null}}}}`,
        'plugin.json extensions["net.codewhale"] is invalid: expected array at `skills.paths`',
      ],
      [
        `{${SCHEMA},"name":"p","extensions":{"net.codewhale":{"capabilities":{"lifecycle_mutation":null}}}}`,
        'plugin.json extensions["net.codewhale"] is invalid: expected boolean at `capabilities.lifecycle_mutation`',
      ],
      // serde marks a field seen at its first value, null or not.
      [
        `{${SCHEMA},"name":"p","version":null,"version":"1.0.0"}`,
        'failed to parse plugin.json: duplicate field `version`',
      ],
    ] as [string, string][]) {
      const r = readJson(text);
      assert.equal(r.m, undefined, text);
      assert.deepEqual(r.messages, [message], text);
    }
  });

  it('mcp.json: null for an Option field of a server or its extension reads as none', () => {
    const m = loaded(
      readJson(
        `{${SCHEMA},"name":"p"}`,
        '{"$schema":null,"mcpServers":{"a":{"type":null,"command":"c","cwd":null,"url":null,"extensions":' +
          '{"net.codewhale":{"bearer_token_env_var":null,"connect_timeout":null,"execute_timeout":null,' +
          '"read_timeout":null,"enabled":null,"disabled":null,"required":null,"oauth":{"client_id":null},' +
          '"oauth_resource":null}}},"b":{"url":"https://h.example/","extensions":{"net.codewhale":{"oauth":null}}}}}',
      ),
    );
    const [a, b] = m.mcpServers;
    assert.equal(a?.command?.value, 'c');
    for (const absent of ['cwd', 'url', 'transport', 'required', 'bearerTokenEnvVar', 'oauthResource'] as const)
      assert.equal(a?.[absent], undefined, absent);
    assert.deepEqual(a?.timeouts, []);
    assert.equal(a?.enabled, true);
    assert.equal(a?.disabled, false);
    assert.deepEqual(a?.oauth?.value, {});
    assert.equal(b?.oauth, undefined);
  });

  it('mcp.json: null stays refused where serde reads a map or Vec', () => {
    for (const [mcp, message] of [
      ['{"mcpServers":null}', 'failed to parse mcp.json: expected record at `mcpServers`'],
      [
        '{"mcpServers":{"a":{"command":"c","args":null}}}',
        'failed to parse mcp.json: expected array at `mcpServers.a.args`',
      ],
      [
        '{"mcpServers":{"a":{"command":"c","extensions":{"net.codewhale":{"scopes":null}}}}}',
        'mcp.json server extensions["net.codewhale"] is invalid: expected array at `scopes`',
      ],
    ] as [string, string][]) {
      const r = readJson(`{${SCHEMA},"name":"p"}`, mcp);
      assert.equal(r.m, undefined, mcp);
      assert.deepEqual(r.messages, [message], mcp);
    }
  });

  it('kimi.plugin.json: null for every Option field loads as if the field were absent', () => {
    const m = loaded(
      readKimi(
        '{"$schema":null,"name":"k","version":null,"description":null,"author":{"name":"N","email":null},' +
          '"homepage":null,"repository":null,"license":null,"skills":null,"commands":null,"agents":null,' +
          '"mcpServers":{"x":{"type":null,"command":"c","cwd":null,"url":null}},"interface":{"displayName":null,' +
          '"shortDescription":null,"longDescription":null,"developerName":null,"websiteURL":null,"iconUrl":null,' +
          '"category":null,"hostKind":null,"mcpOverrides":{"x":{"displayName":null,"iconUrl":null}}}}',
      ),
    );
    assert.equal(m.version.value, '0.0.0');
    assert.equal(m.author?.value, 'N');
    assert.deepEqual(m.components, {});
    assert.equal(m.displayName, undefined);
    assert.equal(m.mcpServers[0]?.command?.value, 'c');
    assert.equal(loaded(readKimi('{"name":"k","author":null,"interface":null}')).author, undefined);
  });

  it('kimi.plugin.json: null stays refused where serde reads a Vec or map', () => {
    for (const [text, message] of [
      ['{"name":"k","keywords":null}', 'failed to parse kimi.plugin.json: expected array at `keywords`'],
      ['{"name":"k","mcpServers":null}', 'failed to parse kimi.plugin.json: expected record at `mcpServers`'],
      [
        '{"name":"k","interface":{"platforms":null}}',
        'failed to parse kimi.plugin.json: expected array at `interface.platforms`',
      ],
    ] as [string, string][]) {
      const r = readKimi(text);
      assert.equal(r.m, undefined, text);
      assert.deepEqual(r.messages, [message], text);
    }
  });

  describe('.claude-plugin/plugin.json (§3.6): upstream reads it as a serde_json::Value first', () => {
    const readClaude = (text: string, dirs: string[] = [], dotMcp?: string) => {
      const root = f.mkdir('b');
      f.mkdir('b/.claude-plugin');
      for (const d of dirs) f.mkdir(`b/${d}`);
      if (dotMcp !== undefined) f.write('b/.mcp.json', dotMcp);
      const findings = new Findings();
      const m = readKimiJson(
        f.path('b/.claude-plugin/plugin.json'),
        text,
        root,
        findings,
        '.claude-plugin/plugin.json',
      );
      return { m, messages: findings.diagnostics.map((d) => d.message) };
    };

    it('refuses a null component list where the directory exists, and reads it as none where not', () => {
      // With the directory, upstream reads the declared list apart into `KimiPathSpec`, which takes no null.
      for (const kind of ['skills', 'commands', 'agents']) {
        const r = readClaude(`{"name":"a","${kind}":null}`, [kind]);
        assert.equal(r.m, undefined, kind);
        assert.deepEqual(r.messages, [`invalid Claude ${kind} paths: expected a string or a list of strings`], kind);
        f.remove();
        f = new Fixture();
      }
      assert.deepEqual(loaded(readClaude('{"name":"a","skills":null}')).components, {});
    });

    it('drops the `$schema` of a wrapped .mcp.json whatever its value', () => {
      for (const schema of ['"$schema":5,', '"$schema":null,', '"$schema":"s",', '"$schema":{},', '']) {
        const m = loaded(readClaude('{"name":"a"}', [], `{${schema}"mcpServers":{"x":{"command":"c"}}}`));
        assert.deepEqual(
          m.mcpServers.map((s) => s.id),
          ['x'],
          schema,
        );
      }
    });
  });
});
