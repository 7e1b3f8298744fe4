import { strict as assert } from 'node:assert';
import { loadWithVscode, vscodeStandIn } from './helpers/vscodeStandIn';
import { itemOf, snapshotOf } from './helpers/item';
import type { Item } from '../../src/core/model';
import type { Snapshot } from '../../src/core/index/snapshot';

type Status = typeof import('../../src/extension/statusBar/statusBar');

const snapshot = (items: Item[]): Snapshot => snapshotOf(items);
const active = itemOf({ decision: 'registered', reasons: ['active'], trust: 'trusted', enabled: true });
const unreviewed = itemOf();
const rejected = itemOf({ decision: 'rejected', reasons: ['manifest_invalid'] });

/**
 * The status bar item (statusBar.ts) on the vscode stand-in: what VS Code is asked to show,
 * read aloud and run on a click, for each state of the workspace. Its words are statusText.ts's.
 */
describe('the status bar item: what it shows, says and runs', () => {
  const { StatusBar } = loadWithVscode(() => require('../../src/extension/statusBar/statusBar') as Status);
  const window = vscodeStandIn.api.window as unknown as Record<string, unknown>;
  const standInItem = window.createStatusBarItem as (...args: unknown[]) => Record<string, unknown>;
  let created: unknown[][];
  let disposed: number;

  beforeEach(() => {
    created = [];
    disposed = 0;
    window.createStatusBarItem = (...args: unknown[]) => {
      created.push(args);
      return Object.assign(standInItem(), { dispose: () => void disposed++ });
    };
  });
  after(() => {
    window.createStatusBarItem = standInItem;
  });

  const barWith = (...items: Item[]) => {
    const bar = new StatusBar();
    bar.update(snapshot(items));
    return { bar, item: (bar as unknown as { item: Record<string, unknown> }).item };
  };

  it('is one item of its own, on the left, named Skillgate in the status bar menu', () => {
    const { item } = barWith(active);
    assert.deepEqual(created, [['skillgate.status', vscodeStandIn.api.StatusBarAlignment.Left, 50]]);
    assert.equal(item.name, 'Skillgate');
  });

  it('on a click, shows the bundles of the worst state; reads its counts aloud, without the click hint', () => {
    const { item } = barWith(active, unreviewed);
    assert.equal(item.visible, true);
    assert.equal(item.text, '$(shield) 1 $(eye) 1 $(error) 0');
    assert.deepEqual(item.command, {
      command: 'skillgate.showFiltered',
      title: 'Show in Skillgate',
      arguments: ['needsReview'],
    });
    assert.deepEqual(item.accessibilityInformation, { label: 'Skillgate, 1 active, 1 needs review, 0 rejected' });
  });

  it('is coloured by the worst state: rejected as an error, needing review as a warning, all well plain', () => {
    const colour = (...items: Item[]) => barWith(...items).item.backgroundColor;
    assert.equal((colour(active, unreviewed, rejected) as { id: string }).id, 'statusBarItem.errorBackground');
    assert.equal((colour(active, unreviewed) as { id: string }).id, 'statusBarItem.warningBackground');
    assert.equal(colour(active), undefined, 'the default background');
  });

  it('hides when the workspace has no bundle, and shows again when one appears', () => {
    const { bar, item } = barWith();
    assert.equal(item.visible, false);
    bar.update(snapshot([active]));
    assert.equal(item.visible, true);
  });

  it('reads a failure aloud as its first two paragraphs, without the click hint', () => {
    const { bar, item } = barWith(active);
    bar.update(snapshot([]), 'EACCES');
    assert.deepEqual(item.accessibilityInformation, {
      label: 'Skillgate could not index this workspace, so it cannot tell what the agents would load. EACCES',
    });
  });

  it('goes away with the extension', () => {
    barWith(active).bar.dispose();
    assert.equal(disposed, 1);
  });
});
