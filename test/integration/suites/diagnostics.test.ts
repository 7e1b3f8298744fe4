import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { skillgate, until } from './api';

describe('the Problems panel (in the extension host)', () => {
  it('reports the bad MCP URL with its code and the exact range of the url value', async () => {
    await skillgate();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const uri = vscode.Uri.file(path.join(folder.uri.fsPath, '.codewhale/plugins/bad-url/plugin.toml'));
    const diags = vscode.languages.getDiagnostics(uri);
    assert.equal(diags.length, 1);
    const d = diags[0] as vscode.Diagnostic;
    assert.equal(d.source, 'skillgate');
    assert.equal(typeof d.code === 'object' ? d.code.value : d.code, 'codewhale.mcp.url-query');
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.equal(d.message, 'MCP server `remote` URL may not contain a query or fragment');
    assert.deepEqual(
      [d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character],
      [7, 6, 7, 48],
    );
  });

  it('reports nothing for the valid files', async () => {
    await skillgate();
    const all = vscode.languages.getDiagnostics().filter(([, ds]) => ds.some((d) => d.source === 'skillgate'));
    assert.deepEqual(all.map(([uri]) => path.basename(path.dirname(uri.fsPath))).sort(), ['bad-url', 'fixable']);
  });

  it("puts a link's diagnostic under the note Skillgate opens for it, so the panel never opens the link's target", async () => {
    await skillgate();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const bundle = path.join(folder.uri.fsPath, '.codewhale/plugins/linked');
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-outside-'));
    const target = path.join(outside, 'secret.txt');
    fs.writeFileSync(target, 'text behind the link\n');
    // A cleared resource can stay listed, with no diagnostics.
    const ours = () =>
      vscode.languages
        .getDiagnostics()
        .filter(([uri, ds]) => ds.length > 0 && uri.path.includes('/.codewhale/plugins/linked/'));
    try {
      // Made beside the plugins and moved in whole: the watcher never sees half a bundle.
      const staged = path.join(folder.uri.fsPath, '.codewhale/linked-staged');
      fs.mkdirSync(staged);
      fs.writeFileSync(
        path.join(staged, 'plugin.toml'),
        'schema_version = 1\n[plugin]\nname = "linked"\nversion = "1.0.0"\n',
      );
      fs.symlinkSync(target, path.join(staged, 'notes.md'));
      fs.renameSync(staged, bundle);
      const [uri, diags] = await until('the link diagnostic', () => ours()[0], 15000);
      assert.equal(uri.scheme, 'skillgate', uri.toString());
      assert.ok(uri.path.endsWith('/notes.md (symbolic link)'), uri.path);
      assert.deepEqual(
        diags.map((d) => (typeof d.code === 'object' ? d.code.value : d.code)),
        ['codewhale.content.symlink'],
      );
      assert.deepEqual(vscode.languages.getDiagnostics(vscode.Uri.file(path.join(bundle, 'notes.md'))), []);
      // What a click in the panel opens: the note, which names the target and never shows its text.
      const text = (await vscode.workspace.openTextDocument(uri)).getText();
      assert.match(text, /^Skillgate did not open this path: it is a symbolic link\./);
      assert.ok(text.includes(`Link target: ${target}`) && !text.includes('text behind the link'), text);
    } finally {
      fs.rmSync(bundle, { recursive: true, force: true });
      fs.rmSync(outside, { recursive: true, force: true });
      await until('the link diagnostic to go', () => ours().length === 0, 15000);
    }
  });
});
