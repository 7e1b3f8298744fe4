import { strict as assert } from 'node:assert';
import { enable } from '../../src/core/trust/switches';
import { check } from '../../src/core/trust/checkGate';
import { trustWorkspace } from './helpers/trustWorkspace';

/**
 * A server the manifest configures off is shown `disabled_by_manifest` ("configured off",
 * "never started") and still trusted with its bundle. Switching it on after the review must
 * drop that trust, or the reviewer's "will not start" would cover a server Codewhale now
 * starts. Upstream: `McpServerConfig::is_enabled` (`enabled && !disabled`, mcp.rs) gates
 * every connect path, `merge_plugin_mcp_servers` copies the manifest's switch unchanged,
 * and the switch is not in `hash_inventory` (manifest.rs), so the capability hash stays
 * put; `hash_bundle` hashes the manifest and `mcp.json` bytes, so the content hash moves
 * and the receipt reads `content-changed` (codewhale.md §8.2): the bundle is not active.
 */
describe('Codewhale: an MCP server switched on after review drops the trust', () => {
  const w = trustWorkspace();

  const toml = (name: string, server: string) =>
    `schema_version = 1\n[plugin]\nname = "${name}"\nversion = "1.0.0"\n[mcp_servers.srv]\ncommand = "node"\n${server}`;
  const pluginJson = (name: string) =>
    JSON.stringify({ $schema: 'https://agent-plugins.org/schemas/plugin.json', name, version: '1.0.0' });
  const mcpJson = (extension: string) =>
    `{"mcpServers":{"srv":{"command":"node","extensions":{"net.codewhale":${extension}}}}}`;

  /** Trusts and enables the bundle; asserts the server is off and the gate passes. */
  const trustWithServerOff = async (name: string) => {
    await w.trustNow(name);
    assert.ok((await enable(w.item(name), w.ctx)).ok);
    const server = w.item(`${name}:srv`);
    assert.deepEqual([server.decision, server.reasons], ['disabled', ['disabled_by_manifest']]);
    assert.deepEqual(check(w.snapshot()), []);
    const b = w.item(name);
    return { content: b.contentHash, capability: b.capabilityHash };
  };

  /** After the switch: the receipt no longer matches, nothing of the bundle runs, and the gate fails. */
  const assertTrustDropped = (name: string, before: { content: string | null; capability: string | null }) => {
    const b = w.item(name);
    assert.deepEqual([b.trust, b.enabled, b.decision], ['content-changed', true, 'disabled']);
    assert.notEqual(b.contentHash, before.content, 'the switch is in the hashed bytes');
    assert.equal(b.capabilityHash, before.capability, "upstream's inventory holds no per-server switch");
    const server = w.item(`${name}:srv`);
    assert.deepEqual([server.decision, server.reasons], ['disabled', ['bundle_inactive']]);
    assert.deepEqual(
      check(w.snapshot()).map((f) => [f.item.name, f.problem]),
      [[name, 'it changed since it was trusted (content-changed)']],
    );
  };

  it('plugin.toml: `enabled = false` turned to `enabled = true`', async () => {
    const manifest = 'ws/.codewhale/plugins/flip-toml/plugin.toml';
    w.f.write(manifest, toml('flip-toml', 'enabled = false\n'));
    const before = await trustWithServerOff('flip-toml');
    w.f.write(manifest, toml('flip-toml', 'enabled = true\n'));
    assertTrustDropped('flip-toml', before);
  });

  it('plugin.toml: the `enabled = false` line removed (on by default)', async () => {
    const manifest = 'ws/.codewhale/plugins/unset-toml/plugin.toml';
    w.f.write(manifest, toml('unset-toml', 'enabled = false\n'));
    const before = await trustWithServerOff('unset-toml');
    w.f.write(manifest, toml('unset-toml', ''));
    assertTrustDropped('unset-toml', before);
  });

  it('mcp.json: `extensions["net.codewhale"].disabled` true turned to false', async () => {
    const dir = 'ws/.codewhale/plugins/flip-json';
    w.f.write(`${dir}/plugin.json`, pluginJson('flip-json'));
    w.f.write(`${dir}/mcp.json`, mcpJson('{"disabled":true}'));
    const before = await trustWithServerOff('flip-json');
    w.f.write(`${dir}/mcp.json`, mcpJson('{"disabled":false}'));
    assertTrustDropped('flip-json', before);
  });

  it('mcp.json: `extensions["net.codewhale"].enabled` false turned to null (None: on by default)', async () => {
    const dir = 'ws/.codewhale/plugins/null-json';
    w.f.write(`${dir}/plugin.json`, pluginJson('null-json'));
    w.f.write(`${dir}/mcp.json`, mcpJson('{"enabled":false}'));
    const before = await trustWithServerOff('null-json');
    w.f.write(`${dir}/mcp.json`, mcpJson('{"enabled":null}'));
    assertTrustDropped('null-json', before);
  });
});
