import { strict as assert } from 'node:assert';
import { contractDetail } from '../../src/core/report/contract';
import { Fixture, index, writeW, byName, messages } from './helpers/fixture';

const SCHEMA = 'https://agent-plugins.org/schemas/plugin.json';

describe('Codewhale MCP servers (codewhale.md §4.7, §10.2)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const errorsOf = (extra: string) => {
    writeW(f, extra);
    f.write('ws/.codewhale/plugins/example-plugin/server.js', '// placeholder\n');
    const s = index([f.path('ws')]);
    return {
      decision: byName(s, 'example-plugin').decision,
      errors: s.diagnostics.filter((d) => d.severity === 'error'),
      snapshot: s,
    };
  };
  const remote = (body: string, hosts = '["example.invalid"]') =>
    `[capabilities]\nnetwork_hosts = ${hosts}\n[mcp_servers.remote]\nurl = "https://example.invalid/mcp"\n${body}`;
  const stdio = (body: string) => `[mcp_servers.local]\ncommand = "node"\nargs = ["server.js"]\n${body}`;

  const rejected: [string, string, RegExp][] = [
    [
      'a remote server with an unknown nested field',
      remote('unknown_nested = true\n'),
      /plugin MCP server contains an unsupported field/,
    ],
    ['a remote server with args', remote('args = ["secret"]\n'), /may not declare stdio cwd, args, or env/],
    [
      'a URL with a query',
      `[capabilities]\nnetwork_hosts = ["example.invalid"]\n[mcp_servers.remote]\nurl = "https://example.invalid/mcp?token=secret"\n`,
      /URL may not contain a query or fragment/,
    ],
    [
      'plain http to a non-loopback host',
      `[capabilities]\nnetwork_hosts = ["example.invalid"]\n[mcp_servers.remote]\nurl = "http://example.invalid/mcp"\n`,
      /must use HTTPS unless it targets loopback/,
    ],
    [
      'network_hosts that differ from the endpoints',
      remote('', '["other.invalid"]'),
      /network_hosts must exactly match/,
    ],
    [
      'a stdio server with transport sse',
      stdio('transport = "sse"\n'),
      /stdio MCP server `local` may not declare remote transport or authentication fields/,
    ],
    ['a stdio server with connect_timeout 0', stdio('connect_timeout = 0\n'), /connect_timeout must be 1-3600 seconds/],
    [
      'the same tool in both lists',
      stdio('enabled_tools = ["read"]\ndisabled_tools = ["read"]\n'),
      /declares a tool in both enabled_tools and disabled_tools/,
    ],
    [
      'a literal stdio env value',
      stdio('env = { TOKEN = "literal-secret" }\n'),
      /environment values must be exact `\$\{SOURCE_ENV\}` references/,
    ],
    ['literal remote headers', remote('headers = { Authorization = "Bearer x" }\n'), /may not contain literal headers/],
    [
      'oauth with an extra secret key',
      remote('oauth = { client_id = "x", secret = "y" }\n'),
      /plugin MCP oauth contains an unsupported field/,
    ],
    ['remote scopes', remote('scopes = ["read"]\n'), /plugin OAuth is disabled/],
    ['remote oauth_resource', remote('oauth_resource = "https://example.invalid"\n'), /plugin OAuth is disabled/],
    ['remote oauth client_id', remote('oauth = { client_id = "x" }\n'), /plugin OAuth is disabled/],
    [
      'an absolute stdio argument',
      `[mcp_servers.local]\ncommand = "node"\nargs = ["/tmp/server.js"]\n`,
      /argument #1 must not use an absolute path/,
    ],
    [
      'credentials in the URL',
      `[capabilities]\nnetwork_hosts = ["example.invalid"]\n[mcp_servers.remote]\nurl = "https://user:secret@example.invalid/mcp"\n`,
      /must not embed credentials/,
    ],
    [
      '--token followed by a value',
      `[mcp_servers.local]\ncommand = "node"\nargs = ["server.js", "--token", "literal-secret"]\n`,
      /argument #2 embeds a credential-bearing value/,
    ],
    [
      '--api-key=value',
      `[mcp_servers.local]\ncommand = "node"\nargs = ["server.js", "--api-key=literal-secret"]\n`,
      /argument #2 embeds a credential-bearing value/,
    ],
    [
      'an sk- literal',
      `[mcp_servers.local]\ncommand = "node"\nargs = ["server.js", "sk-live-literal"]\n`,
      /argument #2 looks like a literal credential/,
    ],
    [
      'http://[::1] (brackets are not loopback upstream)',
      `[capabilities]\nnetwork_hosts = ["[::1]"]\n[mcp_servers.remote]\nurl = "http://[::1]/mcp"\n`,
      /must use HTTPS unless it targets loopback/,
    ],
    [
      'an argument that escapes the bundle',
      `[mcp_servers.local]\ncommand = "node"\nargs = ["../outside/server.js"]\n`,
      /argument #1 escapes the plugin root/,
    ],
  ];
  for (const [name, extra, expected] of rejected) {
    it(`rejects ${name}`, () => {
      const r = errorsOf(extra);
      assert.equal(r.decision, 'rejected');
      assert.ok(
        r.errors.some((e) => expected.test(e.message)),
        r.errors.map((e) => e.message).join('\n'),
      );
    });
  }

  it('points the query error at the url value', () => {
    const r = errorsOf(
      `[capabilities]\nnetwork_hosts = ["example.invalid"]\n[mcp_servers.remote]\nurl = "https://example.invalid/mcp?"\n`,
    );
    const d = r.errors.find((e) => e.code === 'codewhale.mcp.url-query');
    assert.deepEqual(d?.range, { start: { line: 9, character: 6 }, end: { line: 9, character: 36 } });
    assert.equal(byName(r.snapshot, 'example-plugin:remote').decision, 'rejected');
    assert.deepEqual(byName(r.snapshot, 'example-plugin:remote').reasons, ['component_invalid']);
  });

  it('lets --token as the last argument and --token= pass', () => {
    assert.deepEqual(errorsOf(`[mcp_servers.local]\ncommand = "node"\nargs = ["server.js", "--token="]\n`).errors, []);
    f.remove();
    f = new Fixture();
    assert.deepEqual(errorsOf(`[mcp_servers.local]\ncommand = "node"\nargs = ["server.js", "--token"]\n`).errors, []);
  });

  it('accepts a worker argument list with an inline script', () => {
    assert.deepEqual(
      errorsOf(
        `[mcp_servers.local]\ncommand = "node"\nargs = ["server.js", "--mode=worker", "-e", "console.log('ready')"]\n`,
      ).errors,
      [],
    );
  });

  it('accepts a full remote server and inventories its host', () => {
    const r = errorsOf(
      `[capabilities]\nnetwork_hosts = ["example.invalid"]\n[mcp_servers.remote]\nurl = "https://Example.Invalid:8443/mcp/v1"\ntransport = "sse"\nconnect_timeout = 30\nexecute_timeout = 120\nread_timeout = 180\nrequired = true\nenabled_tools = ["read"]\ndisabled_tools = ["write"]\nbearer_token_env_var = "PLUGIN_BEARER"\nenv_headers = { X_Api_Key = "PLUGIN_API_KEY" }\n`,
    );
    assert.deepEqual(r.errors, []);
    const inv = byName(r.snapshot, 'example-plugin').detail.inventory as {
      network_hosts: string[];
      remote_mcp_servers: number;
    };
    assert.deepEqual(inv.network_hosts, ['example.invalid']);
    assert.equal(inv.remote_mcp_servers, 1);
  });

  it('refuses a plugin.toml key __proto__ it cannot read faithfully, instead of hiding it or writing into Object.prototype', () => {
    const extras = [
      '[mcp_servers.__proto__]\ncommand = "node"\n',
      '[mcp_servers.local]\ncommand = "node"\nenv = { __proto__ = "${X}" }\n',
      'x.__proto__.polluted = "yes"\n',
    ];
    try {
      for (const extra of extras) {
        const r = errorsOf(extra);
        assert.equal(r.decision, 'rejected', extra);
        assert.match(r.errors.map((d) => d.message).join(' | '), /the key `__proto__` cannot be read faithfully/);
        const probe: Record<string, unknown> = {};
        assert.deepEqual(
          [probe.command, probe.polluted],
          [undefined, undefined],
          `no key of ${JSON.stringify(extra)} reached Object.prototype`,
        );
      }
    } finally {
      // Keep the rest of the suite sound if the old code polluted the prototype.
      delete (Object.prototype as Record<string, unknown>).command;
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
  });

  describe('mcp.json', () => {
    const bundle = (servers: object, root: object = {}, networkHosts?: string[]) => {
      const extensions = networkHosts
        ? { extensions: { 'net.codewhale': { capabilities: { network_hosts: networkHosts } } } }
        : {};
      f.write(
        'ws/.codewhale/plugins/m/plugin.json',
        JSON.stringify({ $schema: SCHEMA, name: 'm', version: '1.0.0', ...extensions }),
      );
      f.write('ws/.codewhale/plugins/m/mcp.json', JSON.stringify({ mcpServers: servers, ...root }, null, 2));
      return index([f.path('ws')]);
    };
    for (const reserved of ['PLUGIN_ROOT', 'PLUGIN_DATA']) {
      it(`rejects env ${reserved} and names it`, () => {
        const s = bundle({ s: { command: 'node', env: { [reserved]: '${X}' } } });
        assert.equal(byName(s, 'm').decision, 'rejected');
        assert.deepEqual(messages(s), [`mcp.json server \`s\` env may not define reserved name \`${reserved}\``]);
        assert.ok(s.diagnostics[0]?.file.endsWith('mcp.json'));
      });
    }
    it('sees a server and an environment name called __proto__ instead of dropping them', () => {
      const named = bundle({ ['__proto__']: { command: 'node' } });
      assert.equal(byName(named, 'm').decision, 'rejected');
      assert.deepEqual(messages(named), ['MCP server name `__proto__` is invalid']);
      const env = bundle({ s: { command: 'node', env: { ['__proto__']: '${X}', constructor: '${Y}' } } });
      const servers = (
        contractDetail(byName(env, 'm'), []).facts as {
          mcpServers: { id: string; env: { destination: string; source: string }[] }[];
        }
      ).mcpServers;
      assert.deepEqual(servers[0]?.env.map((e) => `${e.destination} <- ${e.source}`).sort(), [
        '__proto__ <- X',
        'constructor <- Y',
      ]);
    });

    it('infers stdio and streamable-http, and keeps sse', () => {
      const s = bundle({
        a: { command: 'node' },
        b: { url: 'https://example.invalid/mcp' },
        c: { type: 'SSE', url: 'https://example.invalid/sse' },
      });
      // No network_hosts declared in plugin.json: the host set must match, so this is the mismatch error alone.
      assert.deepEqual(messages(s), [
        'capabilities.network_hosts must exactly match the normalized host set of all remote MCP endpoints',
      ]);
      const servers = (contractDetail(byName(s, 'm'), []).facts as { mcpServers: { id: string; transport: string }[] })
        .mcpServers;
      assert.deepEqual(
        servers.map((x) => x.transport),
        ['stdio', 'streamable-http', 'sse'],
      );
    });
    it('sets the internal transport only for sse: explicit stdio and streamable-http pass the transport rules (§10.2 case 18)', () => {
      // codewhale.md §3.3: the internal `transport` is "sse" for sse and unset otherwise, so neither the
      // stdio branch's "may not declare remote transport" nor the remote branch's "must be `sse`" fires.
      const s = bundle(
        {
          a: { type: 'stdio', command: 'node' },
          b: { type: 'Streamable-HTTP', url: 'https://example.invalid/mcp' },
          c: { type: 'sse', url: 'https://example.invalid/sse' },
        },
        {},
        ['example.invalid'],
      );
      assert.deepEqual(messages(s), []);
      assert.equal(byName(s, 'm').decision, 'disabled');
      const servers = (contractDetail(byName(s, 'm'), []).facts as { mcpServers: { transport: string }[] }).mcpServers;
      assert.deepEqual(
        servers.map((x) => x.transport),
        ['stdio', 'streamable-http', 'sse'],
      );
    });
    const bad: [string, object, string, object?][] = [
      [
        'type websocket',
        { s: { type: 'websocket', url: 'https://x.invalid' } },
        'mcp.json server `s` has unknown type `websocket`; expected `stdio`, `streamable-http`, or `sse`',
      ],
      [
        'command and url',
        { s: { command: 'node', url: 'https://x.invalid' } },
        'mcp.json server `s` must declare exactly one of command or url, or set an explicit type',
      ],
      [
        'stdio with url',
        { s: { type: 'stdio', command: 'node', url: 'https://x.invalid' } },
        'mcp.json stdio server `s` may not declare url or headers',
      ],
      [
        'url with args',
        { s: { url: 'https://x.invalid', args: ['a'] } },
        'mcp.json HTTP server `s` may not declare command, args, env, or cwd',
      ],
      ['sse without url', { s: { type: 'sse' } }, 'mcp.json server `s` declares an HTTP transport without a url'],
      [
        'sse with cwd',
        { s: { type: 'sse', url: 'https://x.invalid', cwd: '.' } },
        'mcp.json HTTP server `s` may not declare command, args, env, or cwd',
      ],
      [
        'an extra root key',
        { s: { command: 'node' } },
        'failed to parse mcp.json: unknown field `extra`',
        { extra: true },
      ],
    ];
    for (const [name, servers, message, root] of bad) {
      it(`rejects ${name} with its message`, () => {
        const s = bundle(servers, root);
        assert.deepEqual(
          [byName(s, 'm').decision, byName(s, 'm').reasons],
          ['rejected', ['manifest_invalid', 'not_reviewed', 'not_enabled']],
        );
        assert.ok(messages(s).includes(message), messages(s).join('\n'));
      });
    }
    it('reads extension timeouts, required and env_headers; accepts stdio env ${B} (§10.2 case 20)', () => {
      const s = bundle(
        {
          a: {
            command: 'node',
            env: { A: '${B}' },
            extensions: { 'net.codewhale': { connect_timeout: 10, required: true } },
          },
          r: {
            url: 'https://example.invalid/mcp',
            extensions: { 'net.codewhale': { env_headers: { X_Api_Key: 'PLUGIN_API_KEY' } } },
          },
        },
        {},
        ['example.invalid'],
      );
      assert.deepEqual(messages(s), []);
      const a = (
        contractDetail(byName(s, 'm'), []).facts as {
          mcpServers: { timeouts: Record<string, number>; required: boolean }[];
        }
      ).mcpServers[0];
      assert.deepEqual(a?.timeouts, { connect_timeout: 10 });
      assert.equal(a?.required, true);
      const r = (
        contractDetail(byName(s, 'm'), []).facts as {
          mcpServers: { id: string; envHeaders: { header: string; source: string }[] }[];
        }
      ).mcpServers.find((x) => x.id === 'r');
      assert.deepEqual(r?.envHeaders, [{ header: 'X_Api_Key', source: 'PLUGIN_API_KEY' }]);
    });
  });
});
