import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { review } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import { enable, revoke } from '../../src/core/trust/switches';
import { reviewText } from '../../src/core/review/reviewText';
import { pairsHash } from '../../src/core/hashing/capabilityPairs';
import { writeW, byName } from './helpers/fixture';
import { trustWorkspace } from './helpers/trustWorkspace';

/**
 * The acceptance scenarios of codewhale.md §10.7 and §10.8 that no other test spells out:
 * each as the scenario states it, through the index, the lifecycle and the text review.
 * (§10.1–§10.6 live beside the rules they exercise: codewhale.validation, codewhale.mcp,
 * hashing, codewhale.skills and codewhale.discovery; §10.7 cases 1–8, 10, 12, 14, 15 in
 * trust.lifecycle, case 11 in trust.concurrency.)
 */
describe('Codewhale acceptance scenarios (codewhale.md §10.7, §10.8)', () => {
  const w = trustWorkspace();

  const item = (name: string) => byName(w.snapshot(), name);
  const textOf = (name: string) => {
    const current = item(name);
    const r = review(current, w.ctx);
    assert.ok(r.ok, r.ok ? '' : r.message);
    return reviewText(r.value, [w.f.path('ws')], false, false, current);
  };

  /** The mixed bundle of §10.8 case 1: a skill, commands, hooks and lsp. */
  const writeMixed = () => {
    const dir = 'ws/.codewhale/plugins/mixed';
    w.f.write(
      `${dir}/plugin.toml`,
      'schema_version = 1\n[plugin]\nname = "mixed"\nversion = "1.0.0"\n[skills]\npath = "skills"\n' +
        '[commands]\npath = "commands"\n[hooks]\npath = "hooks"\n[lsp]\npath = "lsp"\n',
    );
    w.f.write(`${dir}/skills/hello/SKILL.md`, '---\nname: hello\ndescription: hello\n---\nbody\n');
    w.f.write(`${dir}/commands/run.md`, 'run\n');
    w.f.write(`${dir}/hooks/hooks.json`, '{}\n');
    w.f.write(`${dir}/lsp/lsp.json`, '{}\n');
    return dir;
  };

  it('mixed bundle: revoke drops the skill; re-trust is not active until enable; a content edit is content-changed (§10.7 case 9)', async () => {
    const dir = writeMixed();
    await w.trustNow('mixed');
    assert.ok((await enable(item('mixed'), w.ctx)).ok);
    assert.deepEqual(item('mixed:hello').reasons, ['component_active']);
    assert.ok((await revoke(item('mixed'), w.ctx)).ok);
    assert.deepEqual([item('mixed').decision, item('mixed').enabled], ['disabled', true]);
    assert.deepEqual(item('mixed:hello').reasons, ['bundle_inactive']);
    await w.trustNow('mixed');
    assert.deepEqual(
      [item('mixed').trust, item('mixed').enabled, item('mixed').reasons],
      ['trusted', false, ['not_enabled']],
    );
    assert.deepEqual(item('mixed:hello').reasons, ['bundle_inactive']);
    assert.ok((await enable(item('mixed'), w.ctx)).ok);
    assert.deepEqual(item('mixed:hello').reasons, ['component_active']);
    w.f.write(`${dir}/commands/run.md`, 'run something else\n');
    assert.deepEqual(
      [item('mixed').trust, item('mixed').enabled, item('mixed').decision],
      ['content-changed', true, 'disabled'],
    );
    assert.deepEqual(item('mixed:hello').reasons, ['bundle_inactive']);
  });

  it('a receipt whose capability hash is the v2-domain digest shows as capabilities-changed (§10.7 case 10)', async () => {
    writeW(w.f);
    await w.trustNow('example-plugin');
    assert.ok((await enable(item('example-plugin'), w.ctx)).ok);
    const current = item('example-plugin').capabilityHash;
    // codewhale.md §7.5: the v2 domain, its own policy (skills and MCP supported, the rest inactive), then the pairs.
    const v2 =
      'codewhale-plugin-capabilities-v2\0policy-version\0' +
      '2\0' +
      ['skills', 'mcp-stdio', 'mcp-remote'].map((c) => `supported\0${c}\0`).join('') +
      ['commands', 'agents', 'hooks', 'lsp', 'native', 'filesystem-roots', 'lifecycle-mutation']
        .map((c) => `inactive\0${c}\0`)
        .join('');
    const pairs = new Map([
      ['agents', '0'],
      ['commands', '0'],
      ['filesystem', ''],
      ['hooks', '0'],
      ['lifecycle', 'false'],
      ['lsp', '0'],
      ['mcp', '0'],
      ['mcp-remote', '0'],
      ['mcp-stdio', '0'],
      ['native', '0'],
      ['network', ''],
      ['skills', '1'],
    ]);
    const digest = pairsHash(v2, pairs);
    assert.notEqual(digest, current);
    const raw = JSON.parse(fs.readFileSync(w.store.file, 'utf8'));
    const key = Object.keys(raw.bundles)[0] as string;
    raw.bundles[key].trust.capabilityHash = digest;
    fs.writeFileSync(w.store.file, JSON.stringify(raw), { mode: 0o600 });
    const i = item('example-plugin');
    assert.deepEqual([i.trust, i.enabled, i.decision], ['capabilities-changed', true, 'disabled']);
  });

  it('refuses trust when the reviewed bundle directory is replaced by a symbolic link (§10.7 case 14)', async () => {
    const dir = writeW(w.f);
    const reviewed = item('example-plugin');
    const token = w.tokenOf('example-plugin');
    // The same bytes elsewhere, and the bundle's place now a link to them.
    fs.cpSync(dir, w.f.path('elsewhere/example-plugin'), { recursive: true });
    fs.rmSync(dir, { recursive: true });
    fs.symlinkSync(w.f.path('elsewhere/example-plugin'), dir);
    const r = await trust(reviewed, token, w.ctx);
    assert.ok(!r.ok, 'trust through a link must be refused');
    assert.ok(!fs.existsSync(w.store.file), 'nothing is written');
    const s = w.snapshot();
    assert.ok(
      s.diagnostics.some((d) => d.code === 'codewhale.bundle-symlink'),
      s.diagnostics.map((d) => d.code).join(', '),
    );
  });

  it('mixed bundle display: partial, inactive lsp; after trust and enable the active kinds and the qualified skill (§10.8 case 1)', async () => {
    writeMixed();
    const before = item('mixed');
    assert.equal(before.compatibility, 'partial');
    const inventory = before.detail.inventory as { summary: string };
    assert.match(inventory.summary, /commands=1/);
    assert.match(inventory.summary, /hooks=1/);
    assert.deepEqual(before.detail.activation?.inactiveComponents, ['lsp']);
    assert.notEqual(before.decision, 'registered', 'Active components: [none]');
    assert.deepEqual(
      w
        .snapshot()
        .items.filter((i) => i.parent === before.id && i.decision === 'registered')
        .map((i) => i.qualifiedName),
      [],
      'Active components: [none]',
    );
    await w.trustNow('mixed');
    const r = await enable(item('mixed'), w.ctx);
    assert.ok(r.ok);
    assert.match(r.value.note ?? '', /inactive: lsp/);
    const after = item('mixed');
    assert.deepEqual([after.decision, after.reasons], ['registered', ['active']]);
    assert.deepEqual(after.detail.activation?.supportedComponents, ['skills', 'commands', 'hooks']);
    const s = w.snapshot();
    const active = s.items.filter((i) => i.parent === after.id && i.decision === 'registered');
    assert.deepEqual(active.map((i) => i.qualifiedName).sort(), ['mixed:commands', 'mixed:hello', 'mixed:hooks']);
    assert.deepEqual(byName(s, 'mixed:lsp').reasons, ['component_inactive']);
  });

  it("the text review states the inventory, permissions, compatibility, active and inactive components and qualified skills in Codewhale's words (§9.1, §10.8 case 1)", async () => {
    writeMixed();
    const lines = () => textOf('mixed').split('\n');
    const before = lines();
    for (const expected of [
      '  inventory: skills=1 mcp=0 (stdio=0 remote=0) commands=1 agents=0 hooks=1 lsp=1 native=0',
      '  permissions: filesystem_roots=[none] network_hosts=[none] (exact allowlist for Codewhale-managed remote requests; redirects stay same-origin) lifecycle_mutation=false stdio_runtime=[none]',
      '  Compatibility: partial',
      '  Active components: [none]',
      '  Inactive components: [lsp]',
      '  Qualified skills: [mixed:hello]',
    ])
      assert.ok(before.includes(expected), `${expected} in:\n${before.join('\n')}`);
    await w.trustNow('mixed');
    assert.ok((await enable(item('mixed'), w.ctx)).ok);
    const after = lines();
    assert.ok(after.includes('  Active components: [skills, commands, hooks]'), after.join('\n'));
    assert.ok(after.includes('  Inactive components: [lsp]'), after.join('\n'));
  });

  it('MCP review of one stdio and one remote server shows argv, env and header mappings by name (§10.8 case 2)', () => {
    const dir = 'ws/.codewhale/plugins/mcp-review';
    w.f.write(
      `${dir}/plugin.toml`,
      'schema_version = 1\n[plugin]\nname = "mcp-review"\nversion = "1.0.0"\n' +
        '[mcp_servers.local]\ncommand = "node"\nargs = ["server.js", "--mode=worker", "-e", "console.log(\'ready\')"]\n' +
        'env = { PLUGIN_TOKEN = "${PLUGIN_TOKEN_SOURCE}" }\n' +
        '[mcp_servers.remote]\nurl = "https://example.invalid/mcp"\nbearer_token_env_var = "REMOTE_TOKEN"\n' +
        'env_headers = { X_Api_Key = "REMOTE_API_KEY" }\n' +
        '[capabilities]\nnetwork_hosts = ["example.invalid"]\n',
    );
    w.f.write(`${dir}/server.js`, 'console.log(1)\n');
    const i = item('mcp-review');
    assert.match((i.detail.inventory as { summary: string }).summary, /mcp=2 \(stdio=1 remote=1\)/);
    const text = textOf('mcp-review');
    for (const expected of [
      'mcp=2 (stdio=1 remote=1)',
      'stdio_runtime=[1 local child process(es) with host-user filesystem/network authority; MCP tool approvals still apply]',
      'PLUGIN_TOKEN <- PLUGIN_TOKEN_SOURCE',
      'X_Api_Key <- REMOTE_API_KEY',
      'bearer_env=REMOTE_TOKEN',
      // Codewhale's remote client follows redirects only within the origin, and plugin OAuth is off (§9.1).
      'redirects=same-origin-only',
      'oauth=disabled',
      '#1 plugin-path="server.js"',
      '#2 value="--mode=worker"',
      '#3 value="-e"',
      `#4 value="console.log('ready')"`,
      'Qualified skills: [none]',
    ])
      assert.ok(text.includes(expected), `${expected} in:\n${text}`);
    assert.ok(!text.includes('PLUGIN_TOKEN_SOURCE}'), 'environment by names only');
  });

  it('the text review says which servers are configured off or required, as Codewhale shows them (§9.1)', () => {
    const dir = 'ws/.codewhale/plugins/switches';
    w.f.write(
      `${dir}/plugin.toml`,
      'schema_version = 1\n[plugin]\nname = "switches"\nversion = "1.0.0"\n' +
        '[mcp_servers.off]\ncommand = "node"\nenabled = false\n' +
        '[mcp_servers.on]\ncommand = "node"\nrequired = true\n' +
        '[mcp_servers.remote]\nurl = "https://example.invalid/mcp"\nenabled = false\n' +
        '[capabilities]\nnetwork_hosts = ["example.invalid"]\n',
    );
    const lines = textOf('switches').split('\n');
    const line = (id: string) => lines.find((l) => l.startsWith(`  MCP ${id}: `)) ?? `no line for ${id}`;
    assert.match(line('off'), /required=false .* configured-off$/);
    assert.match(line('on'), /required=true .* host-user-filesystem\/network-authority configured-on$/);
    assert.match(line('remote'), /required=false .* configured-off$/);
  });

  it("each MCP server's line is Codewhale's own review entry, field for field and with its defaults (§9.1; upstream render.rs render_mcp_server)", () => {
    const dir = 'ws/.codewhale/plugins/entries';
    w.f.write(
      `${dir}/plugin.toml`,
      'schema_version = 1\n[plugin]\nname = "entries"\nversion = "1.0.0"\n' +
        '[mcp_servers.local]\ncommand = "node"\nargs = ["server.js", "--mode=worker"]\ncwd = "srv"\n' +
        'env = { PLUGIN_TOKEN = "${PLUGIN_TOKEN_SOURCE}", A_FIRST = "${Z_SRC}" }\n' +
        'connect_timeout = 10\nread_timeout = 30\nrequired = true\n' +
        'enabled_tools = ["search", "fetch"]\ndisabled_tools = ["delete"]\n' +
        '[mcp_servers.plain]\ncommand = "uvx"\n' +
        '[mcp_servers.off]\ncommand = "node"\nenabled = false\n' +
        '[mcp_servers.remote]\nurl = "https://Example.invalid/mcp"\nbearer_token_env_var = "REMOTE_TOKEN"\n' +
        'env_headers = { "X-B" = "FIRST", XA = "SECOND" }\nexecute_timeout = 60\n' +
        '[mcp_servers.sse]\nurl = "https://example.invalid"\ntransport = "sse"\nenabled = false\n' +
        '[capabilities]\nnetwork_hosts = ["example.invalid"]\n',
    );
    w.f.write(`${dir}/server.js`, 'console.log(1)\n');
    w.f.write(`${dir}/srv/.keep`, '');
    assert.deepEqual(item('entries').decision, 'disabled', 'the bundle loads (not reviewed)');
    const lines = textOf('entries').split('\n');
    const line = (id: string) => lines.find((l) => l.startsWith(`  MCP ${id}: `)) ?? `no line for ${id}`;
    const defaults = 'timeouts=connect=default/execute=default/read=default required=false';
    const noFilters = 'enabled_tools=[none] disabled_tools=[none]';
    assert.deepEqual(['local', 'off', 'plain', 'remote', 'sse'].map(line), [
      // Codewhale sorts the environment mappings (as it shows them) and always prints every timeout.
      '  MCP local: transport=stdio command=node argv=[#1 plugin-path="server.js", #2 value="--mode=worker"] cwd=srv ' +
        'env=[A_FIRST <- Z_SRC, PLUGIN_TOKEN <- PLUGIN_TOKEN_SOURCE] timeouts=connect=10s/execute=default/read=30s ' +
        'required=true enabled_tools=[search, fetch] disabled_tools=[delete] host-user-filesystem/network-authority configured-on',
      `  MCP off: transport=stdio command=node argv=[] cwd=plugin-root env=[none] ${defaults} ${noFilters} host-user-filesystem/network-authority configured-off`,
      `  MCP plain: transport=stdio command=uvx argv=[] cwd=plugin-root env=[none] ${defaults} ${noFilters} host-user-filesystem/network-authority configured-on`,
      // The endpoint as the URL parser serializes it; headers sorted as Codewhale shows them
      // (escaped, so `X\-B` sorts after `XA`); every remote transport is `http`.
      '  MCP remote: transport=http endpoint=https://example.invalid/mcp redirects=same-origin-only ' +
        'env_headers=[XA <- SECOND, X-B <- FIRST] bearer_env=REMOTE_TOKEN oauth=disabled ' +
        `timeouts=connect=default/execute=60s/read=default required=false ${noFilters} configured-on`,
      '  MCP sse: transport=http endpoint=https://example.invalid/ redirects=same-origin-only env_headers=[none] ' +
        `bearer_env=none oauth=disabled ${defaults} ${noFilters} configured-off`,
    ]);
  });

  it("an active bundle's MCP server configured off is disabled by its manifest, never said to be loaded", async () => {
    const dir = 'ws/.codewhale/plugins/switched';
    w.f.write(
      `${dir}/plugin.toml`,
      'schema_version = 1\n[plugin]\nname = "switched"\nversion = "1.0.0"\n' +
        '[mcp_servers.off]\ncommand = "node"\nenabled = false\n' +
        '[mcp_servers.on]\ncommand = "node"\n',
    );
    const server = (id: string) => byName(w.snapshot(), `switched:${id}`);
    // Before the bundle is active every server shares its gate.
    assert.deepEqual(server('off').reasons, ['bundle_inactive']);
    await w.trustNow('switched');
    assert.ok((await enable(item('switched'), w.ctx)).ok);
    assert.equal(item('switched').decision, 'registered');
    assert.equal(server('off').decision, 'disabled');
    assert.deepEqual(server('off').reasons, ['disabled_by_manifest']);
    assert.equal(server('on').decision, 'registered');
    assert.deepEqual(server('on').reasons, ['component_active']);
  });
});
