import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { readBundleSource } from '../../src/core/trust/bundleSource';
import { review } from '../../src/core/trust/reviewBundle';
import { trust } from '../../src/core/trust/grantTrust';
import { contractDetail } from '../../src/core/report/contract';
import { explainItem } from '../../src/core/report/explain';
import { systemOf } from '../../src/core/systems/registry';
import { childrenOf, type Snapshot } from '../../src/core/index/snapshot';
import { writeW, byName, LINUX_HOST } from './helpers/fixture';
import { trustWorkspace } from './helpers/trustWorkspace';

/**
 * The typed capability model (core/capabilities.ts): each agent emits it from its typed
 * manifest, the review reads it from disk in the same shape, receipts store it as they
 * always have, and `show --json` keeps its old `detail` from it.
 */
describe('typed capabilities', () => {
  const w = trustWorkspace();
  const snap = (hooksEnv?: string): Snapshot => w.snapshot(hooksEnv ? { rivumiHooksEnv: hooksEnv } : {});

  const MCP =
    '[capabilities]\nnetwork_hosts = ["api.example.com"]\n[mcp_servers.local]\ncommand = "node"\nargs = ["server.js", "--mode=read"]\nenv = { KEY = "${SECRET}" }\nconnect_timeout = 15\n[mcp_servers.remote]\nurl = "https://api.example.com/mcp"\nbearer_token_env_var = "API_TOKEN"\n';

  it('Codewhale: MCP servers, hosts, components and activation, typed on the item and equal to what the review reads', () => {
    writeW(w.f, MCP);
    const item = byName(snap(), 'example-plugin');
    const caps = item.detail.capabilities;
    assert.ok(caps);
    assert.equal(caps.system, 'codewhale');
    assert.deepEqual(
      { ...caps.mcpServers?.local },
      {
        transport: 'stdio',
        command: 'node',
        args: ['server.js', '--mode=read'],
        cwd: null,
        env: caps.mcpServers?.local?.env,
        url: null,
        envHeaders: caps.mcpServers?.local?.envHeaders,
        bearerTokenEnvVar: null,
        timeouts: caps.mcpServers?.local?.timeouts,
        required: false,
        enabled: true,
        enabledTools: [],
        disabledTools: [],
      },
    );
    assert.deepEqual({ ...caps.mcpServers?.local?.env }, { KEY: 'SECRET' });
    assert.deepEqual({ ...caps.mcpServers?.local?.timeouts }, { connect_timeout: 15 });
    assert.equal(caps.mcpServers?.remote?.transport, 'streamable-http');
    assert.equal(caps.mcpServers?.remote?.bearerTokenEnvVar, 'API_TOKEN');
    assert.deepEqual(caps.networkHosts, ['api.example.com']);
    assert.deepEqual({ ...caps.components }, { skills: ['skills'] });
    assert.equal(caps.hooks, undefined, 'Codewhale runs no hooks: the section is absent');
    assert.deepEqual(item.detail.activation, {
      policy: 3,
      applicable: true,
      whenReasons: [],
      supportedComponents: item.detail.activation?.supportedComponents,
      inactiveComponents: [],
    });
    const read = readBundleSource(item, LINUX_HOST);
    assert.ok(read.ok);
    assert.deepEqual(JSON.parse(JSON.stringify(read.source.capabilities)), JSON.parse(JSON.stringify(caps)));
    assert.deepEqual(
      read.source.parts.map((p) => p.qualifiedName),
      childrenOf(snap(), item.id).map((p) => p.qualifiedName),
    );
  });

  it('Rivumi: a hooks file and a plugin emit their hooks, skills and hash pairs; hook items carry what they run', () => {
    w.f.write(
      'ws/.rivumi/hooks.json',
      '{"pre_tool_use":[{"command":["python3","check.py"],"timeout_seconds":9,"tools":["Bash"]}]}',
    );
    w.f.write('ws/check.py', 'print(1)\n');
    w.f.write('ws/.rivumi/plugins/review.md', '---\nname: review\ndescription: Review.\n---\nCheck risks.\n');
    w.f.write('ws/.rivumi/plugins/pk.json', '{"name":"pk","skills":[{"path":"review.md"}]}');
    const s = snap('1');
    const hooks = byName(s, 'hooks.json');
    const caps = hooks.detail.capabilities;
    assert.equal(caps?.system, 'rivumi');
    assert.equal(caps?.kind, 'hooks');
    assert.deepEqual(Object.values(caps?.hooks ?? {}), [
      { event: 'pre_tool_use', argv: ['python3', 'check.py'], timeoutSeconds: 9, tools: ['Bash'] },
    ]);
    assert.ok(Object.keys(caps?.pairs ?? {}).includes('hook-commands'));
    assert.equal(caps?.mcpServers, undefined, 'a Rivumi unit declares no MCP servers: the section is absent');
    assert.equal(hooks.detail.hooksOptIn, true);
    assert.equal(systemOf('rivumi').loads(hooks), true, 'the hooks file loads under the opt-in the index saw');
    assert.equal(systemOf('rivumi').loads(byName(snap(), 'hooks.json')), false);
    const hook = childrenOf(s, hooks.id)[0];
    assert.deepEqual(hook?.detail.hook, {
      event: 'pre_tool_use',
      argv: ['python3', 'check.py'],
      timeoutSeconds: 9,
      tools: ['Bash'],
    });
    const plugin = byName(s, 'pk');
    assert.deepEqual(plugin.detail.capabilities?.skills, [{ name: 'pk.review', path: '.rivumi/plugins/review.md' }]);
  });

  it("show --json keeps the detail it always had: facts, and a Rivumi unit's hash pairs as `capabilities`", () => {
    writeW(w.f, MCP);
    w.f.write('ws/.rivumi/hooks.json', '{"pre_tool_use":[{"command":["python3","check.py"]}]}');
    const s = snap();
    const cw = byName(s, 'example-plugin');
    const detail = contractDetail(cw, childrenOf(s, cw.id));
    assert.deepEqual(Object.keys(detail.facts ?? {}), [
      'pluginId',
      'canonicalRoot',
      'policy',
      'applicable',
      'whenReasons',
      'supportedComponents',
      'inactiveComponents',
      'qualifiedSkills',
      'mcpServers',
      'when',
    ]);
    assert.deepEqual(detail.facts?.qualifiedSkills, ['example-plugin:example']);
    assert.deepEqual(
      (detail.facts?.mcpServers as { id: string; env: unknown }[]).map((m) => [m.id, m.env]),
      [
        ['local', [{ destination: 'KEY', source: 'SECRET' }]],
        ['remote', []],
      ],
    );
    assert.equal(detail.capabilities, undefined);
    const hooks = byName(s, 'hooks.json');
    const hd = contractDetail(hooks, childrenOf(s, hooks.id));
    assert.deepEqual(Object.keys(hd.facts ?? {}), ['optIn', 'load']);
    assert.deepEqual(hd.capabilities, { ...hooks.detail.capabilities?.pairs });
    const hook = childrenOf(s, hooks.id)[0];
    assert.ok(hook);
    assert.deepEqual(contractDetail(hook, []), {
      facts: { event: 'pre_tool_use', argv: ['python3', 'check.py'], timeoutSeconds: 5, tools: ['*'] },
    });
  });

  it('explain names the agent and its opt-in from the agent, not from a branch on its name', () => {
    w.f.write('ws/.rivumi/hooks.json', '{"pre_tool_use":[{"command":["python3","check.py"]}]}');
    const s = snap();
    const gates = explainItem(s, byName(s, 'hooks.json')).find((x) => x.title === 'Gates')?.lines ?? [];
    assert.ok(gates.includes('enabled: no enable switch (Rivumi has none)'), gates.join('\n'));
    assert.ok(gates.includes('RIVUMI_ENABLE_PROJECT_HOOKS=1: no'), gates.join('\n'));
    assert.ok(
      gates.some((l) => l.startsWith('Rivumi: hooks: ')),
      gates.join('\n'),
    );
  });

  describe('receipts', () => {
    it('a receipt as the previous version wrote it reads unchanged: trusted by its hashes, compared section by section', async () => {
      writeW(w.f, MCP);
      const item = byName(snap(), 'example-plugin');
      const r = await trust(item, item.reviewToken as string, w.ctx);
      assert.ok(r.ok, r.ok ? '' : r.message);
      // The record an earlier Skillgate wrote for this bundle, key for key (its own key order).
      const read = w.store.read();
      assert.ok(read.ok);
      const key = item.detail.bundleKey as string;
      const written = read.state.bundles[key]?.trust;
      assert.ok(written);
      const legacy = {
        system: 'codewhale',
        compatibility: 'full',
        components: { skills: ['skills'] },
        mcpServers: {
          local: {
            transport: 'stdio',
            command: 'node',
            args: ['server.js', '--mode=read'],
            cwd: null,
            url: null,
            bearerTokenEnvVar: null,
            timeouts: { connect_timeout: 15 },
            required: false,
            enabled: true,
            enabledTools: [],
            disabledTools: [],
            env: { KEY: 'SECRET' },
            envHeaders: {},
          },
          remote: {
            transport: 'streamable-http',
            command: null,
            args: [],
            cwd: null,
            url: 'https://api.example.com/mcp',
            bearerTokenEnvVar: 'API_TOKEN',
            timeouts: {},
            required: false,
            enabled: true,
            enabledTools: [],
            disabledTools: [],
            env: {},
            envHeaders: {},
          },
        },
        networkHosts: ['api.example.com'],
        filesystemRoots: [],
        lifecycleMutation: false,
        when: null,
        inventory: written.capabilities.inventory,
      };
      assert.deepEqual(JSON.parse(JSON.stringify(written.capabilities)), legacy, 'the stored shape did not change');
      await w.store.mutate((state) => {
        const entry = state.bundles[key];
        if (entry?.trust) entry.trust = { ...entry.trust, capabilities: legacy };
        return { ok: true, value: null };
      });
      assert.equal(byName(snap(), 'example-plugin').trust, 'trusted');
      const toml = w.f.path('ws/.codewhale/plugins/example-plugin/plugin.toml');
      w.f.write(
        'ws/.codewhale/plugins/example-plugin/plugin.toml',
        `${fs.readFileSync(toml, 'utf8')}[mcp_servers.extra]\ncommand = "curl"\n`,
      );
      const rv = review(byName(snap(), 'example-plugin'), w.ctx);
      assert.ok(rv.ok && rv.value.diff);
      assert.deepEqual(
        rv.value.diff.capabilities.map((c) => c.summary),
        ['new MCP server `extra`'],
      );
    });

    it('a receipt whose record is not the model fails closed: its status follows the hashes alone, and its review shows every capability as new', async () => {
      writeW(w.f, MCP);
      const item = byName(snap(), 'example-plugin');
      const key = item.detail.bundleKey as string;
      assert.ok((await trust(item, item.reviewToken as string, w.ctx)).ok);
      await w.store.mutate((state) => {
        const entry = state.bundles[key];
        if (entry?.trust) entry.trust = { ...entry.trust, capabilities: { op: 1 }, capabilityHash: 'f'.repeat(64) };
        return { ok: true, value: null };
      });
      const now = byName(snap(), 'example-plugin');
      assert.equal(now.trust, 'capabilities-changed', 'a foreign record cannot vouch for what the hashes do not');
      const rv = review(now, w.ctx);
      assert.ok(rv.ok && rv.value.diff);
      const summaries = rv.value.diff.capabilities.map((c) => c.summary);
      assert.ok(summaries.includes('op removed: 1'), summaries.join(' | '));
      for (const named of [
        'new MCP server `local`',
        'new MCP server `remote`',
        'new network host `api.example.com`',
        'new component kind `skills`',
      ])
        assert.ok(summaries.includes(named), summaries.join(' | '));
    });
  });
});
