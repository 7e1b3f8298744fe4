import { strict as assert } from 'node:assert';
import { loadWithVscode, vscodeStandIn } from './helpers/vscodeStandIn';

type WindowUi = typeof import('../../src/extension/windowUi');

/**
 * The editor's confirmations and notifications (windowUi.ts): a modal that adds trust
 * focuses a button that does nothing, so Enter never adds it; each answers true only for
 * its action.
 */
describe("the window's confirmations and notifications", () => {
  const { windowUi } = loadWithVscode(() => require('../../src/extension/windowUi') as WindowUi);
  const window = vscodeStandIn.api.window as unknown as Record<string, unknown>;
  const standIn = { showInformationMessage: window.showInformationMessage };
  /** Each message shown: its text, its options and its buttons. */
  let asked: unknown[][];
  /** Which button the user picks: by its index, or none (Escape, the close box). */
  let pick: number | undefined;
  const answer = (message: string, ...rest: unknown[]) => {
    asked.push([message, ...rest]);
    const buttons = rest.filter((r) => typeof r === 'string' || (typeof r === 'object' && r !== null && 'title' in r));
    return Promise.resolve(pick === undefined ? undefined : buttons[pick]);
  };

  beforeEach(() => {
    vscodeStandIn.reset();
    [asked, pick] = [[], undefined];
    window.showWarningMessage = answer;
    window.showInformationMessage = answer;
  });
  after(() => {
    delete window.showWarningMessage;
    Object.assign(window, standIn);
    vscodeStandIn.reset();
  });

  it('asks in a modal with the action as its one button, true only when it is picked', async () => {
    pick = 0;
    assert.equal(await windowUi.confirm('Revoke demo?', 'line one\nline two', 'Revoke'), true);
    assert.deepEqual(asked, [['Revoke demo?', { modal: true, detail: 'line one\nline two' }, 'Revoke']]);
    pick = undefined;
    assert.equal(await windowUi.confirm('Revoke demo?', '', 'Revoke'), false);
  });

  it('focuses Keep Reviewing first where Enter must not add trust, Cancel closing it, true only for the action', async () => {
    const ask = () => windowUi.confirm('Trust demo?', 'its hash', 'Trust', { safeDefault: true });
    pick = 0;
    assert.equal(await ask(), false, 'Enter picks Keep Reviewing');
    assert.deepEqual(asked[0], [
      'Trust demo?',
      { modal: true, detail: 'its hash' },
      { title: 'Keep Reviewing' },
      { title: 'Trust' },
      { title: 'Cancel', isCloseAffordance: true },
    ]);
    pick = 1;
    assert.equal(await ask(), true);
    pick = 2;
    assert.equal(await ask(), false);
    pick = undefined;
    assert.equal(await ask(), false, 'Escape');
  });

  it('offers an action in a notification, true only when it is picked', async () => {
    pick = 0;
    assert.equal(await windowUi.offer('2 bundles changed', 'Review'), true);
    assert.deepEqual(asked, [['2 bundles changed', 'Review']]);
    pick = undefined;
    assert.equal(await windowUi.offer('2 bundles changed', 'Review'), false);
  });
});
