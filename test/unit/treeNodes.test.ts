import { strict as assert } from 'node:assert';
import { Indexer } from '../../src/core/index/indexer';
import { childNodes, type TreeNode } from '../../src/extension/tree/treeNodes';
import { Fixture, writeW, writeD, LINUX_HOST } from './helpers/fixture';
import { writeEvaProject } from './helpers/evaFixture';

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

describe('the Skillgate tree: a workspace folder opened through a symbolic link', () => {
  let f: Fixture;
  beforeEach(() => (f = new Fixture()));
  afterEach(() => f.remove());

  // VS Code passes a folder's `uri.fsPath` as opened, link and all: Eva-CLI's items once carried the
  // canonical path, matched no folder node, and the view showed none of the adapters Eva registers.
  it("places every agent's items, Eva-CLI's too, under the folder node as given", () => {
    writeEvaProject(f, 'repo');
    writeW(f, '', 'repo/.codewhale/plugins/example-plugin');
    const link = f.symlink(f.path('repo'), 'link');
    const s = new Indexer({ workspaces: [link], codewhaleHome: null, evaHome: null, host: LINUX_HOST }).indexAll();
    assert.deepEqual(
      childNodes(s).map((n) => n.id),
      [`folder:${link}`],
    );
    const shown = allNodes(s).flatMap((n) => (n.kind === 'item' ? [n.item.id] : []));
    const eva = s.items.filter((i) => i.system === 'eva').map((i) => i.id);
    assert.ok(eva.length >= 2);
    assert.deepEqual(
      eva.filter((id) => !shown.includes(id)),
      [],
      'every Eva item is in the tree',
    );
    assert.deepEqual(
      s.items.filter((i) => !shown.includes(i.id)).map((i) => i.id),
      [],
      'and every other item',
    );
  });
});
