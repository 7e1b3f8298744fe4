import { strict as assert } from 'node:assert';
import { Findings } from '../../src/core/diagnostics/findings';
import { readPluginToml } from '../../src/core/systems/codewhale/formats/pluginToml';
import { composeAuthor, readPluginJson } from '../../src/core/systems/codewhale/formats/pluginJson';
import { readMcpJson } from '../../src/core/systems/codewhale/formats/mcpJson';
import { readKimiJson } from '../../src/core/systems/codewhale/formats/kimiJson';
import * as fs from 'node:fs';
import { Fixture } from './helpers/fixture';

/**
 * Each manifest format read on its own (codewhale.md §3): every field lands in the one
 * internal manifest at the place it was written (so a finding points there), every
 * schema rule of the format is refused with its message, and the defaults of §3 hold.
 */

/** The manifest with each `at` written `path.joined` (`!` when it points at the key), files and absent fields left out. */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shape);
  if (v && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === 'at' && x && typeof x === 'object' && 'path' in x) {
        const w = x as { path: (string | number)[]; key?: boolean };
        o[k] = w.path.join('.') + (w.key ? '!' : '');
      } else if (k !== 'file' && x !== undefined) o[k] = shape(x);
    }
    return o;
  }
  return v;
}

function atOf(at: { path: readonly (string | number)[]; key?: boolean }): string {
  return (shape({ at }) as { at: string }).at;
}

/** Message and the path it points at, for each finding. */
function found(f: Findings): [string, string][] {
  return f.diagnostics.map((d) => [d.message, `${d.range.start.line}:${d.range.start.character}`]);
}

function messagesOf(f: Findings): string[] {
  return f.diagnostics.map((d) => d.message);
}

const server = (extra: object) => ({
  args: [],
  env: [],
  timeouts: [],
  enabled: true,
  disabled: false,
  enabledTools: [],
  disabledTools: [],
  headers: [],
  envHeaders: [],
  ...extra,
});

