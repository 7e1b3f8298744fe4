import { strict as assert } from 'node:assert';
import { contractDiagnostic, itemsById } from '../../src/core/report/contract';
import { Indexer } from '../../src/core/index/indexer';
import { Fixture, writeW } from './helpers/fixture';

/**
 * A report finds each diagnostic's workspace through the item it names (contract.ts):
 * the lookup holds exactly the items the diagnostics name, and a user item's finding
 * stays a user finding even when its file lies inside a workspace folder.
 */
describe('the items a report looks its diagnostics up in', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('holds the items the diagnostics name, and only those', () => {
    // The workspace is the home directory: the user bundle's file lies inside the folder.
    f.write('home/.codewhale/plugins/bad/plugin.toml', 'schema_version = 1\n[plugin]\nname = "Bad Name"\n');
    // A bundle in both roots is named by its duplicate-root warning (codewhale.md §2.6); its skill is named by none.
    writeW(f, '', 'home/.codewhale/plugins/good');
    const snapshot = new Indexer({
      workspaces: [f.path('home')],
      codewhaleHome: f.path('home/.codewhale'),
    }).indexAll();
    const named = new Set(snapshot.diagnostics.flatMap((d) => (d.itemId === null ? [] : [d.itemId])));
    assert.ok(named.size > 0 && snapshot.items.length > named.size);
    const byId = itemsById(snapshot);
    assert.deepEqual([...byId.keys()].sort(), [...named].sort());
    for (const [id, item] of byId) assert.equal(item.id, id);
    const finding = snapshot.diagnostics.find((d) => d.itemId !== null && byId.get(d.itemId)?.scope === 'user');
    assert.ok(finding, 'a finding of a user bundle');
    assert.equal(contractDiagnostic(finding, snapshot.workspaces, byId).workspace, null);
    assert.equal(itemsById(snapshot, []).size, 0);
  });
});
