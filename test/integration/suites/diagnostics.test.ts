import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { skillgate } from './api';

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
});