describe('Codewhale manifest formats, read one by one (codewhale.md §3)', () => {
  describe('plugin.toml (§3.1)', () => {
    const read = (source: string) => {
      const findings = new Findings();
      return { m: readPluginToml('/b/plugin.toml', source, findings), findings };
    };

    it('maps every field, alias and server key to where it is written', () => {
      const { m, findings } = read(`schema_version = 1
[plugin]
name = "full"
version = "1.0.0"
description = "d"
author = "a"
display_name = "D"
icon = "i"
homepage = "h"
repository = "r"
license = "MIT"
keywords = ["k1", "k2"]
[skills]
path = "s"
paths = ["s2"]
[profiles]
paths = ["ag"]
[commands]
path = "c"
[hooks]
path = "h"
[lsp_servers]
path = "l"
[native_extension]
path = "n"
[capabilities]
filesystem_roots = ["/data"]
network_hosts = ["example.invalid"]
lifecycle_mutation = true
[when]
os = ["linux"]
binaries = ["git"]
[mcp_servers.b]
url = "https://example.invalid/"
[mcp_servers.a]
command = "node"
args = ["x"]
env = { A = "\${B}" }
cwd = "."
transport = "sse"
connect_timeout = 5
execute_timeout = 6
read_timeout = 7
enabled = false
required = true
enabled_tools = ["t"]
disabled_tools = ["u"]
headers = { H = "v" }
env_http_headers = { X = "Y" }
bearer_token_env_var = "T"
scopes = ["s"]
oauth = { client_id = "c" }
oauth_resource = "r"
`);
      assert.deepEqual(findings.diagnostics, []);
      assert.deepEqual(shape(m), {
        label: 'plugin.toml',
        schemaVersion: { value: 1, at: 'schema_version' },
        nameRule: 'toml',
        name: { value: 'full', at: 'plugin.name' },
        version: { value: '1.0.0', at: 'plugin.version' },
        description: { value: 'd', at: 'plugin.description' },
        author: { value: 'a', at: 'plugin.author' },
        displayName: { value: 'D', at: 'plugin.display_name' },
        icon: { value: 'i', at: 'plugin.icon' },
        homepage: { value: 'h', at: 'plugin.homepage' },
        repository: { value: 'r', at: 'plugin.repository' },
        license: { value: 'MIT', at: 'plugin.license' },
        keywords: [
          { value: 'k1', at: 'plugin.keywords.0' },
          { value: 'k2', at: 'plugin.keywords.1' },
        ],
        components: {
          skills: {
            paths: [
              { value: 's', at: 'skills.path' },
              { value: 's2', at: 'skills.paths.0' },
            ],
            at: 'skills',
          },
          commands: { paths: [{ value: 'c', at: 'commands.path' }], at: 'commands' },
          agents: { paths: [{ value: 'ag', at: 'profiles.paths.0' }], at: 'profiles' },
          hooks: { paths: [{ value: 'h', at: 'hooks.path' }], at: 'hooks' },
          lsp: { paths: [{ value: 'l', at: 'lsp_servers.path' }], at: 'lsp_servers' },
          native: { paths: [{ value: 'n', at: 'native_extension.path' }], at: 'native_extension' },
        },
        mcpServers: [
          server({
            id: 'a',
            at: 'mcp_servers.a!',
            args: [{ value: 'x', at: 'mcp_servers.a.args.0' }],
            env: [{ name: 'A', value: '${B}', at: 'mcp_servers.a.env.A' }],
            timeouts: [
              { value: 5, at: 'mcp_servers.a.connect_timeout', label: 'connect_timeout' },
              { value: 6, at: 'mcp_servers.a.execute_timeout', label: 'execute_timeout' },
              { value: 7, at: 'mcp_servers.a.read_timeout', label: 'read_timeout' },
            ],
            enabled: false,
            enabledTools: [{ value: 't', at: 'mcp_servers.a.enabled_tools.0' }],
            disabledTools: [{ value: 'u', at: 'mcp_servers.a.disabled_tools.0' }],
            headers: [{ name: 'H', value: 'v', at: 'mcp_servers.a.headers.H' }],
            envHeaders: [{ name: 'X', value: 'Y', at: 'mcp_servers.a.env_http_headers.X' }],
            command: { value: 'node', at: 'mcp_servers.a.command' },
            cwd: { value: '.', at: 'mcp_servers.a.cwd' },
            transport: { value: 'sse', at: 'mcp_servers.a.transport' },
            required: { value: true, at: 'mcp_servers.a.required' },
            bearerTokenEnvVar: { value: 'T', at: 'mcp_servers.a.bearer_token_env_var' },
            scopes: { value: ['s'], at: 'mcp_servers.a.scopes' },
            oauth: { value: { clientId: 'c' }, at: 'mcp_servers.a.oauth' },
            oauthResource: { value: 'r', at: 'mcp_servers.a.oauth_resource' },
          }),
          server({
            id: 'b',
            at: 'mcp_servers.b!',
            url: { value: 'https://example.invalid/', at: 'mcp_servers.b.url' },
          }),
        ],
        filesystemRoots: [{ value: '/data', at: 'capabilities.filesystem_roots.0' }],
        networkHosts: [{ value: 'example.invalid', at: 'capabilities.network_hosts.0' }],
        networkHostsDerived: false,
        lifecycleMutation: true,
        when: {
          at: 'when',
          os: [{ value: 'linux', at: 'when.os.0' }],
          binaries: [{ value: 'git', at: 'when.binaries.0' }],
        },
      });
    });

    it('fills the defaults: schema 0, version "" at [plugin], no skills without [skills], nothing optional', () => {
      const { m } = read('[plugin]\nname = "p"\n');
      assert.deepEqual(shape(m), {
        label: 'plugin.toml',
        schemaVersion: { value: 0, at: 'schema_version' },
        nameRule: 'toml',
        name: { value: 'p', at: 'plugin.name' },
        version: { value: '', at: 'plugin' },
        keywords: [],
        components: {},
        mcpServers: [],
        filesystemRoots: [],
        networkHosts: [],
        networkHostsDerived: false,
        lifecycleMutation: false,
      });
    });

    it('reads an empty [skills] as the default path `skills`, keeps an empty [commands] empty, and takes the plain names over no alias', () => {
      const { m } = read(
        '[plugin]\nname = "p"\n[skills]\n[commands]\n[agents]\npath = "a"\n[lsp]\npath = "l"\n[native]\npath = "n"\n[when]\nos = []\n',
      );
      const s = shape(m) as Record<string, unknown>;
      assert.deepEqual(s.components, {
        skills: { paths: [{ value: 'skills', at: 'skills' }], at: 'skills' },
        commands: { paths: [], at: 'commands' },
        agents: { paths: [{ value: 'a', at: 'agents.path' }], at: 'agents' },
        lsp: { paths: [{ value: 'l', at: 'lsp.path' }], at: 'lsp' },
        native: { paths: [{ value: 'n', at: 'native.path' }], at: 'native' },
      });
      assert.deepEqual(s.when, { at: 'when', os: [] }, 'an empty os list is kept (it means never applicable)');
    });

    it('places env_headers where they are written, under either spelling, and an empty scopes list as none', () => {
      const { m } = read(
        '[plugin]\nname = "p"\n[mcp_servers.s]\nurl = "https://x.invalid/"\nenv_headers = { A = "B" }\nscopes = []\noauth = {}\n',
      );
      assert.deepEqual(shape(m?.mcpServers), [
        server({
          id: 's',
          at: 'mcp_servers.s!',
          envHeaders: [{ name: 'A', value: 'B', at: 'mcp_servers.s.env_headers.A' }],
          url: { value: 'https://x.invalid/', at: 'mcp_servers.s.url' },
          oauth: { value: {}, at: 'mcp_servers.s.oauth' },
        }),
      ]);
    });

    it('reports a syntax error without a span, and a schema error near its byte offsets (bytes, not characters)', () => {
      const bad = read('[plugin\nname = "p"\n');
      assert.equal(bad.m, undefined);
      assert.equal(bad.findings.diagnostics.length, 1);
      assert.ok(
        bad.findings.diagnostics[0]?.message.startsWith(
          'failed to parse plugin.toml; check the v1 schema and field types (',
        ),
        bad.findings.diagnostics[0]?.message,
      );
      const typed = read('[plugin]\nname = "é"\nversion = 1\n');
      assert.equal(typed.m, undefined);
      assert.deepEqual(messagesOf(typed.findings), [
        'failed to parse plugin.toml near bytes 31..32; check the v1 schema and field types (expected string at `plugin.version`)',
      ]);
    });

    it('skips a leading byte-order mark and keeps every offset', () => {
      const { m, findings } = read('\uFEFF[plugin]\nname = "p"\nwhat = 1\n');
      assert.equal(m, undefined);
      assert.deepEqual(found(findings), [
        [
          'failed to parse plugin.toml near bytes 30..31; check the v1 schema and field types (unknown field `what`)',
          '2:0',
        ],
      ]);
      assert.ok(read('\uFEFF[plugin]\nname = "p"\n').m);
    });

    it('refuses a lone carriage return, which would hide a line from a reader of the file (the toml crate refuses it)', () => {
      const { m, findings } = read(
        '[plugin]\nname = "p"\n[mcp_servers.s]\ncommand = "bin/run"\n# args are set below\rargs = ["--allow-all"]\n',
      );
      assert.equal(m, undefined);
      assert.deepEqual(found(findings), [
        [
          'failed to parse plugin.toml; check the v1 schema and field types (a carriage return must be followed by a line feed)',
          '4:20',
        ],
      ]);
    });

    it('refuses [providers] under policy v3 as an unknown field', () => {
      const { m, findings } = read('[plugin]\nname = "p"\n[providers.x]\nurl = "https://x.invalid"\n');
      assert.equal(m, undefined);
      assert.ok(messagesOf(findings)[0]?.endsWith('(unknown field `providers`)'));
    });

    describe('[mcp_servers] pre-checks, before the server struct sees the keys', () => {
      for (const [name, body, message, at] of [
        ['mcp_servers that is no table', 'mcp_servers = 1\n', 'mcp_servers must be a table', '0:14'],
        ['a server that is no table', 'mcp_servers = { s = 1 }\n', 'each MCP server must be a table', '0:20'],
        [
          'the key disabled',
          '[mcp_servers.s]\ncommand = "x"\ndisabled = true\n',
          'plugin MCP server contains an unsupported field',
          '4:0',
        ],
        [
          'the key allow_private_network',
          '[mcp_servers.s]\nurl = "https://x.invalid/"\nallow_private_network = true\n',
          'plugin MCP server contains an unsupported field',
          '4:0',
        ],
        ['oauth that is no table', '[mcp_servers.s]\noauth = "x"\n', 'plugin MCP oauth must be a table', '3:8'],
        [
          'an oauth key other than client_id',
          '[mcp_servers.s]\noauth = { client_id = "x", client_secret = "y" }\n',
          'plugin MCP oauth contains an unsupported field',
          '3:27',
        ],
      ] as const) {
        it(`refuses ${name}`, () => {
          // A top-level key goes before the first table; a table anywhere after [plugin].
          const source = body.startsWith('[') ? `[plugin]\nname = "p"\n${body}` : `${body}[plugin]\nname = "p"\n`;
          const { m, findings } = read(source);
          assert.equal(m, undefined);
          assert.deepEqual(found(findings), [[message, at]]);
        });
      }

      it('reports every unsupported key of every server at once', () => {
        const { findings } = read(
          '[plugin]\nname = "p"\n[mcp_servers.a]\ndisabled = true\noauth = { x = 1 }\n[mcp_servers.b]\nallow_private_network = true\n[mcp_servers.c]\noauth = 1\n',
        );
        assert.deepEqual(messagesOf(findings), [
          'plugin MCP server contains an unsupported field',
          'plugin MCP oauth contains an unsupported field',
          'plugin MCP server contains an unsupported field',
          'plugin MCP oauth must be a table',
        ]);
      });
    });

    describe('unsigned integers are integer literals, as serde reads them', () => {
      for (const [field, body] of [
        ['schema_version', 'schema_version = 1.0\n[plugin]\nname = "p"\n'],
        [
          'mcp_servers.s.connect_timeout',
          '[plugin]\nname = "p"\n[mcp_servers.s]\ncommand = "x"\nconnect_timeout = 1e1\n',
        ],
        [
          'mcp_servers.s.execute_timeout',
          '[plugin]\nname = "p"\n[mcp_servers.s]\ncommand = "x"\nexecute_timeout = 2.0\n',
        ],
        ['mcp_servers.s.read_timeout', '[plugin]\nname = "p"\n[mcp_servers.s]\ncommand = "x"\nread_timeout = 3.0\n'],
      ] as const) {
        it(`refuses a float at ${field}`, () => {
          const { m, findings } = read(body);
          assert.equal(m, undefined);
          assert.equal(findings.diagnostics.length, 1);
          assert.match(
            messagesOf(findings)[0] ?? '',
            new RegExp(
              `^failed to parse plugin\\.toml near bytes \\d+\\.\\.\\d+; check the v1 schema and field types \\(expected an unsigned integer at \`${field.replace(/\./g, '\\.')}\`\\)$`,
            ),
          );
        });
      }
      it('accepts hexadecimal, octal, binary and underscored integers', () => {
        const { m, findings } = read(
          'schema_version = 0x1\n[plugin]\nname = "p"\n[mcp_servers.s]\ncommand = "x"\nconnect_timeout = 0o7\nexecute_timeout = 0b11\nread_timeout = 1_0\n',
        );
        assert.deepEqual(findings.diagnostics, []);
        assert.equal(m?.schemaVersion.value, 1);
        assert.deepEqual(
          m?.mcpServers[0]?.timeouts.map((t) => t.value),
          [7, 3, 10],
        );
      });
    });

    for (const [kind, alias] of [
      ['agents', 'profiles'],
      ['lsp', 'lsp_servers'],
      ['native', 'native_extension'],
    ] as const) {
      it(`refuses [${kind}] together with its alias [${alias}] as a duplicate field, at the alias`, () => {
        const { m, findings } = read(`[plugin]\nname = "p"\n[${kind}]\npath = "a"\n[${alias}]\npath = "b"\n`);
        assert.equal(m, undefined);
        assert.equal(findings.diagnostics.length, 1);
        assert.ok(messagesOf(findings)[0]?.endsWith(`(duplicate field \`${kind}\`)`), messagesOf(findings)[0]);
        assert.equal(found(findings)[0]?.[1], '4:1');
      });
    }

    it('refuses a server with env_headers together with its alias env_http_headers as a duplicate field, at the alias', () => {
      const server = '[plugin]\nname = "p"\n[mcp_servers.s]\nurl = "https://x.invalid/"\n';
      const both = read(`${server}env_headers = { A = "B" }\nenv_http_headers = { C = "D" }\n`);
      assert.equal(both.m, undefined);
      assert.deepEqual(found(both.findings), [
        [
          'failed to parse plugin.toml near bytes 108..119; check the v1 schema and field types (duplicate field `env_headers`)',
          '5:0',
        ],
      ]);
      for (const one of ['env_headers', 'env_http_headers'])
        assert.deepEqual(messagesOf(read(`${server}${one} = { A = "B" }\n`).findings), [], one);
    });
  });

  describe('plugin.json (§3.2)', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());
    const read = (manifest: object | string) => {
      const findings = new Findings();
      const root = f.mkdir('b');
      const source = typeof manifest === 'string' ? manifest : JSON.stringify(manifest, null, 1);
      return { m: readPluginJson(f.path('b/plugin.json'), source, root, findings), findings };
    };
    const SCHEMA = 'https://agent-plugins.org/schemas/plugin.json';

    it('maps every field of the root and of extensions["net.codewhale"], and ignores other namespaces', () => {
      const { m, findings } = read({
        $schema: SCHEMA,
        name: 'full',
        version: '1.0.0',
        description: 'd',
        author: { name: ' N ', email: ' e@x ', url: ' u ' },
        homepage: 'h',
        repository: 'r',
        license: 'MIT',
        keywords: ['k'],
        extensions: {
          other: { anything: [1] },
          'net.codewhale': {
            display_name: 'D',
            icon: 'i',
            skills: {},
            commands: { path: 'c', paths: ['c2'] },
            agents: { path: 'a' },
            hooks: { path: 'h' },
            lsp: { path: 'l' },
            native: { path: 'n' },
            capabilities: { filesystem_roots: ['/f'], network_hosts: ['h.invalid'], lifecycle_mutation: true },
            when: { os: ['linux'], binaries: ['git'] },
          },
        },
      });
      assert.deepEqual(findings.diagnostics, []);
      const x = 'extensions.net.codewhale';
      assert.deepEqual(shape(m), {
        label: 'plugin.json',
        schemaVersion: { value: 1, at: '' },
        nameRule: 'agent-plugins',
        name: { value: 'full', at: 'name' },
        version: { value: '1.0.0', at: 'version' },
        description: { value: 'd', at: 'description' },
        author: { value: 'N <e@x> (u)', at: 'author' },
        displayName: { value: 'D', at: `${x}.display_name` },
        icon: { value: 'i', at: `${x}.icon` },
        homepage: { value: 'h', at: 'homepage' },
        repository: { value: 'r', at: 'repository' },
        license: { value: 'MIT', at: 'license' },
        keywords: [{ value: 'k', at: 'keywords.0' }],
        components: {
          skills: { at: `${x}.skills`, paths: [{ value: 'skills', at: `${x}.skills` }] },
          commands: {
            at: `${x}.commands`,
            paths: [
              { value: 'c', at: `${x}.commands.path` },
              { value: 'c2', at: `${x}.commands.paths.0` },
            ],
          },
          agents: { at: `${x}.agents`, paths: [{ value: 'a', at: `${x}.agents.path` }] },
          hooks: { at: `${x}.hooks`, paths: [{ value: 'h', at: `${x}.hooks.path` }] },
          lsp: { at: `${x}.lsp`, paths: [{ value: 'l', at: `${x}.lsp.path` }] },
          native: { at: `${x}.native`, paths: [{ value: 'n', at: `${x}.native.path` }] },
        },
        mcpServers: [],
        filesystemRoots: [{ value: '/f', at: `${x}.capabilities.filesystem_roots.0` }],
        networkHosts: [{ value: 'h.invalid', at: `${x}.capabilities.network_hosts.0` }],
        networkHostsDerived: false,
        lifecycleMutation: true,
        when: {
          at: `${x}.when`,
          os: [{ value: 'linux', at: `${x}.when.os.0` }],
          binaries: [{ value: 'git', at: `${x}.when.binaries.0` }],
        },
      });
    });

    it('defaults the version to 0.0.0 and the skills to a `skills/` directory only when one exists', () => {
      const none = read({ $schema: SCHEMA, name: 'min' });
      assert.deepEqual(shape(none.m), {
        label: 'plugin.json',
        schemaVersion: { value: 1, at: '' },
        nameRule: 'agent-plugins',
        name: { value: 'min', at: 'name' },
        version: { value: '0.0.0', at: '' },
        keywords: [],
        components: {},
        mcpServers: [],
        filesystemRoots: [],
        networkHosts: [],
        networkHostsDerived: false,
        lifecycleMutation: false,
      });
      f.write('b/skills/x/SKILL.md', '# x\n');
      assert.deepEqual(shape(read({ $schema: SCHEMA, name: 'min' }).m?.components), {
        skills: { at: '', paths: [{ value: 'skills', at: '' }] },
      });
      assert.deepEqual(
        shape(
          read({ $schema: SCHEMA, name: 'min', extensions: { 'net.codewhale': { skills: { path: 'o' } } } }).m
            ?.components,
        ),
        {
          skills: {
            at: 'extensions.net.codewhale.skills',
            paths: [{ value: 'o', at: 'extensions.net.codewhale.skills.path' }],
          },
        },
        'a declared skills path replaces the default',
      );
      f.write('c/skills', 'a file, not a directory');
      const findings = new Findings();
      const m = readPluginJson(
        f.path('c/plugin.json'),
        JSON.stringify({ $schema: SCHEMA, name: 'c' }),
        f.path('c'),
        findings,
      );
      assert.deepEqual(m?.components, {});
    });

    it('composes the author from name, <email> and (url), trimmed, leaving blank parts out', () => {
      assert.equal(
        composeAuthor({ name: ' Acme ', email: 'p@acme.example', url: 'https://acme.example' }),
        'Acme <p@acme.example> (https://acme.example)',
      );
      assert.equal(composeAuthor({ name: 'Acme', email: ' ', url: '' }), 'Acme');
      assert.equal(composeAuthor({ name: 'Acme', url: 'u' }), 'Acme (u)');
      assert.equal(composeAuthor({ name: 'Acme', email: 'e' }), 'Acme <e>');
    });

    it('reports a blank $schema, a bad name (with its rename fix) and a blank author name together', () => {
      const { m, findings } = read({ $schema: ' ', name: 'Bad Name', author: { name: '\t' } });
      assert.equal(m, undefined);
      assert.deepEqual(messagesOf(findings), [
        'plugin.json `$schema` must be a non-empty string',
        'plugin.json name `Bad Name` is invalid under the Agent Plugins standard (1-64 lowercase ASCII letters, digits, or internal single `-`/`.`; never `--` or `..`)',
        'plugin.json author.name must be a non-empty string',
      ]);
      assert.deepEqual(
        findings.diagnostics.map((d) => d.code),
        ['codewhale.manifest.parse', 'codewhale.manifest.name', 'codewhale.manifest.text'],
      );
      assert.deepEqual(findings.diagnostics[1]?.fix?.title, 'Rename the plugin to `bad-name`');
      assert.equal(findings.diagnostics[1]?.fix?.edits[0]?.newText, '"bad-name"');
    });

    it('reports its problems in upstream order: $schema, name, mcp.json, the net.codewhale extension, author.name', () => {
      // parse_plugin_json, then the sibling mcp.json, then standard_to_manifest (extension, then compose_author):
      // the first of them is the one a refusal names.
      f.write('b/mcp.json', '{}');
      const { m, findings } = read({
        $schema: ' ',
        name: 'Bad Name',
        author: { name: ' ' },
        extensions: { 'net.codewhale': { surprise: 1 } },
      });
      assert.equal(m, undefined);
      assert.deepEqual(messagesOf(findings), [
        'plugin.json `$schema` must be a non-empty string',
        'plugin.json name `Bad Name` is invalid under the Agent Plugins standard (1-64 lowercase ASCII letters, digits, or internal single `-`/`.`; never `--` or `..`)',
        'failed to parse mcp.json: missing field `mcpServers`',
        'plugin.json extensions["net.codewhale"] is invalid: unknown field `surprise`',
        'plugin.json author.name must be a non-empty string',
      ]);
    });

    it('refuses each of: a missing $schema, an unknown root key, a duplicate key, broken JSON', () => {
      assert.deepEqual(messagesOf(read({ name: 'p' }).findings), [
        'failed to parse plugin.json: missing field `$schema`',
      ]);
      assert.deepEqual(messagesOf(read({ $schema: SCHEMA, name: 'p', mcpServers: {} }).findings), [
        'failed to parse plugin.json: unknown field `mcpServers`',
      ]);
      const dup = read(`{"$schema": "${SCHEMA}", "name": "p", "name": "q"}`);
      assert.equal(dup.m, undefined);
      assert.deepEqual(messagesOf(dup.findings), ['failed to parse plugin.json: duplicate field `name`']);
      const broken = read('{');
      assert.equal(broken.m, undefined);
      assert.ok(messagesOf(broken.findings)[0]?.startsWith('failed to parse plugin.json: '));
    });

    it('keeps the last value of a key repeated under extensions (a map of JSON values), in any namespace', () => {
      const other = read(`{"$schema": "${SCHEMA}", "name": "b", "extensions": {"other.ns": {"a": 1, "a": 2}}}`);
      assert.deepEqual(messagesOf(other.findings), []);
      assert.equal(other.m?.name.value, 'b');
      // `net.codewhale` is read from the value already built: a namespace or a field in it repeated keeps the last.
      const ns = read(
        `{"$schema": "${SCHEMA}", "name": "b", "extensions": {"net.codewhale": {"unknown": 1}, "net.codewhale": {"display_name": "Last"}}}`,
      );
      assert.deepEqual(messagesOf(ns.findings), []);
      assert.equal(ns.m?.displayName?.value, 'Last');
      const field = read(
        `{"$schema": "${SCHEMA}", "name": "b", "extensions": {"net.codewhale": {"display_name": "First", "display_name": "Last"}}}`,
      );
      assert.deepEqual(messagesOf(field.findings), []);
      assert.equal(field.m?.displayName?.value, 'Last');
      // The root and the author are structs: a field named twice is refused.
      assert.deepEqual(
        messagesOf(read(`{"$schema": "${SCHEMA}", "name": "b", "author": {"name": "a", "name": "c"}}`).findings),
        ['failed to parse plugin.json: duplicate field `name`'],
      );
    });

    it('refuses an unknown extension key (providers too) at that key, with the other problems', () => {
      const { m, findings } = read({
        $schema: SCHEMA,
        name: 'p',
        extensions: { 'net.codewhale': { providers: {}, skills: { path: 1 } } },
      });
      assert.equal(m, undefined);
      assert.deepEqual(messagesOf(findings).sort(), [
        'plugin.json extensions["net.codewhale"] is invalid: expected string at `skills.path`',
        'plugin.json extensions["net.codewhale"] is invalid: unknown field `providers`',
      ]);
    });

    it('refuses the manifest when its mcp.json is refused', () => {
      f.write('b/mcp.json', '{}');
      const { m, findings } = read({ $schema: SCHEMA, name: 'p' });
      assert.equal(m, undefined);
      assert.deepEqual(messagesOf(findings), ['failed to parse mcp.json: missing field `mcpServers`']);
    });
  });

  describe('mcp.json (§3.3)', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());
    const read = (content?: string | Buffer | object) => {
      if (content !== undefined)
        f.write(
          'b/mcp.json',
          typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content, null, 1),
        );
      const findings = new Findings();
      return { servers: readMcpJson(f.path('b/mcp.json'), findings), findings };
    };
    const one = (s: object) => read({ mcpServers: { s } });

    it('is optional: no file, no servers', () => {
      const { servers, findings } = read();
      assert.deepEqual(servers, []);
      assert.deepEqual(findings.diagnostics, []);
    });

    it('refuses a symbolic link, a directory, a file over 1048576 bytes and one that is not UTF-8', () => {
      f.write('real.json', '{"mcpServers": {}}');
      f.symlink(f.path('real.json'), 'b/mcp.json');
      assert.deepEqual(messagesOf(read().findings), ['mcp.json must be a regular file, not a symbolic link']);
      f.remove();
      f = new Fixture();
      f.mkdir('b/mcp.json');
      assert.deepEqual(messagesOf(read().findings), ['mcp.json must be a regular file, not a symbolic link']);
      f.remove();
      f = new Fixture();
      const big = `{"mcpServers": {}}${' '.repeat(1048576 - 18)}`;
      assert.deepEqual(read(big).servers, [], 'exactly 1048576 bytes is within the limit');
      const over = read(`${big} `);
      assert.equal(over.servers, undefined);
      assert.deepEqual(messagesOf(over.findings), ['mcp.json exceeds the 1048576-byte review limit']);
      const latin1 = read(Buffer.from([0x7b, 0xff, 0x7d]));
      assert.equal(latin1.servers, undefined);
      assert.deepEqual(messagesOf(latin1.findings), ['mcp.json must be valid UTF-8']);
    });

    it('refuses broken JSON, a duplicate key, a missing mcpServers and an unknown server field', () => {
      const broken = read('{"mcpServers": ');
      assert.equal(broken.servers, undefined);
      assert.ok(messagesOf(broken.findings)[0]?.startsWith('failed to parse mcp.json: '));
      assert.deepEqual(messagesOf(read('{"mcpServers": {}, "mcpServers": {}}').findings), [
        'failed to parse mcp.json: duplicate field `mcpServers`',
      ]);
      assert.deepEqual(messagesOf(read({}).findings), ['failed to parse mcp.json: missing field `mcpServers`']);
      const unknown = one({ command: 'x', enabledTools: [] });
      assert.equal(unknown.servers, undefined);
      assert.deepEqual(messagesOf(unknown.findings), ['failed to parse mcp.json: unknown field `enabledTools`']);
    });

    it('keeps the last of a repeated server id, env or header name, and extension field; refuses a repeated server field', () => {
      const ids = read('{"mcpServers": {"s": {"command": "first"}, "s": {"command": "last"}}}');
      assert.deepEqual(messagesOf(ids.findings), []);
      assert.deepEqual(
        ids.servers?.map((s) => [s.id, s.command?.value]),
        [['s', 'last']],
      );
      const env = read('{"mcpServers": {"s": {"command": "x", "env": {"A": "${B}", "A": "${C}"}}}}');
      assert.deepEqual(messagesOf(env.findings), []);
      assert.deepEqual(
        env.servers?.[0]?.env.map((e) => [e.name, e.value]),
        [['A', '${C}']],
      );
      const headers = read('{"mcpServers": {"s": {"url": "https://x.invalid/", "headers": {"H": "1", "H": "2"}}}}');
      assert.deepEqual(messagesOf(headers.findings), []);
      assert.deepEqual(
        headers.servers?.[0]?.headers.map((h) => [h.name, h.value]),
        [['H', '2']],
      );
      const ext = read(
        '{"mcpServers": {"s": {"command": "x", "extensions": {"net.codewhale": {"required": true, "required": false}}}}}',
      );
      assert.deepEqual(messagesOf(ext.findings), []);
      assert.equal(ext.servers?.[0]?.required?.value, false);
      // serde still reads each replaced value: it must be a server, a string.
      assert.deepEqual(messagesOf(read('{"mcpServers": {"s": {"bogus": 1}, "s": {"command": "x"}}}').findings), [
        'failed to parse mcp.json: unknown field `bogus`',
      ]);
      assert.deepEqual(
        messagesOf(read('{"mcpServers": {"s": {"command": "x", "env": {"A": 1, "A": "${C}"}}}}').findings),
        ['failed to parse mcp.json: expected string at `mcpServers.s.env.A`'],
      );
      assert.deepEqual(messagesOf(read('{"mcpServers": {"s": {"command": "x", "command": "y"}}}').findings), [
        'failed to parse mcp.json: duplicate field `command`',
      ]);
      assert.deepEqual(
        messagesOf(read('{"mcpServers": {"s": {"command": "x", "command": "y"}, "s": {"command": "z"}}}').findings),
        ['failed to parse mcp.json: duplicate field `command`'],
        'a replaced server is read too',
      );
    });

    it('returns the servers sorted by id, inferring stdio from a command and streamable-http from a url', () => {
      const { servers, findings } = read({
        $schema: 'x',
        mcpServers: { z: { url: 'https://z.invalid/' }, a: { command: 'a' }, M: { type: 'Stdio', command: 'm' } },
      });
      assert.deepEqual(findings.diagnostics, []);
      assert.deepEqual(
        servers?.map((s) => [s.id, s.command?.value, s.url?.value, s.transport?.value]),
        [
          ['M', 'm', undefined, undefined],
          ['a', 'a', undefined, undefined],
          ['z', undefined, 'https://z.invalid/', undefined],
        ],
      );
      assert.equal(one({ type: 'STREAMABLE-HTTP', url: 'https://x.invalid/' }).servers?.[0]?.transport, undefined);
      assert.deepEqual(shape(one({ type: 'sse', url: 'https://x.invalid/' }).servers?.[0]?.transport), {
        value: 'sse',
        at: 'mcpServers.s.type',
      });
    });

    const refusals: [string, object, string, string][] = [
      [
        'an unknown type',
        { type: 'websocket', url: 'wss://x' },
        'mcp.json server `s` has unknown type `websocket`; expected `stdio`, `streamable-http`, or `sse`',
        'mcpServers.s.type',
      ],
      [
        'both command and url without a type',
        { command: 'x', url: 'https://x.invalid/' },
        'mcp.json server `s` must declare exactly one of command or url, or set an explicit type',
        'mcpServers.s!',
      ],
      [
        'neither command nor url',
        { args: ['a'] },
        'mcp.json server `s` must declare exactly one of command or url, or set an explicit type',
        'mcpServers.s!',
      ],
      [
        'stdio without a command',
        { type: 'stdio', url: 'https://x.invalid/' },
        'mcp.json server `s` declares stdio transport without a command',
        'mcpServers.s.type',
      ],
      [
        'stdio with a url',
        { type: 'stdio', command: 'x', url: 'https://x.invalid/' },
        'mcp.json stdio server `s` may not declare url or headers',
        'mcpServers.s.url',
      ],
      [
        'stdio with headers',
        { command: 'x', headers: { A: 'b' } },
        'mcp.json stdio server `s` may not declare url or headers',
        'mcpServers.s.headers',
      ],
      [
        'stdio env PLUGIN_ROOT',
        { command: 'x', env: { PLUGIN_ROOT: '${A}' } },
        'mcp.json server `s` env may not define reserved name `PLUGIN_ROOT`',
        'mcpServers.s.env.PLUGIN_ROOT!',
      ],
      [
        'stdio env PLUGIN_DATA',
        { command: 'x', env: { OK: '${A}', PLUGIN_DATA: '${A}' } },
        'mcp.json server `s` env may not define reserved name `PLUGIN_DATA`',
        'mcpServers.s.env.PLUGIN_DATA!',
      ],
      [
        'HTTP without a url',
        { type: 'sse', headers: {} },
        'mcp.json server `s` declares an HTTP transport without a url',
        'mcpServers.s.type',
      ],
      [
        'HTTP with a command',
        { type: 'streamable-http', url: 'https://x.invalid/', command: 'x' },
        'mcp.json HTTP server `s` may not declare command, args, env, or cwd',
        'mcpServers.s.command!',
      ],
      [
        'HTTP with args',
        { url: 'https://x.invalid/', args: ['a'] },
        'mcp.json HTTP server `s` may not declare command, args, env, or cwd',
        'mcpServers.s.args!',
      ],
      [
        'HTTP with env',
        { url: 'https://x.invalid/', env: { A: '${B}' } },
        'mcp.json HTTP server `s` may not declare command, args, env, or cwd',
        'mcpServers.s.env!',
      ],
      [
        'HTTP with cwd',
        { url: 'https://x.invalid/', cwd: '.' },
        'mcp.json HTTP server `s` may not declare command, args, env, or cwd',
        'mcpServers.s.cwd!',
      ],
      [
        'an unknown extension key',
        { command: 'x', extensions: { 'net.codewhale': { allow_private_network: true } } },
        'mcp.json server extensions["net.codewhale"] is invalid: unknown field `allow_private_network`',
        'mcpServers.s.extensions.net.codewhale.allow_private_network!',
      ],
    ];
    for (const [name, s, message, at] of refusals) {
      it(`refuses ${name}, at the field`, () => {
        const { servers, findings } = one(s);
        assert.equal(servers, undefined);
        assert.deepEqual(messagesOf(findings), [message]);
        const doc = findings.document(f.path('b/mcp.json'));
        assert.ok(doc);
        const parts = at
          .replace(/!$/, '')
          .replace('net.codewhale', 'net\0codewhale')
          .split('.')
          .map((p) => p.replace('\0', '.'));
        const range = at.endsWith('!') ? doc.keyRange(parts) : doc.valueRange(parts);
        assert.deepEqual(findings.diagnostics[0]?.range, range);
      });
    }

    it('takes empty args, env and headers as none, whatever the transport', () => {
      assert.deepEqual(messagesOf(one({ command: 'x', headers: {} }).findings), []);
      assert.deepEqual(messagesOf(one({ url: 'https://x.invalid/', args: [], env: {} }).findings), []);
    });

    for (const t of ['connect_timeout', 'execute_timeout', 'read_timeout'])
      it(`refuses ${t} written 1.0, though JavaScript reads it as 1`, () => {
        f.write(
          'b/mcp.json',
          `{"mcpServers": {"s": {"command": "x", "extensions": {"net.codewhale": {"${t}": 1.0}}}}}`,
        );
        const findings = new Findings();
        assert.equal(readMcpJson(f.path('b/mcp.json'), findings), undefined);
        assert.deepEqual(messagesOf(findings), [
          `mcp.json server extensions["net.codewhale"] is invalid: expected an unsigned integer at \`${t}\``,
        ]);
      });

    it('reports each invalid server, and keeps none', () => {
      const { servers, findings } = read({ mcpServers: { a: { type: 'x' }, b: {}, c: { command: 'ok' } } });
      assert.equal(servers, undefined);
      assert.deepEqual(messagesOf(findings), [
        'mcp.json server `a` has unknown type `x`; expected `stdio`, `streamable-http`, or `sse`',
        'mcp.json server `b` must declare exactly one of command or url, or set an explicit type',
      ]);
    });
  });

  describe('kimi.plugin.json (§3.5)', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());
    const read = (manifest: object | string) => {
      const findings = new Findings();
      const root = f.mkdir('b');
      const source = typeof manifest === 'string' ? manifest : JSON.stringify(manifest, null, 1);
      return { m: readKimiJson(f.path('b/kimi.plugin.json'), source, root, findings), findings };
    };

    it('maps every field: string and list paths, interface names, platforms as [when] os, enabledTools', () => {
      const { m, findings } = read({
        $schema: 's',
        name: 'k_1',
        version: '1.0.0',
        description: 'd',
        keywords: ['k'],
        author: { name: 'N', email: 'e' },
        homepage: 'h',
        repository: 'r',
        license: 'MIT',
        skills: 's',
        commands: ['c', 'c2'],
        agents: ['a'],
        mcpServers: {
          r: { url: 'https://h.invalid/', enabledTools: ['t'] },
          l: { command: 'node', extensions: { 'net.codewhale': { enabled_tools: ['t'] } }, enabledTools: ['t'] },
        },
        interface: {
          displayName: 'D',
          shortDescription: 's',
          longDescription: 'l',
          developerName: 'dn',
          websiteURL: 'w',
          iconUrl: 'i',
          category: 'c',
          hostKind: 'local',
          platforms: ['linux', ' MacOS'],
          mcpOverrides: { r: { displayName: 'x', iconUrl: 'y' } },
        },
      });
      assert.deepEqual(findings.diagnostics, []);
      assert.deepEqual(shape(m), {
        label: 'kimi.plugin.json',
        schemaVersion: { value: 1, at: '' },
        nameRule: 'kimi',
        name: { value: 'k_1', at: 'name' },
        version: { value: '1.0.0', at: 'version' },
        description: { value: 'd', at: 'description' },
        author: { value: 'N <e>', at: 'author' },
        displayName: { value: 'D', at: 'interface.displayName' },
        homepage: { value: 'h', at: 'homepage' },
        repository: { value: 'r', at: 'repository' },
        license: { value: 'MIT', at: 'license' },
        keywords: [{ value: 'k', at: 'keywords.0' }],
        components: {
          skills: { paths: [{ value: 's', at: 'skills' }], at: 'skills' },
          commands: {
            paths: [
              { value: 'c', at: 'commands.0' },
              { value: 'c2', at: 'commands.1' },
            ],
            at: 'commands',
          },
          agents: { paths: [{ value: 'a', at: 'agents.0' }], at: 'agents' },
        },
        mcpServers: [
          server({
            id: 'l',
            at: 'mcpServers.l!',
            enabledTools: [{ value: 't', at: 'mcpServers.l.enabledTools.0' }],
            command: { value: 'node', at: 'mcpServers.l.command' },
          }),
          server({
            id: 'r',
            at: 'mcpServers.r!',
            enabledTools: [{ value: 't', at: 'mcpServers.r.enabledTools.0' }],
            url: { value: 'https://h.invalid/', at: 'mcpServers.r.url' },
          }),
        ],
        filesystemRoots: [],
        networkHosts: [],
        networkHostsDerived: true,
        lifecycleMutation: false,
        when: {
          at: 'interface.platforms',
          os: [
            { value: 'linux', at: 'interface.platforms.0' },
            { value: 'macos', at: 'interface.platforms.1' },
          ],
        },
      });
    });

    it('takes a string author as written, defaults the version, and reads a root SKILL.md as the skills path `.`', () => {
      const plain = read({ name: 'k', author: 'Someone <s@x>' });
      assert.deepEqual(shape(plain.m), {
        label: 'kimi.plugin.json',
        schemaVersion: { value: 1, at: '' },
        nameRule: 'kimi',
        name: { value: 'k', at: 'name' },
        version: { value: '0.0.0', at: '' },
        author: { value: 'Someone <s@x>', at: 'author' },
        keywords: [],
        components: {},
        mcpServers: [],
        filesystemRoots: [],
        networkHosts: [],
        networkHostsDerived: true,
        lifecycleMutation: false,
      });
      f.write('b/SKILL.md', '# k\n');
      assert.deepEqual(shape(read({ name: 'k' }).m?.components), {
        skills: { paths: [{ value: '.', at: '' }], at: '' },
      });
      assert.deepEqual(shape(read({ name: 'k', skills: ['x'] }).m?.components), {
        skills: { paths: [{ value: 'x', at: 'skills.0' }], at: 'skills' },
      });
    });

    it('an enabledTools list equal to the extension list is kept at enabledTools; an empty one leaves the extension list', () => {
      const same = read({
        name: 'k',
        mcpServers: {
          s: { command: 'x', enabledTools: ['a', 'b'], extensions: { 'net.codewhale': { enabled_tools: ['a', 'b'] } } },
        },
      });
      assert.deepEqual(shape(same.m?.mcpServers[0]?.enabledTools), [
        { value: 'a', at: 'mcpServers.s.enabledTools.0' },
        { value: 'b', at: 'mcpServers.s.enabledTools.1' },
      ]);
      const empty = read({
        name: 'k',
        mcpServers: {
          s: { command: 'x', enabledTools: [], extensions: { 'net.codewhale': { enabled_tools: ['a'] } } },
        },
      });
      assert.deepEqual(shape(empty.m?.mcpServers[0]?.enabledTools), [
        { value: 'a', at: 'mcpServers.s.extensions.net.codewhale.enabled_tools.0' },
      ]);
      for (const other of [['a'], ['b', 'a'], ['a', 'c']]) {
        const conflict = read({
          name: 'k',
          mcpServers: {
            s: { command: 'x', enabledTools: other, extensions: { 'net.codewhale': { enabled_tools: ['a', 'b'] } } },
          },
        });
        assert.equal(conflict.m, undefined, other.join());
        assert.deepEqual(messagesOf(conflict.findings), [
          'kimi.plugin.json MCP server `s` declares conflicting enabledTools filters',
        ]);
      }
    });

    it('keeps the last of a repeated server id or mcpOverrides key; refuses a repeated field', () => {
      const ids = read('{"name": "k", "mcpServers": {"s": {"command": "a"}, "s": {"command": "b"}}}');
      assert.deepEqual(messagesOf(ids.findings), []);
      assert.deepEqual(
        ids.m?.mcpServers.map((s) => s.command?.value),
        ['b'],
      );
      const overrides = '{"name": "k", "interface": {"mcpOverrides": {"s": OVERRIDE, "s": {"displayName": "b"}}}}';
      assert.deepEqual(messagesOf(read(overrides.replace('OVERRIDE', '{"displayName": "a"}')).findings), []);
      assert.deepEqual(messagesOf(read(overrides.replace('OVERRIDE', '{"bogus": 1}')).findings), [
        'failed to parse kimi.plugin.json: unknown field `bogus`',
      ]);
      assert.deepEqual(
        messagesOf(read('{"name": "k", "interface": {"hostKind": "local", "hostKind": "local"}}').findings),
        ['failed to parse kimi.plugin.json: duplicate field `hostKind`'],
      );
    });

    it('refuses each rule of the format with its message', () => {
      const cases: [object | string, string[]][] = [
        ['{', []],
        ['{"name": "a", "name": "b"}', ['failed to parse kimi.plugin.json: duplicate field `name`']],
        [{ name: 'k', unknown: 1 }, ['failed to parse kimi.plugin.json: unknown field `unknown`']],
        [{ $schema: ' ', name: 'k' }, ['kimi.plugin.json `$schema` must be a non-empty string']],
        [
          { name: '_k' },
          [
            'kimi.plugin.json name `_k` is invalid (1-64 lowercase ASCII letters, digits, hyphens, or underscores; must start with a letter or digit)',
          ],
        ],
        [{ name: 'k', commands: [] }, ['Kimi plugin component path list must not be empty']],
        [{ name: 'k', agents: [] }, ['Kimi plugin component path list must not be empty']],
        [{ name: 'k', author: { name: ' ' } }, ['plugin.json author.name must be a non-empty string']],
        [
          { name: 'k', interface: { hostKind: 'remote' } },
          ['kimi.plugin.json interface hostKind `remote` is unsupported; only `local` is understood'],
        ],
        [
          { name: 'k', interface: { mcpOverrides: { '': {} } } },
          ['kimi.plugin.json interface mcpOverrides keys must not be empty'],
        ],
        [
          { name: 'k', interface: { platforms: ['beos'] } },
          ['kimi.plugin.json interface has unsupported platform `beos`'],
        ],
        [
          { name: 'k', interface: { platforms: ['ios', ' IOS'] } },
          ['kimi.plugin.json interface repeats platform `ios`'],
        ],
        [
          { name: 'k', mcpServers: { s: { command: 'x', url: 'https://x.invalid/' } } },
          ['mcp.json server `s` must declare exactly one of command or url, or set an explicit type'],
        ],
      ];
      for (const [manifest, expected] of cases) {
        const { m, findings } = read(manifest);
        assert.equal(m, undefined, JSON.stringify(manifest));
        if (expected.length === 0) assert.ok(messagesOf(findings)[0]?.startsWith('failed to parse kimi.plugin.json: '));
        else assert.deepEqual(messagesOf(findings), expected, JSON.stringify(manifest));
      }
    });

    it('reports every independent problem at once', () => {
      const { findings } = read({ $schema: '', name: 'K', skills: [], interface: { hostKind: 'x', platforms: ['x'] } });
      assert.deepEqual(
        findings.diagnostics.map((d) => d.code),
        [
          'codewhale.manifest.parse',
          'codewhale.manifest.name',
          'codewhale.component.path',
          'codewhale.manifest.parse',
          'codewhale.when.os',
        ],
      );
    });
  });

  describe('.claude-plugin/plugin.json (§3.6)', () => {
    let f: Fixture;
    beforeEach(() => (f = new Fixture()));
    afterEach(() => f.remove());
    it('keeps the last of any repeated key: upstream reads the file into a JSON value first', () => {
      const findings = new Findings();
      const source = '{"name": "c", "name": "d", "mcpServers": {"s": {"command": "a"}, "s": {"command": "b"}}}';
      const m = readKimiJson(
        f.path('b/.claude-plugin/plugin.json'),
        source,
        f.mkdir('b'),
        findings,
        '.claude-plugin/plugin.json',
      );
      assert.deepEqual(messagesOf(findings), []);
      assert.equal(m?.name.value, 'd');
      assert.deepEqual(
        m?.mcpServers.map((s) => s.command?.value),
        ['b'],
      );
    });

    const read = (manifest: object) => {
      const findings = new Findings();
      const root = f.mkdir('b');
      f.write('b/.claude-plugin/plugin.json', JSON.stringify(manifest));
      const m = readKimiJson(
        f.path('b/.claude-plugin/plugin.json'),
        JSON.stringify(manifest),
        root,
        findings,
        '.claude-plugin/plugin.json',
      );
      return { m, findings };
    };

    for (const component of ['hooks/hooks.json', '.lsp.json'])
      it(`refuses a bundle with ${component}`, () => {
        f.write(`b/${component}`, '{}');
        const { m, findings } = read({ name: 'c' });
        assert.equal(m, undefined);
        assert.deepEqual(messagesOf(findings), [
          `Claude component ${component} is not supported by this importer; no partial plugin will be installed`,
        ]);
      });

    it('words its parse errors "Claude plugin.json" and checks the Agent Plugins name rule with the metadata', () => {
      assert.deepEqual(messagesOf(read({ name: 'c', x: 1 }).findings), [
        'failed to parse Claude plugin.json: unknown field `x`',
      ]);
      assert.deepEqual(messagesOf(read({ $schema: '', name: 'c' }).findings), [
        'Claude plugin.json `$schema` must be a non-empty string',
      ]);
      const { m } = read({ name: 'c_d' });
      assert.equal(m?.nameRule, 'agent-plugins');
      assert.equal(m?.label, '.claude-plugin/plugin.json');
    });

    it('adds existing skills/, commands/ and agents/ directories, unless a declared path names them already', () => {
      f.mkdir('b/skills');
      f.mkdir('b/commands');
      f.mkdir('b/agents');
      f.write('b/SKILL.md', '# not a Claude default\n');
      const { m } = read({ name: 'c', skills: './skills/', commands: ['x'] });
      assert.deepEqual(shape(m?.components), {
        skills: { paths: [{ value: './skills/', at: 'skills' }], at: 'skills' },
        commands: {
          paths: [
            { value: 'x', at: 'commands.0' },
            { value: 'commands', at: '' },
          ],
          at: 'commands',
        },
        agents: { paths: [{ value: 'agents', at: '' }], at: '' },
      });
      assert.deepEqual(shape(read({ name: 'c', skills: ['skills//'], agents: 'agents' }).m?.components.skills), {
        paths: [{ value: 'skills//', at: 'skills.0' }],
        at: 'skills',
      });
    });

    it('merges .mcp.json, flat or wrapped, refuses an id declared twice and ${CLAUDE_PLUGIN_ROOT}', () => {
      f.write('b/.mcp.json', JSON.stringify({ flat: { type: 'http', url: 'https://x.invalid/' } }));
      const flat = read({ name: 'c', mcpServers: { inline: { command: 'x' } } });
      assert.deepEqual(messagesOf(flat.findings), []);
      assert.deepEqual(
        flat.m?.mcpServers.map((s) => [s.id, s.at.file.endsWith('.mcp.json'), atOf(s.at)]),
        [
          ['flat', true, 'flat!'],
          ['inline', false, 'mcpServers.inline!'],
        ],
      );
      f.write('b/.mcp.json', JSON.stringify({ $schema: 'x', mcpServers: { w: { command: 'y' } } }));
      assert.deepEqual(
        read({ name: 'c' }).m?.mcpServers.map((s) => atOf(s.at)),
        ['mcpServers.w!'],
      );
      f.write('b/.mcp.json', JSON.stringify({ mcpServers: { s: { command: 'y' } } }));
      const twice = read({ name: 'c', mcpServers: { s: { command: 'x' } } });
      assert.equal(twice.m, undefined);
      assert.deepEqual(messagesOf(twice.findings), ['Claude plugin declares MCP server `s` more than once']);
      f.write('b/.mcp.json', '{}');
      const root = read({ name: 'c', mcpServers: { s: { command: '${CLAUDE_PLUGIN_ROOT}/run' } } });
      assert.equal(root.m, undefined);
      assert.deepEqual(messagesOf(root.findings), [
        'Claude MCP server `s` uses ${CLAUDE_PLUGIN_ROOT}, which Codewhale does not support',
      ]);
    });

    it('refuses a .mcp.json that is a link, too large, not UTF-8, broken or of the wrong shape', () => {
      const cases: [() => void, string][] = [
        [() => f.write('b/.mcp.json', Buffer.from([0xff])), 'failed to parse .mcp.json: not UTF-8'],
        [() => f.write('b/.mcp.json', `{}${' '.repeat(1048576)}`), '.mcp.json exceeds the 1048576-byte review limit'],
        [
          () => f.write('b/.mcp.json', JSON.stringify({ s: { command: 1 } })),
          'failed to parse .mcp.json: expected string at `s.command`',
        ],
        [
          () => f.write('b/.mcp.json', JSON.stringify({ mcpServers: {}, other: 1 })),
          'failed to parse .mcp.json: unknown field `other`',
        ],
      ];
      for (const [setup, message] of cases) {
        setup();
        const { m, findings } = read({ name: 'c' });
        assert.equal(m, undefined, message);
        assert.deepEqual(messagesOf(findings), [message]);
      }
      f.write('elsewhere.json', '{}');
      fs.rmSync(f.path('b/.mcp.json'));
      f.symlink(f.path('elsewhere.json'), 'b/.mcp.json');
      assert.deepEqual(messagesOf(read({ name: 'c' }).findings), [
        '.mcp.json must be a regular file, not a symbolic link',
      ]);
      fs.rmSync(f.path('b/.mcp.json'));
      f.write('b/.mcp.json', '{');
      assert.ok(messagesOf(read({ name: 'c' }).findings)[0]?.startsWith('failed to parse .mcp.json: '));
    });

    it('translates headers: Authorization Bearer ${X} to bearer_token_env_var, ${X} to env_headers, anything else refused', () => {
      const { m, findings } = read({
        name: 'c',
        mcpServers: {
          s: {
            type: 'http',
            url: 'https://x.invalid/',
            headers: { authorization: 'Bearer ${TOKEN}', 'X-Key': '${KEY}' },
          },
        },
      });
      assert.deepEqual(findings.diagnostics, []);
      const s = m?.mcpServers[0];
      assert.deepEqual(
        shape(s),
        server({
          id: 's',
          at: 'mcpServers.s!',
          envHeaders: [{ name: 'X-Key', value: 'KEY', at: 'mcpServers.s.headers.X-Key' }],
          url: { value: 'https://x.invalid/', at: 'mcpServers.s.url' },
          bearerTokenEnvVar: { value: 'TOKEN', at: 'mcpServers.s.headers' },
        }),
      );
      for (const [h, v] of [
        ['Authorization', 'Basic abc'],
        ['X-Other', 'Bearer ${TOKEN}'],
        ['X-Key', 'literal'],
        ['X-Key', '${1BAD}'],
      ]) {
        const bad = read({
          name: 'c',
          mcpServers: { s: { url: 'https://x.invalid/', headers: { [h as string]: v } } },
        });
        assert.equal(bad.m, undefined, `${h}: ${v}`);
        assert.deepEqual(messagesOf(bad.findings), [
          `Claude MCP server \`s\` header \`${h}\` must be \`Bearer \${VAR}\` or \`\${VAR}\``,
        ]);
      }
    });

    it('refuses two credential sources for one header, its name compared ASCII-case-insensitively, as upstream does', () => {
      // `parse_claude_plugin_json`: a header already among env_headers (eq_ignore_ascii_case), or an
      // Authorization header when a bearer variable is already set, fails the bundle; Skillgate
      // kept both case variants, or let the header's bearer replace the extension's.
      for (const [headers, ext, h] of [
        [{ 'X-Key': '${A}', 'x-key': '${B}' }, undefined, 'x-key'],
        [{ Authorization: 'Bearer ${A}', authorization: 'Bearer ${B}' }, undefined, 'authorization'],
        [{ Authorization: 'Bearer ${A}', AUTHORIZATION: '${B}' }, undefined, 'AUTHORIZATION'],
        [{ Authorization: 'Bearer ${B}' }, { bearer_token_env_var: 'A' }, 'Authorization'],
        [{ 'X-KEY': '${B}' }, { env_headers: { 'x-key': 'A' } }, 'X-KEY'],
      ] as [Record<string, string>, Record<string, unknown> | undefined, string][]) {
        const bad = read({
          name: 'c',
          mcpServers: {
            s: {
              type: 'http',
              url: 'https://x.invalid/',
              headers,
              ...(ext ? { extensions: { 'net.codewhale': ext } } : {}),
            },
          },
        });
        assert.equal(bad.m, undefined, JSON.stringify(headers));
        assert.deepEqual(messagesOf(bad.findings), [
          `Claude MCP server \`s\` has duplicate credential sources for header \`${h}\``,
        ]);
      }
      // Distinct headers, and an extension env header beside a bearer header, stay valid.
      const ok = read({
        name: 'c',
        mcpServers: {
          s: {
            type: 'http',
            url: 'https://x.invalid/',
            headers: { Authorization: 'Bearer ${A}', 'X-Key': '${B}' },
            extensions: { 'net.codewhale': { env_headers: { 'X-Other': 'C' } } },
          },
        },
      });
      assert.deepEqual(messagesOf(ok.findings), []);
    });
  });
});
