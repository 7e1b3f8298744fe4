import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import type { Diagnostic } from '../../src/core/model';
import { applyFixAsEditor, assertFixBoundToEditorText } from './helpers/editorApply';
import { Fixture, index, writeW } from './helpers/fixture';

const PLUGIN = 'ws/.codewhale/plugins/example-plugin';
const HEAD = 'schema_version = 1\n[plugin]\nname = "example-plugin"\nversion = "1.2.3"\n[skills]\npath = "skills"\n';
const STDIO = 'codewhale.mcp.stdio-remote-fields';
const REMOTE = 'codewhale.mcp.remote-stdio-fields';

/**
 * A stdio MCP server may not declare the fields of a remote one, nor a remote server those
 * of a stdio one (codewhale.md §4.7): Codewhale refuses the bundle for them and would run
 * the server without them, so removing them is the fix. Every such field goes, key, value
 * and line, or no fix is offered; the fixed manifest is indexed again and has no finding of
 * that code, and no finding it did not have.
 */
describe('quick fixes that remove the fields of the other MCP transport', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const codes = (): string[] => index([f.path('ws')]).diagnostics.map((x) => x.code);
  const finding = (code: string): Diagnostic => {
    const found = index([f.path('ws')]).diagnostics.filter((x) => x.code === code);
    assert.equal(found.length, 1, `${code} once`);
    return found[0] as Diagnostic;
  };
  const fixAndRevalidate = (code: string): void => {
    const before = codes();
    const d = finding(code);
    assert.ok(d.fix, `${code} has a fix`);
    assertFixBoundToEditorText(d.fix);
    applyFixAsEditor(d);
    assert.deepEqual(
      codes(),
      before.filter((c) => c !== code),
    );
  };
  const noFix = (code: string, written: string): void => {
    const d = finding(code);
    assert.equal(d.fix, undefined, written);
  };
  const toml = (servers: string) => f.write(`${PLUGIN}/plugin.toml`, `${HEAD}${servers}`);
  const mcpJson = (servers: unknown): string => {
    f.write(`${PLUGIN}/plugin.json`, JSON.stringify({ $schema: 's', name: 'example-plugin', version: '1.2.3' }));
    return f.write(`${PLUGIN}/mcp.json`, JSON.stringify({ mcpServers: servers }, null, 2));
  };

  it('removes every remote field of a stdio server in plugin.toml: pairs, a multi-line list and sub-tables', () => {
    writeW(f);
    toml(
      [
        '[mcp_servers.local]',
        'command = "node"',
        'transport = "sse"  # not for stdio',
        'args = ["server.js"]',
        'headers = { X-Key = "literal" }',
        'bearer_token_env_var = "TOKEN"',
        'scopes = [',
        '  "read",',
        ']',
        'oauth_resource = "https://example.invalid"',
        '# the server reads A',
        'env = { A = "${B}" }',
        '[mcp_servers.local.oauth]',
        'client_id = "app"',
        '[mcp_servers.local.env_headers]',
        'X-Other = "OTHER"',
        '',
        '[mcp_servers.other]',
        'command = "node"',
        '',
      ].join('\n'),
    );
    fixAndRevalidate(STDIO);
    assert.equal(
      fs.readFileSync(f.path(`${PLUGIN}/plugin.toml`), 'utf8'),
      `${HEAD}[mcp_servers.local]\ncommand = "node"\nargs = ["server.js"]\n# the server reads A\nenv = { A = "\${B}" }\n\n[mcp_servers.other]\ncommand = "node"\n`,
    );
  });

  it('removes the remote fields of a stdio server from its net.codewhale extension in mcp.json', () => {
    const server = (extension: Record<string, unknown>) => ({
      local: { command: 'node', args: ['server.js'], extensions: { 'net.codewhale': extension } },
    });
    const file = mcpJson(
      server({
        env_headers: { 'X-Key': 'KEY' },
        bearer_token_env_var: 'TOKEN',
        enabled_tools: ['read'],
        scopes: ['read'],
        oauth: { client_id: 'app' },
        oauth_resource: 'https://example.invalid',
      }),
    );
    fixAndRevalidate(STDIO);
    assert.equal(
      fs.readFileSync(file, 'utf8'),
      JSON.stringify({ mcpServers: server({ enabled_tools: ['read'] }) }, null, 2),
    );
  });

  it('removes cwd, args and env from a remote server in plugin.toml, keeping its authentication', () => {
    writeW(f);
    const remote =
      '[capabilities]\nnetwork_hosts = ["example.invalid"]\n[mcp_servers.remote]\nurl = "https://example.invalid/mcp"\n';
    toml(
      `${remote}cwd = "bin"\nargs = [\n  "--verbose",\n]\nbearer_token_env_var = "TOKEN"\n[mcp_servers.remote.env]\nA = "\${B}"\n`,
    );
    fixAndRevalidate(REMOTE);
    assert.equal(
      fs.readFileSync(f.path(`${PLUGIN}/plugin.toml`), 'utf8'),
      `${HEAD}${remote}bearer_token_env_var = "TOKEN"\n`,
    );
  });

  it('removes a field written on the last line, with no line break after it', () => {
    writeW(f);
    toml('[mcp_servers.local]\ncommand = "node"\ntransport = "sse"');
    fixAndRevalidate(STDIO);
    assert.equal(
      fs.readFileSync(f.path(`${PLUGIN}/plugin.toml`), 'utf8'),
      `${HEAD}[mcp_servers.local]\ncommand = "node"\n`,
    );
  });

  it('offers no fix where one of the fields is not an entry of its own that an edit can remove exactly', () => {
    writeW(f);
    for (const [code, written] of [
      // Dotted keys: the table is written by several pairs.
      [STDIO, '[mcp_servers.local]\ncommand = "node"\nbearer_token_env_var = "T"\nheaders.X-Key = "literal"\n'],
      [REMOTE, '[mcp_servers.remote]\nurl = "https://example.invalid/mcp"\nenv.A = "${B}"\n'],
      // Inside an inline table: no line of its own.
      [STDIO, '[mcp_servers]\nlocal = { command = "node", transport = "sse" }\n'],
      [REMOTE, '[mcp_servers]\nremote = { url = "https://example.invalid/mcp", cwd = "bin" }\n'],
    ] as const) {
      toml(`[capabilities]\nnetwork_hosts = ["example.invalid"]\n${written}`);
      noFix(code, written);
    }
  });

  it('offers no fix in mcp.json where the extension is written as an array (its elements are its fields by position)', () => {
    mcpJson({ local: { command: 'node', extensions: { 'net.codewhale': [{ 'X-Key': 'KEY' }] } } });
    noFix(STDIO, 'extension as an array');
  });
});
