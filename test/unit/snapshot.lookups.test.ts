import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { Indexer } from '../../src/core/index/indexer';
import { childrenOf, diagnosticsOf, itemById, lookupsInSteps, type Snapshot } from '../../src/core/index/snapshot';
import { Fixture, LINUX_HOST } from './helpers/fixture';

/** The snapshot's lookups (built once per snapshot) answer what scans of the whole snapshot answer. */
describe('the snapshot lookups (the tree asks them for every row)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  const indexed = (): Snapshot =>
    new Indexer({
      workspaces: [path.resolve(__dirname, '../fixtures/integration-workspace')],
      codewhaleHome: f.path('home'),
      host: LINUX_HOST,
    }).indexAll();

  /** Every lookup of the snapshot, against what scans of it answer. */
  const assertLookupsMatchScans = (s: Snapshot) => {
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
  };

  it('finds each item, its parts and its diagnostics as the scans do, in snapshot order', () => {
    const s = indexed();
    assert.ok(s.items.some((i) => i.parent !== null) && s.diagnostics.some((d) => d.itemId !== null));
    const parent = s.items.find((i) => i.parent === null && s.items.some((c) => c.parent === i.id))!;
    assert.equal(childrenOf(s, parent.id), childrenOf(s, parent.id), 'built once per snapshot');
    assertLookupsMatchScans(s);
    assert.equal(itemById(s, 'no such item'), undefined);
  });

  it('builds them a few entries per step (an editor spreads them over event-loop turns), to the same lookups', () => {
    const s = indexed();
    const entries = s.items.length + s.diagnostics.length;
    const building = lookupsInSteps(s);
    let steps = 1;
    while (!building.step(3)) steps++;
    assert.equal(steps, Math.ceil(entries / 3));
    assertLookupsMatchScans(s);
    assert.equal(building.step(3), true, 'done stays done');
    assert.equal(lookupsInSteps(s).step(1), true, 'a snapshot whose lookups are built needs no step');
  });

  it('finishes the steps at once when a lookup is asked for before they are done', () => {
    const s = indexed();
    const building = lookupsInSteps(s);
    assert.equal(building.step(2), false);
    assert.equal(lookupsInSteps(s), building, 'one builder per snapshot');
    assertLookupsMatchScans(s);
    assert.equal(building.step(2), true, 'the lookup finished them');
  });
});
