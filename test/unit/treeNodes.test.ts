import { strict as assert } from 'node:assert';
import { Indexer } from '../../src/core/index/indexer';
import { childNodes, type TreeNode } from '../../src/extension/treeNodes';
import { Fixture, writeW, writeD, LINUX_HOST } from './helpers/fixture';

/** Every node of the tree, depth first. */
function allNodes(s: Parameters<typeof childNodes>[0]): TreeNode[] {
  const out: TreeNode[] = [];
  const visit = (node?: TreeNode) => {
    for (const child of childNodes(s, node)) {
      out.push(child);
      visit(child);
    }
  };
  visit();
  return out;
}

describe('the Skillgate tree: node ids (VS Code refuses a tree with two nodes of one id)', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  it('never gives a system node the id of a folder named after the system inside another folder', () => {
    writeW(f, '', 'x/.codewhale/plugins/example-plugin');
    f.write('x/.rivumi/skills/review.md', '---\nname: reviewer\n---\nReview.\n');
    writeD(f, '', 'x/codewhale/.codewhale/plugins/demo');
    f.write('x/rivumi/.rivumi/skills/review.md', '---\nname: reviewer\n---\nReview.\n');
    writeD(f);
    const s = new Indexer({
      workspaces: [f.path('x'), f.path('x/codewhale'), f.path('x/rivumi')],
      codewhaleHome: f.path('home'),
      host: LINUX_HOST,
    }).indexAll();
    const ids = allNodes(s).map((n) => n.id);
    assert.equal(new Set(ids).size, ids.length, `unique: ${ids.join(', ')}`);
    assert.ok(ids.length >= 12);
  });
});
