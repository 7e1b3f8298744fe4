import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { Indexer } from '../../src/core/index/indexer';
import { childrenOf, itemById } from '../../src/core/index/snapshot';
import { snapshotIndex } from '../../src/extension/snapshotIndex';
import { Fixture, LINUX_HOST } from './helpers/fixture';

/** The tree's per-snapshot lookups answer what the scans of the whole snapshot answered. */
describe('the snapshot index (the tree asks it for every row)', () => {
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
    const index = snapshotIndex(s);
    assert.equal(snapshotIndex(s), index, 'built once per snapshot');
    for (const item of s.items) {
      assert.equal(index.byId.get(item.id), itemById(s, item.id));
      assert.deepEqual(index.children.get(item.id) ?? [], childrenOf(s, item.id));
      assert.deepEqual(
        index.diagnostics.get(item.id) ?? [],
        s.diagnostics.filter((d) => d.itemId === item.id),
      );
    }
    assert.equal(index.byId.get('no such item'), undefined);
  });
});
