import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { skillgate } from './api';
import { REASON_PHRASE } from '../../../src/extension/tree/reasonPhrases';
import { openableUri } from '../../../src/extension/documents/fileUri';
import type { TreeNode } from '../../../src/extension/tree/itemTree';

async function row(node: TreeNode): Promise<{ label: string; description: string }> {
  const api = await skillgate();
  const t = await api.tree.getTreeItem(node);
  const label = typeof t.label === 'string' ? t.label : (t.label?.label ?? '');
  return { label, description: String(t.description ?? '') };
}

describe('the Skillgate tree (in the extension host)', () => {
  it('lists the fixture folder, its systems, and every item with its decision and primary reason', async () => {
    const api = await skillgate();
    const [folder, ...others] = (await api.tree.getChildren()) ?? [];
    assert.ok(folder);
    assert.deepEqual(others, []);
    assert.equal((await row(folder)).label, 'integration-workspace');
    const systems = (await api.tree.getChildren(folder)) ?? [];
    assert.deepEqual(await Promise.all(systems.map(async (s) => (await row(s)).label)), ['Rivumi', 'Codewhale']);
    const rivumi = await Promise.all(((await api.tree.getChildren(systems[0])) ?? []).map(row));
    assert.deepEqual(rivumi, [{ label: 'reviewer', description: 'active · guidance' }]);
    const codewhale = await Promise.all(((await api.tree.getChildren(systems[1])) ?? []).map(row));
    assert.deepEqual(codewhale, [
      { label: 'Fix_Me', description: 'invalid manifest' },
      { label: 'bad-url', description: 'invalid manifest' },
      { label: 'good', description: 'needs review' },
    ]);
  });

  it("opens an item's file at its line when clicked", async () => {
    const api = await skillgate();
    const folder = ((await api.tree.getChildren()) ?? [])[0];
    const codewhale = ((await api.tree.getChildren(folder)) ?? [])[1];
    const good = ((await api.tree.getChildren(codewhale)) ?? []).find(
      (n) => n.kind === 'item' && n.item.name === 'good',
    );
    assert.ok(good);
    const t = await api.tree.getTreeItem(good);
    assert.equal(t.command?.command, 'skillgate.openManifest');
    await vscode.commands.executeCommand(t.command.command, ...(t.command.arguments ?? []));
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'an editor opened');
    assert.ok(editor.document.uri.fsPath.endsWith('.codewhale/plugins/good/plugin.toml'));
    assert.equal(editor.selection.start.line, 2);
  });

  it('opens a symbolic link as a read-only note that names its target, never the text it leads to', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skillgate-link-'));
    try {
      const target = path.join(dir, 'secret.txt');
      fs.writeFileSync(target, 'text behind the link\n');
      const link = path.join(dir, 'notes.md');
      fs.symlinkSync(target, link);
      const editor = await vscode.window.showTextDocument(await openableUri(link));
      assert.equal(editor.document.uri.scheme, 'skillgate');
      assert.ok(editor.document.uri.path.endsWith('/notes.md (symbolic link)'), editor.document.uri.path);
      const text = editor.document.getText();
      assert.match(text, /^Skillgate did not open this path: it is a symbolic link\./);
      assert.ok(text.includes(`Link target: ${target}`), text);
      assert.ok(!text.includes('text behind the link'), text);
      // The regular file beside it opens as itself.
      const file = await vscode.window.showTextDocument(await openableUri(target));
      assert.equal(file.document.getText(), 'text behind the link\n');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('labels every row in words for screen readers, and gives each kind its own icon', async () => {
    const api = await skillgate();
    const rows: vscode.TreeItem[] = [];
    const visit = async (node?: TreeNode) => {
      for (const child of (await api.tree.getChildren(node)) ?? []) {
        rows.push(await api.tree.getTreeItem(child));
        await visit(child);
      }
    };
    await visit();
    const codes = new RegExp(
      `\\b(${Object.keys(REASON_PHRASE)
        .filter((c) => c.includes('_'))
        .join('|')})\\b`,
    );
    for (const t of rows) {
      const label = t.accessibilityInformation?.label ?? '';
      assert.ok(label.length > 0, 'every row has a label');
      assert.doesNotMatch(label, codes, `a label in words, not codes: ${label}`);
    }
    const good = rows.find((t) => t.accessibilityInformation?.label.startsWith('good,'));
    assert.equal(good?.accessibilityInformation?.label, 'good, Codewhale plugin, disabled, needs review');
    const hello = rows.find((t) => t.accessibilityInformation?.label.startsWith('hello,'));
    const icon = (t: vscode.TreeItem | undefined) => (t?.iconPath instanceof vscode.ThemeIcon ? t.iconPath.id : '');
    assert.deepEqual([icon(good), icon(hello)], ['package', 'book']);
  });

  it("filters to the rejected bundles and groups by decision from the view's title-bar commands", async () => {
    const api = await skillgate();
    const labels = async (nodes: readonly TreeNode[]) => Promise.all(nodes.map(async (n) => (await row(n)).label));
    try {
      await vscode.commands.executeCommand('skillgate.showRejected');
      const [folder] = (await api.tree.getChildren()) ?? [];
      assert.ok(folder);
      const systems = (await api.tree.getChildren(folder)) ?? [];
      assert.deepEqual(await labels(systems), ['Codewhale'], 'Rivumi has nothing rejected');
      assert.deepEqual(await labels((await api.tree.getChildren(systems[0])) ?? []), ['Fix_Me', 'bad-url']);
      await vscode.commands.executeCommand('skillgate.showAll');
      await vscode.commands.executeCommand('skillgate.groupByDecision');
      const groups = (await api.tree.getChildren()) ?? [];
      assert.deepEqual(await labels(groups), ['Rejected', 'Needs review', 'Active']);
      assert.deepEqual(await Promise.all(groups.map(async (g) => (await api.tree.getTreeItem(g)).description)), [
        '2',
        '1',
        '1',
      ]);
    } finally {
      await vscode.commands.executeCommand('skillgate.showAll');
      await vscode.commands.executeCommand('skillgate.groupByFolder');
    }
  });
});
