import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { codeActionsUntil, skillgate, until } from './api';
import { QuickFixes } from '../../../src/extension/problems/quickFixes';

describe('quick fixes (in the extension host)', () => {
  /** The fixture bundle's manifest, whose every diagnostic has a fix, open in an editor. */
  const openFixable = async (): Promise<{ uri: vscode.Uri; doc: vscode.TextDocument }> => {
    await skillgate();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const uri = vscode.Uri.file(path.join(folder.uri.fsPath, '.codewhale/plugins/fixable/plugin.toml'));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    return { uri, doc };
  };

  it('offers no edit while the file has unsaved changes: the fix names the file as it was on disk', async () => {
    const { uri, doc } = await openFixable();
    const code = 'codewhale.manifest.name';
    const diag = await until(`a ${code} diagnostic`, () =>
      vscode.languages.getDiagnostics(uri).find((d) => (typeof d.code === 'object' ? d.code.value : d.code) === code),
    );
    const fixOf = (a: vscode.CodeAction) => a.title === 'Rename the plugin to `fix-me`';
    assert.ok((await codeActionsUntil(uri, diag.range, fixOf)).found?.edit, 'the fix, while the file is saved');
    // A line typed above moves every place in the editor; the diagnostic's range stays where it was on disk.
    const typed = new vscode.WorkspaceEdit();
    typed.insert(uri, new vscode.Position(0, 0), '# a comment typed in the editor\n');
    assert.ok(await vscode.workspace.applyEdit(typed));
    assert.ok(doc.isDirty);
    try {
      // At the diagnostic's range, which now holds other text.
      const docsOf = (a: vscode.CodeAction) => a.title === `Show the documentation for ${code}`;
      const { found, actions } = await codeActionsUntil(uri, diag.range, docsOf);
      const shown = JSON.stringify(actions.map((a) => [a.title, !!a.edit]));
      assert.ok(found, `the provider ran on the diagnostic; got ${shown}`);
      assert.ok(!actions.some((a) => fixOf(a) || a.edit), `no edit while the file is unsaved; got ${shown}`);
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert');
    }
    assert.ok(!doc.isDirty);
    assert.ok(
      (await codeActionsUntil(uri, diag.range, fixOf)).found?.edit,
      'the fix again, once the editor matches the disk',
    );
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('builds the edit when the fix is applied: a file another tool changed after the offer gets none', async () => {
    const api = await skillgate();
    const { uri, doc } = await openFixable();
    const code = 'codewhale.manifest.name';
    const fixOf = (a: vscode.CodeAction) => a.title === 'Rename the plugin to `fix-me`';
    const diag = await until(`a ${code} diagnostic`, () =>
      vscode.languages.getDiagnostics(uri).find((d) => (typeof d.code === 'object' ? d.code.value : d.code) === code),
    );
    // Through the workbench: offered without an edit, which resolving (as applying does) builds.
    const offered = (await codeActionsUntil(uri, diag.range, fixOf, 5000, 0)).found;
    assert.ok(offered, 'the fix is offered while the file is saved');
    assert.equal(offered.edit, undefined, 'no edit carried from the offer');
    assert.ok((await codeActionsUntil(uri, diag.range, fixOf)).found?.edit, 'the edit, once resolved');
    // Between the light bulb opening and the click: the workbench holds the action from the
    // offer and resolves it on the click. The provider's own action stands for it here, so
    // another tool's write can land in between.
    const provider = new QuickFixes(api.snapshot);
    const context = { diagnostics: [diag], triggerKind: vscode.CodeActionTriggerKind.Invoke, only: undefined };
    const fix = (await provider.provideCodeActions(doc, diag.range, context)).find(fixOf);
    assert.ok(fix, 'the fix is offered on the text it was computed on');
    const saved = fs.readFileSync(uri.fsPath, 'utf8');
    const written = `# a line another tool wrote\n${saved}`;
    fs.writeFileSync(uri.fsPath, written);
    const codeAt = (line: number) => () =>
      vscode.languages
        .getDiagnostics(uri)
        .some((d) => (typeof d.code === 'object' ? d.code.value : d.code) === code && d.range.start.line === line);
    try {
      await until('the editor to read the file again', () => doc.getText() === written);
      const resolved = await provider.resolveCodeAction(fix, new vscode.CancellationTokenSource().token);
      assert.equal(resolved.edit, undefined, 'no edit at ranges that now name other text');
      assert.equal(doc.getText(), written, 'nothing applied');
      // The index reads the write too; waited for, so its re-index cannot land after the file is put back.
      await until('the diagnostic a line down', codeAt(diag.range.start.line + 1));
    } finally {
      fs.writeFileSync(uri.fsPath, saved);
      await until('the editor to read the file back', () => doc.getText() === saved);
      await until('the diagnostic back in its place', codeAt(diag.range.start.line));
    }
    // On the text it was computed on again, the same action resolves to its edit.
    assert.ok((await provider.resolveCodeAction(fix, new vscode.CancellationTokenSource().token)).edit);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('offers each fix on its diagnostic, applies it, and the file re-validates clean', async () => {
    const { uri, doc } = await openFixable();
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
