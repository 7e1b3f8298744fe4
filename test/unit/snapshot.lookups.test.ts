import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { Indexer } from '../../src/core/index/indexer';
import { childrenOf, diagnosticsOf, itemById } from '../../src/core/index/snapshot';
import { Fixture, LINUX_HOST } from './helpers/fixture';

/** The snapshot's lookups (built once per snapshot) answer what scans of the whole snapshot answer. */
describe('the snapshot lookups (the tree asks them for every row)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('finds each item, its parts and its diagnostics as the scans do, in snapshot order', () => {
    const s = new Indexer({
      workspaces: [path.resolve(__dirname, '../fixtures/integration-workspace')],
      codewhaleHome: f.path('home'),
      host: LINUX_HOST,
    }).indexAll();
    assert.ok(s.items.some((i) => i.parent !== null) && s.diagnostics.some((d) => d.itemId !== null));
    const parent = s.items.find((i) => i.parent === null && s.items.some((c) => c.parent === i.id))!;
    assert.equal(childrenOf(s, parent.id), childrenOf(s, parent.id), 'built once per snapshot');
    for (const item of s.items) {
      assert.equal(
        itemById(s, item.id),
        s.items.find((i) => i.id === item.id),
      );
      assert.deepEqual(
        childrenOf(s, item.id),
        s.items.filter((i) => i.parent === item.id),
      );
      assert.deepEqual(
        diagnosticsOf(s, item.id),
        s.diagnostics.filter((d) => d.itemId === item.id),
      );
    }
    assert.equal(itemById(s, 'no such item'), undefined);
  });
});
