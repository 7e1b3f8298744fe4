import { strict as assert } from 'node:assert';
import { contractDiagnostic, contractItem, displayPath, owningWorkspace } from '../../src/core/report/contract';
import { FILE_START, type Diagnostic, type Item } from '../../src/core/model';
import { itemOf } from './helpers/item';

/**
 * Paths in the JSON contract (cli.md "JSON output"): relative to the item's own workspace
 * folder, with `/`; a diagnostic without an item belongs to the innermost folder that holds
 * its file, when one folder lies inside another.
 */
describe('JSON contract paths with nested workspace folders', () => {
  const item = (workspace: string, file: string): Item =>
    itemOf({ workspace, path: file, location: { file, range: FILE_START } });
  const diagnostic = (file: string): Diagnostic => ({
    file,
    range: FILE_START,
    severity: 'warning',
    code: 'codewhale.root-not-directory',
    message: 'm',
    itemId: null,
  });

  it("gives an item's path relative to its own folder, even inside another folder", () => {
    assert.equal(contractItem(item('/w', '/w/sub/.codewhale/p'), ['/w', '/w/sub']).path, 'sub/.codewhale/p');
    assert.equal(contractItem(item('/w/sub', '/w/sub/.codewhale/p'), ['/w', '/w/sub']).path, '.codewhale/p');
  });

  it('ties a diagnostic without an item to the innermost folder, whatever their order', () => {
    for (const workspaces of [
      ['/w', '/w/sub'],
      ['/w/sub', '/w'],
    ]) {
      assert.equal(owningWorkspace('/w/sub/.codewhale/plugins', workspaces), '/w/sub');
      assert.deepEqual(
        [contractDiagnostic(diagnostic('/w/sub/.codewhale/plugins'), workspaces)].map((d) => [d.workspace, d.file]),
        [['/w/sub', '.codewhale/plugins']],
      );
    }
  });

  it('shows the folder itself as `.`, never an empty path', () => {
    assert.equal(displayPath('/w', ['/w']), '.');
  });
});
