import { strict as assert } from 'node:assert';
import { review } from '../../src/core/trust/reviewBundle';
import { reviewText } from '../../src/core/review/reviewText';
import { childrenOf } from '../../src/core/index/snapshot';
import type { Item } from '../../src/core/model';
import { writeD } from './helpers/fixture';
import { trustWorkspace } from './helpers/trustWorkspace';

/**
 * `skillgate review` of a Codewhale bundle as cli.md and codewhale.md §9.1 state it: MCP
 * entries sorted by server name as Codewhale sorts them (Rust compares the UTF-8 bytes),
 * and Codewhale's own `/plugin trust <name> <token>` line only where Codewhale can act on it.
 */
describe("the text review of a Codewhale bundle, in Codewhale's order and with its own command", () => {
  const w = trustWorkspace();

  const reviewed = (item: Item, workspaces: string[]) => {
    const r = review(item, w.ctx);
    assert.ok(r.ok, r.ok ? '' : r.message);
    return { report: r.value, text: reviewText(r.value, workspaces, false, false, item) };
  };

  it("lists MCP servers in byte order of their names, the order of the bundle's server items", () => {
    // U+FF21 (EF BC A1) sorts before U+1F600 (F0 9F 98 80) by bytes, after it by UTF-16 code units.
    w.f.write(
      'ws/.codewhale/plugins/p/plugin.toml',
      'schema_version = 1\n[plugin]\nname = "p"\nversion = "1.0.0"\n[mcp_servers."\\U0001F600"]\ncommand = "b"\n[mcp_servers."\\uFF21"]\ncommand = "a"\n',
    );
    const s = w.snapshot();
    const bundle = s.items.find((i) => i.name === 'p' && i.parent === null) as Item;
    const { text } = reviewed(bundle, [w.f.path('ws')]);
    const shown = [...text.matchAll(/^ {2}MCP (\S+): /gmu)].map((m) => m[1]);
    assert.deepEqual(shown, ['\uFF21', '\u{1F600}'], text);
    assert.deepEqual(
      childrenOf(s, bundle.id).map((c) => c.name),
      shown,
      'the review and the list agree on the order',
    );
  });

  it('gives no `/plugin trust` line for a bundle Codewhale drops as shadowed: its name selects the winner', () => {
    writeD(w.f, '', 'home/plugins/demo');
    writeD(w.f, '', 'ws/.codewhale/plugins/demo');
    const s = w.snapshot({ codewhaleHome: w.f.path('home') });
    const of = (scope: Item['scope']) => s.items.find((i) => i.name === 'demo' && i.scope === scope) as Item;
    const loser = reviewed(of('workspace'), [w.f.path('ws')]);
    assert.equal(of('workspace').decision, 'shadowed');
    assert.equal(loser.report.codewhaleTrustLine, null);
    assert.doesNotMatch(loser.text, /\/plugin trust/);
    // Skillgate's own command names the bundle by id, so it still applies.
    assert.match(loser.text, /^To trust exactly this: skillgate trust workspace\/[0-9a-f]{12}\/demo /m);
    const winner = reviewed(of('user'), [w.f.path('ws')]);
    assert.equal(winner.report.codewhaleTrustLine, `/plugin trust demo ${of('user').reviewToken}`);
  });
});
