import { strict as assert } from 'node:assert';
import { loadWithVscode, vscodeStandIn } from './helpers/vscodeStandIn';
import { itemOf } from './helpers/item';
import { driftMessage } from '../../src/extension/flows/driftNotice';
import type { Item } from '../../src/core/model';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { ReviewPanels } from '../../src/extension/review/reviewPanel';

type NotifyDrift = typeof import('../../src/extension/review/notifyDrift');

const drifted = (name: string, trust: Item['trust'] = 'content-changed'): Item =>
  itemOf({ id: `workspace/abc/${name}`, name, qualifiedName: name, path: `/ws/.codewhale/plugins/${name}`, trust });
/** The snapshot the drifted bundles are of (one workspace folder unless told). */
const snap = (items: Item[], workspaces: readonly string[] = ['/ws']): Snapshot => ({
  generation: 1,
  workspaces,
  items,
  diagnostics: [],
  trustProblem: null,
});

/**
 * The notification when trusted bundles change on disk. VS Code's notification guidelines
 * (code.visualstudio.com/api/ux-guidelines/notifications): "If you need to show multiple
 * notifications try to combine them into one", and "Don't: Send repeated notifications". A
 * checkout that changes five trusted bundles is one snapshot and gets one notification;
 * before, it got five, each waiting for the previous one to be dismissed.
 */
describe('the drift notification: one per snapshot, whatever the number of bundles', () => {
  const { notifyDrift } = loadWithVscode(() => require('../../src/extension/review/notifyDrift') as NotifyDrift);
  const window = vscodeStandIn.api.window as unknown as Record<string, unknown>;
  let warnings: { message: string; actions: unknown[] }[];
  let picks: { labels: string[]; descriptions: string[]; title: string | undefined }[];
  let opened: string[];
  let answer: string | undefined;
  let picked: number | undefined;
  const panels = { open: (i: Item) => void opened.push(i.id) } as unknown as ReviewPanels;

  beforeEach(() => {
    vscodeStandIn.reset();
    warnings = [];
    picks = [];
    opened = [];
    answer = 'Review changes';
    picked = undefined;
    window.showWarningMessage = async (message: string, ...actions: unknown[]) => (
      warnings.push({ message, actions }),
      answer
    );
    window.showQuickPick = async (items: { label: string; description: string }[], options?: { title?: string }) => (
      picks.push({
        labels: items.map((i) => i.label),
        descriptions: items.map((i) => i.description),
        title: options?.title,
      }),
      picked === undefined ? undefined : items[picked]
    );
  });
  after(() => {
    delete window.showWarningMessage;
    delete window.showQuickPick;
  });

  it('one bundle: says what changed and opens its review', async () => {
    const one = [drifted('repo-tools', 'capabilities-changed')];
    await notifyDrift(one, snap(one, []), panels);
    assert.deepEqual(warnings, [
      {
        message: 'Skillgate: repo-tools is no longer trusted: what it can do changed since your review.',
        actions: ['Review changes'],
      },
    ]);
    assert.deepEqual(picks, []);
    assert.deepEqual(opened, ['workspace/abc/repo-tools']);
  });

  it('several bundles at once: one notification naming them; Review changes asks which', async () => {
    const items = ['a', 'b', 'c', 'd', 'e'].map((n) => drifted(n, n === 'b' ? 'capabilities-changed' : undefined));
    picked = 1;
    await notifyDrift(items, snap(items), panels);
    assert.deepEqual(warnings, [
      {
        message:
          'Skillgate: 5 bundles are no longer trusted: a, b, c and 2 more changed since your review, 1 of them in what it can do.',
        actions: ['Review changes'],
      },
    ]);
    assert.deepEqual(
      picks.map((p) => ({ labels: p.labels, title: p.title })),
      [{ labels: ['a', 'b', 'c', 'd', 'e'], title: 'Skillgate: choose a bundle to review' }],
    );
    assert.deepEqual(opened, ['workspace/abc/b']);
  });

  it("Review changes asks in the tree row's words: no code, and a shadowed bundle names where the winner lives", async () => {
    const changed = { ...drifted('a'), workspace: '/ws/lib', reasons: ['content_changed'] } as Item;
    const winner = { ...drifted('b'), id: 'workspace/app/b', workspace: '/ws/app', trust: 'trusted' } as Item;
    const shadowed = {
      ...drifted('b'),
      workspace: '/ws/lib',
      decision: 'shadowed',
      reasons: ['name_conflict', 'content_changed'],
      shadowedBy: winner.id,
    } as Item;
    await notifyDrift([changed, shadowed], snap([winner, changed, shadowed], ['/ws/app', '/ws/lib']), panels);
    assert.deepEqual(picks[0]?.descriptions, [
      'Codewhale plugin · disabled · changed since review',
      'Codewhale plugin · shadowed by app',
    ]);
  });

  it('dismissed, or the pick escaped: nothing opens', async () => {
    answer = undefined;
    await notifyDrift([drifted('a'), drifted('b')], snap([drifted('a'), drifted('b')]), panels);
    answer = 'Review changes';
    await notifyDrift([drifted('a'), drifted('b')], snap([drifted('a'), drifted('b')]), panels);
    assert.equal(warnings.length, 2);
    assert.equal(picks.length, 1);
    assert.deepEqual(opened, []);
  });

  it('names two or three bundles in full, and says when all changed what they can do', () => {
    assert.equal(
      driftMessage([drifted('a'), drifted('b')]),
      'Skillgate: 2 bundles are no longer trusted: a and b changed since your review.',
    );
    assert.equal(
      driftMessage(['a', 'b', 'c'].map((n) => drifted(n, 'capabilities-changed'))),
      'Skillgate: 3 bundles are no longer trusted: a, b and c changed since your review, all of them in what they can do.',
    );
    assert.equal(
      driftMessage([drifted('a', 'capabilities-changed'), drifted('b', 'capabilities-changed'), drifted('c')]),
      'Skillgate: 3 bundles are no longer trusted: a, b and c changed since your review, 2 of them in what they can do.',
    );
  });

  it('no bundle drifted: no notification', async () => {
    await notifyDrift([], snap([]), panels);
    assert.deepEqual(warnings, []);
  });
});
