import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { skillgate } from './api';

/**
 * The user settings that place the trust store and Codewhale's home (src/extension/settings.ts):
 * settings.json is edited by hand and VS Code passes a value of the wrong type through. It
 * counts as unset: the index runs as before, on the same store, instead of failing.
 */
describe('settings of the wrong type (in the extension host)', () => {
  const settings = () => vscode.workspace.getConfiguration('skillgate');

  after(async () => {
    await settings().update('codewhaleHome', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('stateDirectory', undefined, vscode.ConfigurationTarget.Global);
    await (await skillgate()).refresh();
  });

  it('indexes as before when codewhaleHome and stateDirectory hold a number and a boolean', async () => {
    const api = await skillgate();
    const before = (await api.refresh()).items.find((i) => i.name === 'good' && i.parent === null);
    assert.ok(before);
    await settings().update('codewhaleHome', 5, vscode.ConfigurationTarget.Global);
    await settings().update('stateDirectory', true, vscode.ConfigurationTarget.Global);
    const now = (await api.refresh()).items.find((i) => i.id === before.id);
    assert.ok(now, 'the bundle is still indexed');
    assert.equal(now.trust, before.trust, 'read from the same trust store');
  });
});
