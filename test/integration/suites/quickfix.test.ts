import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { codeActionsUntil, skillgate, until } from './api';

describe('quick fixes (in the extension host)', () => {
  it('offers each fix on its diagnostic, applies it, and the file re-validates clean', async () => {
    await skillgate();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const uri = vscode.Uri.file(path.join(folder.uri.fsPath, '.codewhale/plugins/fixable/plugin.toml'));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const titles: string[] = [];
    for (const code of [
      'codewhale.mcp.env-value',
      'codewhale.capabilities.network-hosts-mismatch',
      'codewhale.manifest.name',
      'codewhale.manifest-legacy',
    ]) {
      const diag = await until(`a ${code} diagnostic`, () =>
        vscode.languages.getDiagnostics(uri).find((d) => (typeof d.code === 'object' ? d.code.value : d.code) === code),
      );
      // The command's results do not carry their diagnostics; asking at the diagnostic's own range selects its fix.
      const { found: fix, actions } = await codeActionsUntil(
        uri,
        diag.range,
        (a) => !!a.edit && a.kind?.value === vscode.CodeActionKind.QuickFix.value,
      );
      assert.ok(
        fix?.edit,
        `a quick fix for ${code}; got ${JSON.stringify(actions.map((a) => ({ title: a.title, diagnostics: a.diagnostics?.map((d) => [d.message, d.range]), edit: !!a.edit })))} for ${JSON.stringify([diag.message, diag.range])}`,
      );
      titles.push(fix.title);
      assert.ok(await vscode.workspace.applyEdit(fix.edit));
      await doc.save();
      await until(
        `${code} to go`,
        () =>
          !vscode.languages
            .getDiagnostics(uri)
            .some((d) => (typeof d.code === 'object' ? d.code.value : d.code) === code),
      );
    }
    assert.deepEqual(titles, [
      'Use ${API_KEY} instead of a literal value',
      'Set network_hosts to ["right.example"]',
      'Rename the plugin to `fix-me`',
      'Add schema_version = 1',
    ]);
    await until('the bundle to validate clean', () => vscode.languages.getDiagnostics(uri).length === 0);
    const text = doc.getText();
    assert.match(text, /^schema_version = 1\n/);
    assert.match(text, /name = "fix-me"/);
    assert.match(text, /network_hosts = \["right\.example"\]/);
    assert.match(text, /API_KEY = "\$\{API_KEY\}"/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
