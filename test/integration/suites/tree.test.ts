import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { skillgate } from './api';
import type { TreeNode } from '../../../src/extension/itemTree';

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
    assert.deepEqual(rivumi, [{ label: 'reviewer', description: 'registered · guidance' }]);
    const codewhale = await Promise.all(((await api.tree.getChildren(systems[1])) ?? []).map(row));
    assert.deepEqual(codewhale, [
      { label: 'Fix_Me', description: 'rejected · manifest_invalid' },
      { label: 'bad-url', description: 'rejected · manifest_invalid' },
      { label: 'good', description: 'disabled · not_reviewed' },
    ]);
  });

  it('opens an item\'s file at its line when clicked', async () => {
    const api = await skillgate();
    const folder = ((await api.tree.getChildren()) ?? [])[0];
    const codewhale = ((await api.tree.getChildren(folder)) ?? [])[1];
    const good = ((await api.tree.getChildren(codewhale)) ?? []).find((n) => n.kind === 'item' && n.item.name === 'good');
    assert.ok(good);
    const t = await api.tree.getTreeItem(good);
    assert.equal(t.command?.command, 'vscode.open');
    await vscode.commands.executeCommand(t.command.command, ...(t.command.arguments ?? []));
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'an editor opened');
    assert.ok(editor.document.uri.fsPath.endsWith('.codewhale/plugins/good/plugin.toml'));
    assert.equal(editor.selection.start.line, 2);
  });
});
