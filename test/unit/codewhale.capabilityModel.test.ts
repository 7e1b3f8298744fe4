import { strict as assert } from 'node:assert';
import type { Capabilities } from '../../src/core/capabilities';
import type { Item } from '../../src/core/model';
import { codewhale } from '../../src/core/systems/codewhale/system';
import { isIntegerLiteral } from '../../src/core/systems/codewhale/formats/schemas';
import { Fixture, index, byName, writeW } from './helpers/fixture';

/**
 * What a Codewhale bundle can do, as its review shows it and its receipt stores it
 * (codewhale.md §3.3–3.4 the server fields and their defaults, §3.1 `[capabilities]`;
 * trust.md: the review lists everything a bundle can do).
 */
describe('Codewhale capability model: every server field and declared capability, as the review shows it', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const capabilitiesOf = (extra: string): Capabilities => {
    writeW(f, extra);
    f.write('ws/.codewhale/plugins/example-plugin/bin/run.sh', '#!/bin/sh\n', 0o755);
    const item = byName(index([f.path('ws')]), 'example-plugin') as Item & { detail: { capabilities: Capabilities } };
    // Names the bundle chooses are keys of prototype-free maps; compared as plain data.
    return JSON.parse(JSON.stringify(item.detail.capabilities)) as Capabilities;
  };

  it('a stdio server: command, arguments, cwd, environment mappings by source, timeouts, required, tool lists', () => {
    const c = capabilitiesOf(
      '[mcp_servers.local]\ncommand = "bin/run.sh"\nargs = ["--stdio", "-v"]\ncwd = "bin"\nrequired = true\n' +
        'connect_timeout = 30\nread_timeout = 3600\nenabled_tools = ["read", "list"]\ndisabled_tools = ["write"]\n' +
        '[mcp_servers.local.env]\nAPI_TOKEN = "${HOST_TOKEN}"\n',
    );
    assert.deepEqual(c.mcpServers?.['local'], {
      transport: 'stdio',
      command: 'bin/run.sh',
      args: ['--stdio', '-v'],
      cwd: 'bin',
      env: { API_TOKEN: 'HOST_TOKEN' },
      url: null,
      envHeaders: {},
      bearerTokenEnvVar: null,
      timeouts: { connect_timeout: 30, read_timeout: 3600 },
      required: true,
      enabled: true,
      enabledTools: ['read', 'list'],
      disabledTools: ['write'],
    });
  });

  it('a server declared `enabled = false` is shown off, and optional by default', () => {
    const s = capabilitiesOf('[mcp_servers.off]\ncommand = "node"\nenabled = false\n').mcpServers?.['off'];
    assert.equal(s?.enabled, false);
    assert.equal(s?.required, false);
  });

  it('a remote server: its URL, transport, headers filled from the environment and bearer token source', () => {
    const s = capabilitiesOf(
      '[capabilities]\nnetwork_hosts = ["example.invalid"]\n[mcp_servers.remote]\nurl = "https://example.invalid/mcp"\n' +
        'bearer_token_env_var = "REMOTE_TOKEN"\n[mcp_servers.remote.env_headers]\nX-Api-Key = "REMOTE_KEY"\n',
    ).mcpServers?.['remote'];
    assert.equal(s?.transport, 'streamable-http');
    assert.equal(s?.url, 'https://example.invalid/mcp');
    assert.equal(s?.command, null);
    assert.deepEqual(s?.envHeaders, { 'X-Api-Key': 'REMOTE_KEY' });
    assert.equal(s?.bearerTokenEnvVar, 'REMOTE_TOKEN');
  });

  it('an environment value that is not exactly `${NAME}` names no source (the bundle is refused for it)', () => {
    const c = capabilitiesOf(
      '[mcp_servers.local]\ncommand = "node"\n[mcp_servers.local.env]\nA = "x${B}"\nC = "${D}y"\n',
    );
    assert.deepEqual(c.mcpServers?.['local']?.env, { A: null, C: null });
  });

  it('the declared capabilities: network hosts, filesystem roots and lifecycle mutation', () => {
    const c = capabilitiesOf(
      '[capabilities]\nnetwork_hosts = ["example.invalid"]\nfilesystem_roots = ["workspace"]\nlifecycle_mutation = true\n',
    );
    assert.deepEqual(
      [c.networkHosts, c.filesystemRoots, c.lifecycleMutation],
      [['example.invalid'], ['workspace'], true],
    );
  });

  it('a manifest that does not parse declares nothing: no hosts, no roots, no lifecycle mutation', () => {
    const c = capabilitiesOf('[capabilities\n');
    assert.deepEqual([c.networkHosts, c.filesystemRoots, c.lifecycleMutation, c.inventory], [[], [], false, null]);
  });
});

describe('Codewhale: what `check` asks about (decisions.md: a shadowed bundle never loads)', () => {
  const item = (enabled: boolean | null, decision: Item['decision']) => ({ enabled, decision }) as Item;
  it('an enabled bundle loads, unless another bundle of its name wins', () => {
    assert.equal(codewhale.loads(item(true, 'registered')), true);
    assert.equal(codewhale.loads(item(true, 'disabled')), true, 'enabled but changed since the review: check fails it');
    assert.equal(codewhale.loads(item(true, 'shadowed')), false);
    assert.equal(codewhale.loads(item(false, 'disabled')), false);
    assert.equal(codewhale.loads(item(null, 'rejected')), false);
  });
});

describe('Codewhale integer literals (serde fills an unsigned field only from an integer literal)', () => {
  it('JSON: digits without a leading zero, an optional minus; no fraction, exponent or plus', () => {
    for (const ok of ['0', '7', '10', '3600', '-1']) assert.equal(isIntegerLiteral(ok, 'json'), true, ok);
    for (const bad of ['01', '1.0', '1e3', '+1', '', '0x10', '1_000'])
      assert.equal(isIntegerLiteral(bad, 'json'), false, bad);
  });
  it('TOML: decimal with underscores and a sign, hexadecimal, octal, binary; no fraction or exponent', () => {
    for (const ok of ['30', '+30', '-3', '1_000', '0x1F', '0xdead_beef', '0o17', '0b101'])
      assert.equal(isIntegerLiteral(ok, 'toml'), true, ok);
    for (const bad of ['1.0', '1e3', '0x', '0o8', '0b2', '0xG', 'inf', '', '++1', '30s'])
      assert.equal(isIntegerLiteral(bad, 'toml'), false, bad);
  });
});
