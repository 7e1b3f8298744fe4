import { strict as assert } from 'node:assert';
import { Findings } from '../../src/core/diagnostics/findings';
import { readMcpJson } from '../../src/core/systems/codewhale/formats/mcpJson';
import type { McpServerDecl } from '../../src/core/systems/codewhale/manifest';
import { Fixture } from './helpers/fixture';

/**
 * A struct written as a JSON array (codewhale.md §3.3, §4.2 "JSON manifests follow
 * serde_json"): serde's derived structs read a sequence too, element i filling field i.
 * Expected outcomes are those of serde_derive 1.0.152 + serde_json 1.0.87 on upstream's
 * own `StandardMcpFile`, `StandardMcpServer`, `CodewhaleMcpExtension` (the oracle in
 * /tmp/mcp-oracle): Codewhale loads these servers, so Skillgate must not call them invalid.
 */
describe('Codewhale mcp.json: structs written as arrays (serde visit_seq, codewhale.md §3.3)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const read = (text: string) => {
    f.write('b/mcp.json', text);
    const findings = new Findings();
    const servers = readMcpJson(f.path('b/mcp.json'), findings);
    return { servers, messages: findings.diagnostics.map((d) => d.message) };
  };
  const one = (text: string): McpServerDecl => {
    const r = read(text);
    assert.deepEqual(r.messages, []);
    assert.equal(r.servers?.length, 1);
    return r.servers?.[0] as McpServerDecl;
  };

  it('reads a server written as [type, command, args, env, cwd, url, headers, extensions]', () => {
    const s = one('{"mcpServers":{"s":["stdio","node",["server.js"],{"A":"${B}"},"bin"]}}');
    assert.equal(s.command?.value, 'node');
    assert.deepEqual(
      s.args.map((a) => a.value),
      ['server.js'],
    );
    assert.deepEqual(
      s.env.map((e) => [e.name, e.value]),
      [['A', '${B}']],
    );
    assert.equal(s.cwd?.value, 'bin');
    const remote = one('{"mcpServers":{"r":[null,null,[],{},null,"https://example.invalid/mcp"]}}');
    assert.equal(remote.url?.value, 'https://example.invalid/mcp');
    assert.equal(remote.command, undefined);
  });

  it('reads the file as [$schema, mcpServers] and the extension and its oauth as arrays', () => {
    assert.equal(one('[null,{"s":{"command":"node"}}]').command?.value, 'node');
    assert.deepEqual(one('{"mcpServers":{"s":{"command":"node","extensions":{"net.codewhale":[]}}}}').timeouts, []);
    const s = one(
      '{"mcpServers":{"s":{"url":"https://h.invalid/","extensions":{"net.codewhale":[{"X":"K"},"B",30]}}}}',
    );
    assert.deepEqual(
      s.envHeaders.map((h) => [h.name, h.value]),
      [['X', 'K']],
    );
    assert.equal(s.bearerTokenEnvVar?.value, 'B');
    assert.deepEqual(
      s.timeouts.map((t) => [t.label, t.value]),
      [['connect_timeout', 30]],
    );
    const o = one(
      '{"mcpServers":{"s":{"url":"https://h.invalid/","extensions":{"net.codewhale":[{},null,null,null,null,null,null,null,[],[],[],["id"]]}}}}',
    );
    assert.deepEqual(o.oauth?.value, { clientId: 'id' });
  });

  it('still refuses what serde refuses: too many elements, a missing mcpServers, null for a list, a float timeout', () => {
    for (const [text, message] of [
      [
        '{"mcpServers":{"s":["stdio","node",[],{},null,null,{},{},"extra"]}}',
        'failed to parse mcp.json: expected object at `mcpServers.s`',
      ],
      ['[null]', 'failed to parse mcp.json: missing field `mcpServers`'],
      ['{"mcpServers":{"s":["stdio","node",null]}}', 'failed to parse mcp.json: expected array at `mcpServers.s.args`'],
    ] as [string, string][]) {
      const r = read(text);
      assert.equal(r.servers, undefined, text);
      assert.deepEqual(r.messages, [message], text);
    }
    const r = read('{"mcpServers":{"s":{"command":"node","extensions":{"net.codewhale":[{},null,1.0]}}}}');
    assert.equal(r.servers, undefined);
    assert.deepEqual(r.messages, [
      'mcp.json server extensions["net.codewhale"] is invalid: expected an unsigned integer at `connect_timeout`',
    ]);
  });
});
