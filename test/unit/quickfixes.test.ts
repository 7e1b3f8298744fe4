import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { Fixture, index, writeW } from './helpers/fixture';
import type { Diagnostic } from '../../src/core/model';

/** Applies a diagnostic's fix to the files on disk, as the editor's quick fix does. */
function applyFix(d: Diagnostic): void {
  assert.ok(d.fix, `${d.code} has a fix`);
  for (const e of d.fix.edits) {
    const lines = fs.readFileSync(e.file, 'utf8').split('\n');
    const offset = (p: { line: number; character: number }) =>
      lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
    const text = lines.join('\n');
    fs.writeFileSync(e.file, text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end)));
  }
}

describe('quick fixes computed by the core', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const fixAndRevalidate = (code: string) => {
    const before = index([f.path('ws')]);
    const d = before.diagnostics.find((x) => x.code === code);
    assert.ok(d, `${code} in ${before.diagnostics.map((x) => x.code).join(', ')}`);
    applyFix(d);
    return index([f.path('ws')]);
  };

  it('replaces a literal stdio env value with a ${NAME} reference', () => {
    writeW(f, '[mcp_servers.local]\ncommand = "node"\nenv = { TOKEN = "literal-secret" }\n');
    const after = fixAndRevalidate('codewhale.mcp.env-value');
    assert.deepEqual(after.diagnostics, []);
    assert.match(
      fs.readFileSync(f.path('ws/.codewhale/plugins/example-plugin/plugin.toml'), 'utf8'),
      /env = \{ TOKEN = "\$\{TOKEN\}" \}/,
    );
  });

  it('sets network_hosts to the computed host set', () => {
    writeW(
      f,
      '[capabilities]\nnetwork_hosts = ["other.invalid", "more.invalid"]\n[mcp_servers.remote]\nurl = "https://Example.Invalid/mcp"\n',
    );
    const after = fixAndRevalidate('codewhale.capabilities.network-hosts-mismatch');
    assert.deepEqual(after.diagnostics, []);
    assert.match(
      fs.readFileSync(f.path('ws/.codewhale/plugins/example-plugin/plugin.toml'), 'utf8'),
      /network_hosts = \["example\.invalid"\]/,
    );
  });

  it('adds network_hosts to an existing [capabilities] table that lacks it', () => {
    writeW(
      f,
      '[capabilities]\nlifecycle_mutation = false\n[mcp_servers.weather]\nurl = "https://api.weather.example/mcp"\n',
    );
    const after = fixAndRevalidate('codewhale.capabilities.network-hosts-mismatch');
    assert.deepEqual(after.diagnostics, []);
    assert.match(
      fs.readFileSync(f.path('ws/.codewhale/plugins/example-plugin/plugin.toml'), 'utf8'),
      /\[capabilities\]\nnetwork_hosts = \["api\.weather\.example"\]\nlifecycle_mutation = false\n/,
    );
  });

  it('adds a [capabilities] table with network_hosts when plugin.toml has none', () => {
    writeW(f, '[mcp_servers.weather]\nurl = "https://api.weather.example/mcp"\n');
    const after = fixAndRevalidate('codewhale.capabilities.network-hosts-mismatch');
    assert.deepEqual(after.diagnostics, []);
    assert.match(
      fs.readFileSync(f.path('ws/.codewhale/plugins/example-plugin/plugin.toml'), 'utf8'),
      /\n\n\[capabilities\]\nnetwork_hosts = \["api\.weather\.example"\]\n$/,
    );
  });

  it('adds extensions["net.codewhale"].capabilities.network_hosts to a plugin.json whose mcp.json connects to a host', () => {
    const dir = 'ws/.codewhale/plugins/weather';
    f.write(
      `${dir}/plugin.json`,
      JSON.stringify(
        { $schema: 'https://agent-plugins.org/schemas/plugin.json', name: 'weather', version: '1.0.0' },
        null,
        2,
      ) + '\n',
    );
    f.write(
      `${dir}/mcp.json`,
      JSON.stringify({ mcpServers: { weather: { url: 'https://api.weather.example/mcp' } } }, null, 2) + '\n',
    );
    const after = fixAndRevalidate('codewhale.capabilities.network-hosts-mismatch');
    assert.deepEqual(after.diagnostics, []);
    assert.deepEqual(JSON.parse(fs.readFileSync(f.path(`${dir}/plugin.json`), 'utf8')).extensions, {
      'net.codewhale': { capabilities: { network_hosts: ['api.weather.example'] } },
    });
  });

  it('adds schema_version = 1 to a legacy manifest, with a blank line before [plugin]', () => {
    f.write('ws/.codewhale/plugins/legacy/plugin.toml', '[plugin]\nname = "legacy"\nversion = "1.0.0"\n');
    const after = fixAndRevalidate('codewhale.manifest-legacy');
    assert.deepEqual(after.diagnostics, []);
    assert.equal(
      fs.readFileSync(f.path('ws/.codewhale/plugins/legacy/plugin.toml'), 'utf8'),
      'schema_version = 1\n\n[plugin]\nname = "legacy"\nversion = "1.0.0"\n',
    );
  });

  it('offers no schema_version fix to a legacy manifest without a version (schema 1 refuses a blank version)', () => {
    // codewhale.md §4.3/§4.4 step 3: the legacy manifest loads with version 0.0.0, while
    // `schema_version = 1` with no version fails; the version to write is the author's choice.
    for (const text of [
      '[plugin]\nname = "legacy"\n',
      'schema_version = 0\n[plugin]\nname = "legacy"\nversion = " "\n',
    ]) {
      f.write('ws/.codewhale/plugins/legacy/plugin.toml', text);
      const legacy = index([f.path('ws')]).diagnostics.filter((x) => x.code === 'codewhale.manifest-legacy');
      assert.equal(legacy.length, 2, text);
      assert.deepEqual(
        legacy.map((x) => x.fix),
        [undefined, undefined],
        text,
      );
    }
  });

  it('sets a schema_version newer than 1 to 1, the only one this Codewhale knows', () => {
    f.write(
      'ws/.codewhale/plugins/next/plugin.toml',
      'schema_version = 2\n[plugin]\nname = "next"\nversion = "1.0.0"\n',
    );
    assert.deepEqual(fixAndRevalidate('codewhale.manifest.schema-version').diagnostics, []);
    assert.equal(
      fs.readFileSync(f.path('ws/.codewhale/plugins/next/plugin.toml'), 'utf8'),
      'schema_version = 1\n[plugin]\nname = "next"\nversion = "1.0.0"\n',
    );
  });

  it('removes a repeated TOML list value without the comment after the value before it', () => {
    const file = f.write(
      'ws/.codewhale/plugins/example-plugin/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "example-plugin"\nversion = "1.2.3"\nkeywords = ["a", # the first\n  "A", # again\n  "c"]\n',
    );
    assert.deepEqual(fixAndRevalidate('codewhale.manifest.list').diagnostics, []);
    assert.equal(
      fs.readFileSync(file, 'utf8'),
      'schema_version = 1\n[plugin]\nname = "example-plugin"\nversion = "1.2.3"\nkeywords = ["a", # the first\n  # again\n  "c"]\n',
    );
    // The repeat last: the comma before it goes on its own (a comma inside the comment is not it).
    fs.writeFileSync(
      file,
      'schema_version = 1\n[plugin]\nname = "example-plugin"\nversion = "1.2.3"\nkeywords = ["a", # first, really\n  "A"]\n',
    );
    assert.deepEqual(fixAndRevalidate('codewhale.manifest.list').diagnostics, []);
    assert.equal(
      fs.readFileSync(file, 'utf8'),
      'schema_version = 1\n[plugin]\nname = "example-plugin"\nversion = "1.2.3"\nkeywords = ["a" # first, really\n  ]\n',
    );
  });

  it('removes a repeated list value with its comma, in TOML and in plugin.json', () => {
    f.write(
      'ws/.codewhale/plugins/example-plugin/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "example-plugin"\nversion = "1.2.3"\nkeywords = ["a", "b",\n  "A", "c"]\n',
    );
    assert.deepEqual(fixAndRevalidate('codewhale.manifest.list').diagnostics, []);
    assert.match(
      fs.readFileSync(f.path('ws/.codewhale/plugins/example-plugin/plugin.toml'), 'utf8'),
      /keywords = \["a", "b", "c"\]\n/,
    );
    f.remove();
    f = new Fixture();
    f.write(
      'ws/.codewhale/plugins/b/plugin.json',
      JSON.stringify({ $schema: 's', name: 'b', version: '1.0.0', keywords: ['x', 'y', 'x'] }, null, 2),
    );
    assert.deepEqual(fixAndRevalidate('codewhale.manifest.list').diagnostics, []);
    assert.deepEqual(JSON.parse(fs.readFileSync(f.path('ws/.codewhale/plugins/b/plugin.json'), 'utf8')).keywords, [
      'x',
      'y',
    ]);
  });

  it('renames an invalid plugin name to its valid slug, in TOML and in plugin.json', () => {
    f.write(
      'ws/.codewhale/plugins/a/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "My_Tools"\nversion = "1.0.0"\n',
    );
    assert.deepEqual(fixAndRevalidate('codewhale.manifest.name').diagnostics, []);
    assert.match(fs.readFileSync(f.path('ws/.codewhale/plugins/a/plugin.toml'), 'utf8'), /name = "my-tools"/);
    f.write(
      'ws/.codewhale/plugins/b/plugin.json',
      JSON.stringify({ $schema: 's', name: 'Bad..Name', version: '1.0.0' }),
    );
    assert.deepEqual(fixAndRevalidate('codewhale.manifest.name').diagnostics, []);
    assert.equal(JSON.parse(fs.readFileSync(f.path('ws/.codewhale/plugins/b/plugin.json'), 'utf8')).name, 'bad-name');
  });
});
