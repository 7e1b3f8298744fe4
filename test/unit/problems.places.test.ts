import { strict as assert } from 'node:assert';
import { Fixture, index, top, writeD, writeW } from './helpers/fixture';

/** Issue 14 item 6: a diagnostic names what is wrong and sits at the field at fault. */
describe('diagnostics name the fault and point at the field', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it("keeps upstream's network_hosts message and names the missing and the extra hosts as related information", () => {
    writeW(
      f,
      '[capabilities]\nnetwork_hosts = ["old.example"]\n[mcp_servers.weather]\nurl = "https://API.Weather.example/mcp"\n',
    );
    const s = index([f.path('ws')]);
    const d = s.diagnostics.find((x) => x.code === 'codewhale.capabilities.network-hosts-mismatch');
    assert.ok(d);
    assert.equal(
      d.message,
      'capabilities.network_hosts must exactly match the normalized host set of all remote MCP endpoints',
    );
    const related = (d.related ?? []).map((r) => [r.range.start.line, r.message]);
    assert.deepEqual(related, [
      [9, 'Missing host `api.weather.example`: MCP server `weather` connects to it, so network_hosts must list it.'],
      [7, 'Extra host `old.example`: no remote MCP server connects to it, so network_hosts must not list it.'],
    ]);
  });

  it('puts the inactive-components warning on the inactive table, with a sentence per component', () => {
    f.write('ws/.codewhale/plugins/example-plugin/lsp/server.toml', '');
    writeW(f, '[lsp]\npath = "lsp"\n');
    const s = index([f.path('ws')]);
    const d = s.diagnostics.find((x) => x.code === 'codewhale.component-inactive');
    assert.ok(d, s.diagnostics.map((x) => x.code).join());
    assert.equal(d.message, 'compatibility partial; inactive components remain inventoried but are not activated: lsp');
    assert.deepEqual(d.range, { start: { line: 6, character: 1 }, end: { line: 6, character: 4 } });
    assert.match(d.related?.[0]?.message ?? '', /never starts them under policy v3/);
  });

  it("puts the name-conflict warning on the shadowed bundle's name and names the winner and where it lives", () => {
    writeD(f);
    writeD(f, '', 'ws/.codewhale/plugins/demo');
    const s = index([f.path('ws')], { codewhaleHome: f.path('home') });
    const [user] = top(s);
    const d = s.diagnostics.find((x) => x.code === 'codewhale.name-conflict');
    assert.ok(d && user);
    assert.equal(d.range.start.line, 2);
    assert.equal(
      d.related?.[0]?.message,
      `The user bundle \`demo\` in ${f.path('home/plugins/demo')} wins: Codewhale loads it instead of this one. Rename this bundle to load both.`,
    );
  });
});
