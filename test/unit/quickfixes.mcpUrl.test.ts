import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import type { Diagnostic } from '../../src/core/model';
import { applyFixAsEditor, assertFixBoundToEditorText } from './helpers/editorApply';
import { Fixture, index, writeW } from './helpers/fixture';

const TOML = 'ws/.codewhale/plugins/example-plugin/plugin.toml';
const SERVER = '[capabilities]\nnetwork_hosts = ["logs.example"]\n[mcp_servers.upload]\nurl = ';

/**
 * A remote MCP URL Codewhale refuses (codewhale.md §4.7), fixed by the one edit that keeps
 * its endpoint: the same host, port and path, less the part the rule forbids. The fixed
 * manifest is indexed again and no longer has the finding; a URL whose fix would reach
 * another place is offered none.
 */
describe('quick fixes for a remote MCP URL', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const finding = (code: string): Diagnostic | undefined => {
    const found = index([f.path('ws')]).diagnostics.filter((x) => x.code === code);
    assert.ok(found.length <= 1, `${code} once`);
    return found[0];
  };
  const fixAndRevalidate = (code: string): string[] => {
    const d = finding(code);
    assert.ok(d?.fix, `${code} has a fix`);
    assertFixBoundToEditorText(d.fix);
    applyFixAsEditor(d);
    return index([f.path('ws')]).diagnostics.map((x) => x.code);
  };

  it('removes the query from the URL (the demo workspace’s broken-upload), keeping host and path', () => {
    writeW(f, `${SERVER}"https://logs.example/mcp?token=abc123"\n`);
    assert.deepEqual(fixAndRevalidate('codewhale.mcp.url-query'), []);
    assert.match(fs.readFileSync(f.path(TOML), 'utf8'), /\nurl = "https:\/\/logs\.example\/mcp"\n/);
  });

  it('removes a fragment, an empty `?` and a query after a host without a path', () => {
    for (const [written, fixed] of [
      ["'https://logs.example/mcp#part'", '"https://logs.example/mcp"'],
      ['"https://logs.example/mcp?"', '"https://logs.example/mcp"'],
      ['"https://logs.example?x=1#y"', '"https://logs.example"'],
    ] as const) {
      writeW(f, `${SERVER}${written}\n`);
      assert.deepEqual(fixAndRevalidate('codewhale.mcp.url-query'), [], written);
      assert.ok(fs.readFileSync(f.path(TOML), 'utf8').includes(`\nurl = ${fixed}\n`), written);
    }
  });

  it('removes the query from a URL in mcp.json', () => {
    const dir = 'ws/.codewhale/plugins/weather';
    f.write(
      `${dir}/plugin.json`,
      JSON.stringify({
        $schema: 's',
        name: 'weather',
        version: '1.0.0',
        extensions: { 'net.codewhale': { capabilities: { network_hosts: ['api.weather.example'] } } },
      }),
    );
    f.write(
      `${dir}/mcp.json`,
      JSON.stringify({ mcpServers: { weather: { url: 'https://api.weather.example/mcp?key=1' } } }, null, 2),
    );
    assert.deepEqual(fixAndRevalidate('codewhale.mcp.url-query'), []);
    assert.equal(
      JSON.parse(fs.readFileSync(f.path(`${dir}/mcp.json`), 'utf8')).mcpServers.weather.url,
      'https://api.weather.example/mcp',
    );
  });

  it('removes embedded credentials from the URL, keeping the host after the last @', () => {
    writeW(f, `${SERVER}"https://user:p@ss@logs.example/mcp"\n`);
    assert.deepEqual(fixAndRevalidate('codewhale.mcp.url-credentials'), []);
    assert.match(fs.readFileSync(f.path(TOML), 'utf8'), /\nurl = "https:\/\/logs\.example\/mcp"\n/);
  });

  it('writes https:// for a plain-http URL that names no port', () => {
    writeW(f, `${SERVER}"HTTP://logs.example/mcp"\n`);
    assert.deepEqual(fixAndRevalidate('codewhale.mcp.url-https'), []);
    assert.match(fs.readFileSync(f.path(TOML), 'utf8'), /\nurl = "https:\/\/logs\.example\/mcp"\n/);
  });

  it('offers no https fix for a URL with a port (TLS on that port is a guess)', () => {
    writeW(f, `${SERVER}"http://logs.example:8080/mcp"\n`);
    const d = finding('codewhale.mcp.url-https');
    assert.ok(d);
    assert.equal(d.fix, undefined);
  });

  it('each fix edits only its own part of a URL with several problems', () => {
    writeW(f, `${SERVER}"http://u:p@logs.example/mcp?q"\n`);
    const newTexts = ['codewhale.mcp.url-https', 'codewhale.mcp.url-credentials', 'codewhale.mcp.url-query'].map(
      (code) => finding(code)?.fix?.edits[0]?.newText,
    );
    assert.deepEqual(newTexts, [
      '"https://u:p@logs.example/mcp?q"',
      '"http://logs.example/mcp?q"',
      '"http://u:p@logs.example/mcp"',
    ]);
  });

  it('writes a DEL in the URL as an escape TOML accepts', () => {
    writeW(f, `${SERVER}"https://logs.example/a\\u007Fb?x"\n`);
    assert.deepEqual(fixAndRevalidate('codewhale.mcp.url-query'), []);
    assert.ok(fs.readFileSync(f.path(TOML), 'utf8').includes('\nurl = "https://logs.example/a\\u007fb"\n'));
  });
});
