import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { codeActionsUntil, skillgate, until } from './api';

const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? d.code.value : d.code);

/** Issue 14 items 5-7 in the extension host: tooltips, related information, code links and the documentation action. */
describe('diagnostics, tooltips and documentation (in the extension host)', () => {
  let folder: string;
  before(async () => {
    await skillgate();
    folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    assert.ok(folder);
  });

  it('names the missing and the extra host of a network_hosts mismatch as related information', async () => {
    const uri = vscode.Uri.file(path.join(folder, '.codewhale/plugins/fixable/plugin.toml'));
    const d = await until('the mismatch', () =>
      vscode.languages.getDiagnostics(uri).find((x) => codeOf(x) === 'codewhale.capabilities.network-hosts-mismatch'),
    );
    assert.equal(
      d.message,
      'capabilities.network_hosts must exactly match the normalized host set of all remote MCP endpoints',
    );
    assert.deepEqual(
      d.relatedInformation?.map((r) => [r.location.range.start.line, r.message]),
      [
        [8, 'Missing host `right.example`: MCP server `remote` connects to it, so network_hosts must list it.'],
        [5, 'Extra host `wrong.example`: no remote MCP server connects to it, so network_hosts must not list it.'],
      ],
    );
  });

  it('links each code to its section of the bundled diagnostics page, and "Show the documentation" opens it there', async () => {
    const uri = vscode.Uri.file(path.join(folder, '.codewhale/plugins/bad-url/plugin.toml'));
    const d = await until('the url-query diagnostic', () =>
      vscode.languages.getDiagnostics(uri).find((x) => codeOf(x) === 'codewhale.mcp.url-query'),
    );
    const target = typeof d.code === 'object' ? d.code.target : undefined;
    assert.ok(target);
    assert.equal(target.scheme, 'file');
    assert.ok(target.path.endsWith('/docs/diagnostics.md'), target.toString());
    const page = await vscode.workspace.openTextDocument(target.with({ fragment: '' }));
    const line = Number(/^L(\d+)$/.exec(target.fragment)?.[1]) - 1;
    assert.equal(page.lineAt(line).text, '### `codewhale.mcp.url-query`');

    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri)); // code actions need an open model
    const { found: docs, actions } = await codeActionsUntil(
      uri,
      d.range,
      (a) => a.title === 'Show the documentation for codewhale.mcp.url-query',
    );
    assert.ok(docs?.command, JSON.stringify(actions.map((a) => a.title)));
    await vscode.commands.executeCommand(docs.command.command, ...(docs.command.arguments ?? []));
    const editor = await until(
      'the page in an editor',
      () =>
        vscode.window.activeTextEditor?.document.uri.path.endsWith('/docs/diagnostics.md') &&
        vscode.window.activeTextEditor,
    );
    assert.equal(editor.selection.active.line, line);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it("shows a rejected bundle's diagnostics in its tooltip, with only the Problems command trusted", async () => {
    const api = await skillgate();
    const top = (await api.tree.getChildren()) ?? [];
    const codewhale = ((await api.tree.getChildren(top[0])) ?? []).find(
      (n) => n.kind === 'system' && n.system === 'codewhale',
    );
    const bad = ((await api.tree.getChildren(codewhale)) ?? []).find(
      (n) => n.kind === 'item' && n.item.name === 'bad-url',
    );
    assert.ok(bad);
    const tooltip = (await api.tree.getTreeItem(bad)).tooltip;
    assert.ok(tooltip instanceof vscode.MarkdownString);
    assert.match(tooltip.value, /MCP server \\`remote\\` URL may not contain a query or fragment \(plugin\\\.toml:8\)/);
    assert.match(tooltip.value, /\[Show in Problems\]\(command:workbench\.actions\.view\.problems\)$/);
    assert.match(tooltip.value, /\$\(file\) \\\.codewhale\\\/plugins\\\/bad\\-url\n/);
    assert.deepEqual(tooltip.isTrusted, { enabledCommands: ['workbench.actions.view.problems'] });
    assert.equal(tooltip.supportHtml, false);
  });

  it('Serve Agent Plugins Schemas Offline maps each $schema URL to the shipped copy in the user settings, keeping other entries', async () => {
    const config = () => vscode.workspace.getConfiguration('json');
    await config().update(
      'schemas',
      [{ url: 'https://example.com/other.json', fileMatch: ['other.json'] }],
      vscode.ConfigurationTarget.Global,
    );
    await vscode.commands.executeCommand('skillgate.serveSchemasOffline');
    const entries = (config().inspect<{ url: string; schema?: { $ref?: string } }[]>('schemas')?.globalValue ?? []).map(
      (e) => [e.url, e.schema?.$ref ? path.basename(vscode.Uri.parse(e.schema.$ref).path) : undefined],
    );
    assert.deepEqual(entries, [
      ['https://example.com/other.json', undefined],
      ['https://agent-plugins.org/schemas/plugin.json', 'plugin.json'],
      ['https://agent-plugins.org/schemas/mcp.json', 'mcp.json'],
    ]);
    const ref = config().inspect<{ schema?: { $ref?: string } }[]>('schemas')?.globalValue?.[1]?.schema?.$ref ?? '';
    const schema = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.parse(ref)))) as {
      required?: string[];
    };
    assert.deepEqual(schema.required, ['$schema', 'name']);
    await config().update('schemas', undefined, vscode.ConfigurationTarget.Global);
  });
});
