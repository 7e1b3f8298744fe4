import { strict as assert } from 'node:assert';
import { Findings } from '../../src/core/diagnostics/findings';
import { readMcpJson } from '../../src/core/systems/codewhale/formats/mcpJson';
import { readPluginJson } from '../../src/core/systems/codewhale/formats/pluginJson';
import { readKimiJson } from '../../src/core/systems/codewhale/formats/kimiJson';
import type { Manifest, McpServerDecl } from '../../src/core/systems/codewhale/manifest';
import type { Diagnostic } from '../../src/core/model';
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

/**
 * The manifests' own structs written as arrays (codewhale.md §3.2, §3.5, §3.6): upstream's
 * `StandardPluginManifest`, `StandardAuthor`, `CodewhalePluginExtension` (as a v3-era build
 * declares it: `icon` second, no `providers`), `PluginPathSpec`, `PluginCapabilities`, `PluginWhen`,
 * `KimiPluginManifest` (its untagged `KimiAuthor`), `KimiInterface`, `KimiMcpInterfaceOverride`,
 * `KimiMcpServer`. Expected outcomes from the oracle in /tmp/serde-oracle (serde_derive
 * 1.0.152 + serde_json 1.0.87 on those structs).
 */
describe('Codewhale plugin.json, kimi.plugin.json and the Claude form: structs written as arrays', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  type Read = { m: Manifest | undefined; messages: string[]; diagnostics: readonly Diagnostic[]; text: string };
  const read = (kind: 'json' | 'kimi' | 'claude', text: string, mcp?: string, dirs: string[] = []): Read => {
    const rel =
      kind === 'json' ? 'b/plugin.json' : kind === 'kimi' ? 'b/kimi.plugin.json' : 'b/.claude-plugin/plugin.json';
    f.write(rel, text);
    if (mcp !== undefined) f.write(kind === 'claude' ? 'b/.mcp.json' : 'b/mcp.json', mcp);
    for (const d of dirs) f.mkdir(`b/${d}`);
    const findings = new Findings();
    const m =
      kind === 'json'
        ? readPluginJson(f.path(rel), text, f.path('b'), findings)
        : readKimiJson(
            f.path(rel),
            text,
            f.path('b'),
            findings,
            kind === 'kimi' ? 'kimi.plugin.json' : '.claude-plugin/plugin.json',
          );
    return { m, messages: findings.diagnostics.map((d) => d.message), diagnostics: findings.diagnostics, text };
  };
  const loaded = (r: Read): Manifest => {
    assert.deepEqual(r.messages, []);
    assert.ok(r.m);
    return r.m;
  };
  const values = (l: readonly { value: string }[] | undefined) => (l ?? []).map((x) => x.value);
  // The document's text under a one-line file's range.
  const under = (r: Read, range: { start: { character: number }; end: { character: number } }) =>
    r.text.slice(range.start.character, range.end.character);

  it('reads plugin.json, its author, its extension and path specs as arrays in declaration order', () => {
    const m = loaded(
      read(
        'json',
        '["https://s","p","1.0.0","d",["N","e","u"],"h","r","MIT",["k"],{"net.codewhale":["D","i",["s"],[null,["c1","c2"]]]}]',
      ),
    );
    assert.deepEqual(
      [m.name.value, m.version.value, m.description?.value, m.author?.value, m.homepage?.value, m.license?.value],
      ['p', '1.0.0', 'd', 'N <e> (u)', 'h', 'MIT'],
    );
    assert.deepEqual([m.displayName?.value, m.icon?.value, values(m.keywords)], ['D', 'i', ['k']]);
    assert.deepEqual(values(m.components.skills?.paths), ['s']);
    assert.deepEqual(values(m.components.commands?.paths), ['c1', 'c2']);
    const caps = loaded(
      read(
        'json',
        '{"$schema":"s","name":"p","extensions":{"net.codewhale":{"capabilities":[["/f"],["h.example"],true],"when":[["linux"],["git"]]}}}',
      ),
    );
    assert.deepEqual(
      [values(caps.filesystemRoots), values(caps.networkHosts), caps.lifecycleMutation],
      [['/f'], ['h.example'], true],
    );
    assert.deepEqual([values(caps.when?.os), values(caps.when?.binaries)], [['linux'], ['git']]);
    assert.equal(loaded(read('json', '{"$schema":"s","name":"p","author":["N"]}')).author?.value, 'N');
  });

  it("reads the extension's 9th element as `capabilities` (a v3-era build has no `providers`), refuses an 11th, and a short author", () => {
    const nine = loaded(
      read(
        'json',
        '{"$schema":"s","name":"p","extensions":{"net.codewhale":[null,null,null,null,null,null,null,null,[[],[],true],[["linux"]]]}}',
      ),
    );
    assert.deepEqual([nine.lifecycleMutation, values(nine.when?.os)], [true, ['linux']]);
    const eleven = read(
      'json',
      '{"$schema":"s","name":"p","extensions":{"net.codewhale":[null,null,null,null,null,null,null,null,null,null,null]}}',
    );
    assert.equal(eleven.m, undefined);
    const r = read('json', '{"$schema":"s","name":"p","author":[]}');
    assert.equal(r.m, undefined);
    assert.deepEqual(r.messages, ['failed to parse plugin.json: missing field `name`']);
  });

  it('reads kimi.plugin.json, its author, interface, overrides and servers as arrays', () => {
    const m = loaded(
      read(
        'kimi',
        '[null,"k",null,null,[],["N","e"],null,null,null,"s",["c"],null,{"a":["stdio","node",[],{},null,null,{},{"net.codewhale":[{},null,5]},["t"]]},["D",null,null,null,null,null,null,"local",["linux"],{"a":["x","y"]}]]',
      ),
    );
    assert.deepEqual([m.name.value, m.author?.value, m.displayName?.value], ['k', 'N <e>', 'D']);
    assert.deepEqual([values(m.components.skills?.paths), values(m.components.commands?.paths)], [['s'], ['c']]);
    assert.deepEqual(values(m.when?.os), ['linux']);
    const s = m.mcpServers[0] as McpServerDecl;
    assert.deepEqual(
      [s.command?.value, values(s.enabledTools), s.timeouts.map((t) => [t.label, t.value])],
      ['node', ['t'], [['connect_timeout', 5]]],
    );
  });

  it('keeps the last of a map key repeated inside a struct written as an array, as serde does', () => {
    f.write('m/mcp.json', '[null,{"a":{"command":"x"},"a":{"command":"node"}}]');
    const findings = new Findings();
    const servers = readMcpJson(f.path('m/mcp.json'), findings);
    assert.deepEqual(
      findings.diagnostics.map((d) => d.message),
      [],
    );
    assert.equal(servers?.[0]?.command?.value, 'node');
    const k = loaded(
      read(
        'kimi',
        '[null,"k",null,null,[],null,null,null,null,null,null,null,{"a":{"command":"x"},"a":{"command":"node"}}]',
      ),
    );
    assert.equal(k.mcpServers[0]?.command?.value, 'node');
    assert.ok(loaded(read('json', '["s","p",null,null,null,null,null,null,[],{"x":1,"x":2}]')));
  });

  it('the Claude form: its root must be an object; a server array keeps `type: "http"` unrenamed', () => {
    const root = read('claude', '["s","k"]');
    assert.equal(root.m, undefined);
    assert.deepEqual(root.messages, ['Claude plugin.json must be an object']);
    const http = read('claude', '{"name":"k","mcpServers":{"a":["http",null,[],{},null,"https://h.example/"]}}');
    assert.equal(http.m, undefined);
    assert.deepEqual(http.messages, [
      'mcp.json server `a` has unknown type `http`; expected `stdio`, `streamable-http`, or `sse`',
    ]);
    const sse = loaded(read('claude', '{"name":"k","mcpServers":{"a":["sse",null,[],{},null,"https://h.example/"]}}'));
    assert.equal(sse.mcpServers[0]?.url?.value, 'https://h.example/');
    assert.equal(
      loaded(read('claude', '{"name":"k","author":["N",null,"u"]}', undefined, ['skills'])).author?.value,
      'N (u)',
    );
  });

  it('anchors diagnostics, quick fixes and values at the element that holds the field', () => {
    const bad = read('json', '["s","Bad Name"]');
    const name = bad.diagnostics.find((d) => d.code === 'codewhale.manifest.name') as Diagnostic;
    assert.equal(under(bad, name.range), '"Bad Name"');
    assert.equal(under(bad, name.fix?.edits[0]?.range as Diagnostic['range']), '"Bad Name"');
    const author = read('json', '["s","p",null,null,[1]]');
    assert.deepEqual(author.messages, ['failed to parse plugin.json: expected string at `author.name`']);
    assert.equal(under(author, (author.diagnostics[0] as Diagnostic).range), '1');
    const m = loaded(
      read('json', '{"$schema":"s","name":"p","extensions":{"net.codewhale":{"capabilities":[[],["h"]]}}}'),
    );
    assert.deepEqual(m.networkHosts[0]?.at.path, ['extensions', 'net.codewhale', 'capabilities', 1, 0]);
    const k = loaded(read('kimi', '[null,"k",null,null,["kw"]]'));
    assert.deepEqual([k.name.at.path, k.keywords[0]?.at.path], [[1], [4, 0]]);
    f.write('m/mcp.json', '{"mcpServers":{"s":["stdio","node",[],{"PLUGIN_ROOT":"x"}]}}');
    const findings = new Findings();
    readMcpJson(f.path('m/mcp.json'), findings);
    const text = '{"mcpServers":{"s":["stdio","node",[],{"PLUGIN_ROOT":"x"}]}}';
    const d = findings.diagnostics[0] as Diagnostic;
    assert.equal(text.slice(d.range.start.character, d.range.end.character), '"PLUGIN_ROOT"');
  });
});
