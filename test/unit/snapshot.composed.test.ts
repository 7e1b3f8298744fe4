import { strict as assert } from 'node:assert';
import { composedSnapshot, listingsOf, type Snapshot } from '../../src/core/index/snapshot';
import { leavesOf, type Listing } from '../../src/core/listing';
import type { Diagnostic, Item } from '../../src/core/model';
import { itemOf } from './helpers/item';

/**
 * A composed snapshot keeps the agents' listings and builds its flat lists on first read
 * (a fresh list of every item is most of a re-index at 10,000 bundles); read, compared,
 * spread or serialized, it is the plain snapshot of the same entries.
 */
describe('a snapshot composed of listings', () => {
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((id) => itemOf({ id })) as [Item, Item, Item, Item];
  const diagnostic = { itemId: 'a', message: 'm' } as unknown as Diagnostic;
  const head = { generation: 3, workspaces: ['/w'], trustProblem: null };
  const listing: Listing<Item> = { parts: [[a, b], { parts: [[], [c]] }, [d]] };
  const plain: Snapshot = {
    generation: 3,
    workspaces: ['/w'],
    items: [a, b, c, d],
    diagnostics: [diagnostic],
    trustProblem: null,
  };

  it('lists every entry in the listing’s order, builds the list once, and equals the plain snapshot', () => {
    const s = composedSnapshot(head, listing, [diagnostic]);
    assert.deepEqual(s.items, [a, b, c, d]);
    assert.equal(s.items, s.items);
    assert.deepStrictEqual(s, plain);
    assert.deepStrictEqual({ ...s }, plain);
    assert.equal(JSON.stringify(s), JSON.stringify(plain));
    assert.deepEqual(Object.keys(s), Object.keys(plain));
  });

  it('hands a plain list on as it is, and gives its listings to a reader that goes list by list', () => {
    const list = [a, b];
    const s = composedSnapshot(head, list, []);
    assert.equal(s.items, list);
    assert.equal(listingsOf(s).items, list);
    const composed = composedSnapshot(head, listing, []);
    assert.deepEqual(leavesOf(listingsOf(composed).items), [[a, b], [], [c], [d]]);
    // A snapshot built otherwise is its own single list.
    assert.equal(listingsOf(plain).items, plain.items);
  });
});
