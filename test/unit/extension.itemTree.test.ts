import { strict as assert } from 'node:assert';
import { loadWithVscode } from './helpers/vscodeStandIn';
import { itemOf, snapshotOf } from './helpers/item';
import { TOOLTIP_COMMANDS } from '../../src/extension/tree/itemText';
import type { DecisionGroup } from '../../src/extension/tree/treeNodes';
import type { Diagnostic } from '../../src/core/model';
import type { Snapshot } from '../../src/core/index/snapshot';

type Tree = typeof import('../../src/extension/tree/itemTree');
type Provider = InstanceType<Tree['ItemTreeProvider']>;
type Node = Parameters<Provider['getTreeItem']>[0];

const snapshot = snapshotOf;
const bundle = itemOf({ workspace: '/ws', path: '/ws/.codewhale/plugins/demo' });
const userBundle = itemOf({ id: 'user/demo', scope: 'user', workspace: null, path: '/home/u/.codewhale/plugins/demo' });
/** What VS Code reads of a row: its words, icon, collapsible state and what it runs, without the stand-in's classes. */
const plain = (t: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(t)) as Record<string, unknown>;

/**
 * The tree's data provider (itemTree.ts) on the vscode stand-in: the rows VS Code is handed
 * for each kind of node, what a row runs and shows on hover, and when the workbench is told
 * the tree changed. The rows' words are treeRow.ts's and itemText.ts's.
 */
