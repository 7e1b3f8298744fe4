import { strict as assert } from 'node:assert';
import { loadWithVscode } from './helpers/vscodeStandIn';
import { itemOf, snapshotOf } from './helpers/item';
import type { Item } from '../../src/core/model';
import type { Snapshot } from '../../src/core/index/snapshot';

type Tree = typeof import('../../src/extension/tree/itemTree');

/**
 * A node with more than 250 items shows them in ranges (treeNodes.ts `ROWS_PER_RANGE`), each
 * row saying where it stands: README "A node with more than 250 items (2,000 bundles under
 * one agent, say) shows them in ranges of 250, *first … last* with *1–250 of 2,000*". The
 * counts are written as the view's own "Indexing 1,234 / 2,000 bundles…" writes them
 * (extension.ts, `toLocaleString('en-US')`): "of 2000" beside "/ 2,000" read as two styles.
 */
describe('the tree: the counts of a large node', () => {
  const { ItemTreeProvider } = loadWithVscode(() => require('../../src/extension/tree/itemTree') as Tree);

  const bundles = (n: number): Item[] =>
    Array.from({ length: n }, (_, i) => {
      const name = `p${String(i).padStart(4, '0')}`;
      return itemOf({ id: `workspace/abc/${name}`, name, qualifiedName: name, path: `/ws/.codewhale/plugins/${name}` });
    });
  const snapshot = (items: Item[]): Snapshot => snapshotOf(items);

  it('names its first and last item and says "1–250 of 2,000", for the eye and the screen reader', async () => {
    const tree = new ItemTreeProvider();
    await tree.update(snapshot(bundles(2000)));
    const [folder] = tree.getChildren();
    assert.ok(folder);
    const [system] = tree.getChildren(folder);
    assert.ok(system);
    const ranges = tree.getChildren(system);
    assert.equal(ranges.length, 8);
    const [first, last] = [ranges[0], ranges[7]].map((n) => tree.getTreeItem(n as (typeof ranges)[number]));
    assert.equal(first?.label, 'p0000 … p0249');
    assert.equal(first?.description, '1–250 of 2,000');
    assert.equal(first?.accessibilityInformation?.label, '1 to 250 of 2,000: p0000 to p0249');
    assert.equal(last?.label, 'p1750 … p1999');
    assert.equal(last?.description, '1,751–2,000 of 2,000');
  });

  it('counts a decision group the same way: "Needs review 2,000", its ranges "1–250 of 2,000"', async () => {
    const tree = new ItemTreeProvider();
    await tree.update(snapshot(bundles(2000)));
    tree.setMode({ filter: 'all', groupByDecision: true });
    const [group] = tree.getChildren();
    assert.ok(group);
    assert.equal(tree.getTreeItem(group).label, 'Needs review');
    assert.equal(tree.getTreeItem(group).description, '2,000');
    assert.equal(tree.getTreeItem(group).accessibilityInformation?.label, 'Needs review: 2,000 bundles');
    const [range] = tree.getChildren(group);
    assert.equal(range && tree.getTreeItem(range).description, '1–250 of 2,000');
  });
});
