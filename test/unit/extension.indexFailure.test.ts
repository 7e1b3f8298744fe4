import { strict as assert } from 'node:assert';
import { failureRows, failureStatus } from '../../src/extension/tree/indexFailureText';
import { COMMANDS } from '../../src/extension/commands/commandTable';
import type { Snapshot } from '../../src/core/index/snapshot';
import { itemOf } from './helpers/item';
import { loadWithVscode } from './helpers/vscodeStandIn';

type Tree = typeof import('../../src/extension/tree/itemTree');
type Status = typeof import('../../src/extension/statusBar/statusBar');

/** An error's message as hostile as a repository's file name makes it: controls, bidi, a link, an icon. */
const REASON = "EACCES: permission denied, open '/ws/.codewhale/\u001b[31m\u202e[x](command:evil)$(zap)'";

const none: Snapshot = { generation: 0, workspaces: ['/ws'], items: [], diagnostics: [], trustProblem: null };

/**
 * A first index that failed publishes an empty snapshot (skillgateService.ts): the view
 * and the status bar say that indexing failed, why, and how to retry, never that the
 * workspace has no agent configuration (indexFailureText.ts).
 */
describe('the view and the status bar when no index could be read', () => {
  const { ItemTreeProvider } = loadWithVscode(() => require('../../src/extension/tree/itemTree') as Tree);
  const { StatusBar } = loadWithVscode(() => require('../../src/extension/statusBar/statusBar') as Status);

  it('shows the reason, escaped, with rows that retry and open the log', async () => {
    const tree = new ItemTreeProvider();
    await tree.update(none, REASON);
    const rows = tree.getChildren().map((n) => tree.getTreeItem(n));
    assert.deepEqual(
      rows.map((t) => [t.label, t.command?.command]),
      [
        ['Indexing failed', undefined],
        ['Retry', 'skillgate.refresh'],
        ['Show Log', 'skillgate.showLog'],
      ],
    );
    const reason = rows[0];
    assert.ok(reason);
    assert.match(String(reason.description), /^EACCES: permission denied/);
    for (const text of [reason.description, reason.tooltip, reason.accessibilityInformation?.label].map(String)) {
      // Line breaks only where the tooltip puts them; no control or bidi character of the reason's own.
      assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f\u202e]/u);
      assert.match(text, /EACCES/);
    }
    assert.equal(tree.getChildren(tree.getChildren()[0]).length, 0);
  });

  it('shows the bundles again once an index succeeds', async () => {
    const tree = new ItemTreeProvider();
    await tree.update(none, REASON);
    const item = itemOf({ workspace: '/ws', path: '/ws/.codewhale/plugins/demo' });
    await tree.update({ ...none, items: [item] });
    assert.deepEqual(
      tree.getChildren().map((n) => n.kind),
      ['folder'],
    );
  });

  it('is an empty tree, for the welcome view, when the index found nothing', async () => {
    const tree = new ItemTreeProvider();
    await tree.update(none);
    assert.deepEqual(tree.getChildren(), []);
  });

  it('says in the status bar that nothing was indexed, error-coloured, and a click retries', () => {
    const bar = new StatusBar();
    const item = (bar as unknown as { item: Record<string, unknown> }).item;
    bar.update(none, REASON);
    assert.equal(item.visible, true, 'not hidden as for a workspace without bundles');
    assert.equal(item.text, failureStatus(REASON).text);
    assert.deepEqual(item.command, { command: 'skillgate.refresh', title: 'Retry' });
    assert.equal((item.backgroundColor as { id: string }).id, 'statusBarItem.errorBackground');
    assert.doesNotMatch(String(item.tooltip), /[\u0000-\u0009\u000b-\u001f\u007f\u202e]/u);
    assert.match(String(item.tooltip), /could not index this workspace[\s\S]*EACCES[\s\S]*Click to try again/);
    bar.update(none);
    assert.equal(item.visible, false);
  });

  it('says so in rows of their own: the reason as an error, Retry that refreshes, Show Log that opens the log', () => {
    assert.deepEqual(failureRows('EACCES'), [
      {
        id: 'failure:reason',
        label: 'Indexing failed',
        description: 'EACCES',
        tooltip: 'Skillgate could not index this workspace, so it cannot tell what the agents would load.\n\nEACCES',
        ariaLabel: 'Indexing failed: EACCES',
        icon: 'error',
        color: 'errorForeground',
      },
      {
        id: 'failure:retry',
        label: 'Retry',
        tooltip: 'Index the workspace again (Skillgate: Refresh)',
        ariaLabel: 'Retry indexing the workspace',
        icon: 'refresh',
        command: { id: 'skillgate.refresh', title: 'Retry' },
      },
      {
        id: 'failure:log',
        label: 'Show Log',
        tooltip: "Skillgate's log: every index run, and this failure (Skillgate: Show Log)",
        ariaLabel: "Show Skillgate's log",
        icon: 'output',
        command: { id: 'skillgate.showLog', title: 'Show Log' },
      },
    ]);
    // No counts in the status bar: there are none to give, and a zero would read as nothing found.
    assert.equal(failureStatus('EACCES').text, '$(shield) $(error) not indexed');
  });

  it('names only registered commands', () => {
    const ids = new Set<string>(COMMANDS.map((c) => c.id));
    for (const row of failureRows(REASON)) if (row.command) assert.ok(ids.has(row.command.id), row.command.id);
  });
});