describe('the tree provider: rows, tooltips and change events', () => {
  const { ItemTreeProvider } = loadWithVscode(() => require('../../src/extension/tree/itemTree') as Tree);

  const treeOf = async (s: Snapshot) => {
    const tree = new ItemTreeProvider();
    await tree.update(s);
    return tree;
  };

  it('is empty before the first snapshot', () => {
    assert.deepEqual(new ItemTreeProvider().getChildren(), []);
  });

  it('tells the workbench once a snapshot’s rows are ready, and never for one a newer snapshot replaced', async () => {
    const one = new ItemTreeProvider();
    let toldOnce = 0;
    one.onDidChangeTreeData(() => void toldOnce++);
    await one.update(snapshot([bundle]));
    assert.equal(toldOnce, 1, 'a snapshot alone');
    for (const replaced of [snapshot([]), snapshot([bundle])]) {
      const tree = new ItemTreeProvider();
      let told = 0;
      tree.onDidChangeTreeData(() => void told++);
      const newer = snapshot([userBundle]);
      await Promise.all([tree.update(replaced), tree.update(newer)]);
      assert.equal(told, 1, `replaced by a newer one: ${replaced.items.length} item(s)`);
      assert.deepEqual(
        tree.getChildren().map((n) => n.id),
        ['folder:user'],
      );
    }
  });

  it('is not told of a snapshot replaced while its rows were being computed', async () => {
    const tree = new ItemTreeProvider();
    let told = 0;
    tree.onDidChangeTreeData(() => void told++);
    // 1,000 top-level rows take ten turns (100 a turn); the newer snapshot comes after the third.
    const many = Array.from({ length: 1000 }, (_, i) => itemOf({ id: `workspace/abc/p${i}`, name: `p${i}` }));
    const replaced = tree.update(snapshot(many));
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
    await Promise.all([replaced, tree.update(snapshot([userBundle]))]);
    assert.equal(told, 1);
  });

  it('shows a workspace folder and the user bundles as open folder rows, each read as what it is', async () => {
    const tree = await treeOf(snapshot([bundle, userBundle]));
    assert.deepEqual(
      tree.getChildren().map((n) => plain(tree.getTreeItem(n))),
      [
        {
          label: 'ws',
          collapsibleState: 2,
          id: 'folder:/ws',
          iconPath: { id: 'root-folder' },
          contextValue: 'skillgate.folder',
          accessibilityInformation: { label: 'ws, workspace folder' },
        },
        {
          label: 'User bundles',
          collapsibleState: 2,
          id: 'folder:user',
          iconPath: { id: 'account' },
          contextValue: 'skillgate.folder',
          accessibilityInformation: { label: 'User bundles' },
        },
      ],
    );
  });

  it('shows an agent as an open row with its icon, read as a coding agent', async () => {
    const tree = await treeOf(snapshot([bundle]));
    const [folder] = tree.getChildren();
    const [system] = tree.getChildren(folder);
    assert.ok(system);
    assert.deepEqual(plain(tree.getTreeItem(system)), {
      label: 'Codewhale',
      collapsibleState: 2,
      id: system.id,
      iconPath: { id: 'extensions' },
      contextValue: 'skillgate.system',
      accessibilityInformation: { label: 'Codewhale, coding agent' },
    });
  });

  it('shows each decision group with its own icon and colour, one bundle read as "1 bundle"', () => {
    const tree = new ItemTreeProvider();
    const groups: DecisionGroup[] = [
      'rejected',
      'loadedUnreviewed',
      'needsReview',
      'disabled',
      'active',
      'displayOnly',
      'shadowed',
    ];
    const rows = groups.map((group) => tree.getTreeItem({ kind: 'group', id: `group:${group}`, group, count: 1 }));
    assert.deepEqual(
      rows.map((t) => {
        const icon = t.iconPath as { id: string; color: { id: string } };
        return [icon.id, icon.color.id];
      }),
      [
        ['error', 'errorForeground'],
        ['warning', 'list.warningForeground'],
        ['eye', 'list.warningForeground'],
        ['circle-slash', 'list.warningForeground'],
        ['pass-filled', 'testing.iconPassed'],
        ['eye-closed', 'descriptionForeground'],
        ['layers', 'disabledForeground'],
      ],
    );
    assert.deepEqual(plain(rows[0]), {
      label: 'Rejected',
      collapsibleState: 2,
      id: 'group:rejected',
      description: '1',
      iconPath: { id: 'error', color: { id: 'errorForeground' } },
      contextValue: 'skillgate.group',
      accessibilityInformation: { label: 'Rejected: 1 bundle' },
    });
  });

  it('shows a range of a large node as a closed row with a list icon', () => {
    const items = [bundle, userBundle];
    const t = new ItemTreeProvider().getTreeItem({ kind: 'range', id: 'range:0', items, start: 0, total: 2 });
    assert.deepEqual([t.collapsibleState, (t.iconPath as { id: string }).id], [1, 'list-unordered']);
    assert.equal(t.contextValue, 'skillgate.range');
  });

  it('shows a part’s row when its bundle is opened, read aloud in the row’s words', async () => {
    const part = itemOf({ id: `${bundle.id}/skill`, name: 'skill', kind: 'skill', parent: bundle.id, trust: null });
    const tree = await treeOf(snapshot([{ ...bundle, decision: 'registered' }, part]));
    const t = tree.getTreeItem({ kind: 'item', id: part.id, item: part });
    assert.equal(t.label, 'skill');
    assert.equal(t.id, part.id);
    assert.match(String(t.accessibilityInformation?.label), /^skill, /);
  });

  it('a failure row: the reason in the error colour, Retry without a colour; a stale one has no children', async () => {
    const tree = new ItemTreeProvider();
    await tree.update(snapshot([]), 'EACCES');
    const [reason, retry] = tree.getChildren();
    assert.ok(reason && retry);
    const icon = (n: Node) => tree.getTreeItem(n).iconPath as { id: string; color?: { id: string } };
    assert.deepEqual(plain(icon(reason)), { id: 'error', color: { id: 'errorForeground' } });
    assert.deepEqual(plain(icon(retry)), { id: 'refresh' });
    await tree.update(snapshot([bundle]));
    assert.deepEqual(tree.getChildren(reason), [], 'the workbench asked for the row of a failure since recovered');
  });

  it('opens an item’s file (Open Manifest, given the item) on a click, and explains it on hover with its diagnostics, its winner and its folder', async () => {
    const range = { start: { line: 2, character: 4 }, end: { line: 2, character: 9 } };
    const shadowed = itemOf({
      decision: 'shadowed',
      reasons: ['name_conflict', 'not_reviewed'],
      shadowedBy: userBundle.id,
      location: { file: '/ws/.codewhale/plugins/demo/plugin.json', range },
    });
    const diagnostic: Diagnostic = {
      file: shadowed.location.file,
      range,
      severity: 'warning',
      code: 'codewhale.example',
      message: 'a warning of its own',
      itemId: shadowed.id,
    };
    const tree = await treeOf(
      snapshot([shadowed, userBundle], { workspaces: ['/ws', '/w2'], diagnostics: [diagnostic] }),
    );
    const node: Node = { kind: 'item', id: shadowed.id, item: shadowed };
    const t = tree.completeTreeItem(node);
    // Open Manifest with the item: the command looks at the file when it runs (a link opens as a note).
    assert.deepEqual(plain(t.command), { command: 'skillgate.openManifest', title: 'Open', arguments: [shadowed.id] });
    const tooltip = t.tooltip as unknown as Record<string, unknown>;
    assert.match(String(tooltip.value), /a warning of its own/);
    assert.match(String(tooltip.value), /\$\(arrow-right\) Codewhale takes the user plugin \*\*demo\*\*/);
    assert.match(String(tooltip.value), /\$\(file\) ws • /, 'the folder named among two');
    // Theme icons drawn; commands only the Problems link's; no HTML from bundle text.
    assert.deepEqual(
      [tooltip.supportThemeIcons, tooltip.isTrusted, tooltip.supportHtml],
      [true, { enabledCommands: [...TOOLTIP_COMMANDS] }, false],
    );
  });

  it('resolves nothing on a row that is not an item', async () => {
    const tree = await treeOf(snapshot([bundle]));
    const [folder] = tree.getChildren();
    assert.ok(folder);
    const t = tree.completeTreeItem(folder);
    assert.deepEqual([t.command, t.tooltip], [undefined, undefined]);
  });
});
