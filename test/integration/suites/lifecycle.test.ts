import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { skillgate, until } from './api';
import { TrustStore } from '../../../src/core/trust/trustStore';
import { review } from '../../../src/core/trust/reviewBundle';
import { trust } from '../../../src/core/trust/grantTrust';

describe('trust and enable (in the extension host)', () => {
  it('shows trust granted from the CLI, enables through the command, and drops trust on an on-disk edit', async () => {
    const api = await skillgate();
    const stateDir = process.env.SKILLGATE_STATE_DIR;
    assert.ok(stateDir, 'the runner gives the host its own trust store');
    const good = api.snapshot()?.items.find((i) => i.name === 'good' && i.parent === null);
    assert.ok(good);
    // Another process (the CLI) trusts the bundle in the shared store.
    const store = new TrustStore(stateDir);
    const r = review(good, { store });
    assert.ok(r.ok && r.value.reviewToken !== null);
    assert.ok((await trust(good, r.value.reviewToken, { store })).ok);
    const trusted = await until('the store watcher to show trust', (a) =>
      a.snapshot()?.items.find((i) => i.id === good.id && i.trust === 'trusted'),
    );
    assert.deepEqual([trusted.decision, trusted.reasons], ['disabled', ['not_enabled']]);

    await vscode.commands.executeCommand('skillgate.enable', good.id);
    const active = await until('the bundle to be active', (a) =>
      a.snapshot()?.items.find((i) => i.id === good.id && i.decision === 'registered'),
    );
    assert.deepEqual(active.reasons, ['active']);
    assert.equal(api.isActive('good'), true);
    const folder = ((await api.tree.getChildren()) ?? [])[0];
    const codewhale = ((await api.tree.getChildren(folder)) ?? [])[1];
    const node = ((await api.tree.getChildren(codewhale)) ?? []).find(
      (n) => n.kind === 'item' && n.item.id === good.id,
    );
    assert.ok(node);
    assert.equal((await api.tree.getTreeItem(node)).description, 'active');

    const started = Date.now();
    fs.appendFileSync(path.join(good.path, 'skills/hello/SKILL.md'), '\nAlso do something else.\n');
    const drifted = await until(
      'content_changed',
      (a) => a.snapshot()?.items.find((i) => i.id === good.id && i.trust === 'content-changed'),
      3000,
    );
    assert.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms`);
    assert.deepEqual([drifted.decision, drifted.reasons, drifted.enabled], ['disabled', ['content_changed'], true]);
    assert.equal(api.isActive('good'), false);
  });

  it('disables through the command, keeping trust', async () => {
    const api = await skillgate();
    const good = api.snapshot()?.items.find((i) => i.name === 'good' && i.parent === null);
    assert.ok(good);
    await vscode.commands.executeCommand('skillgate.disable', good.id);
    const off = await until('the bundle to be disabled', (a) =>
      a.snapshot()?.items.find((i) => i.id === good.id && i.enabled === false),
    );
    assert.equal(off.trust, 'content-changed');
  });

  it('shows an untrusted Rivumi plugin as loaded and not reviewed, refuses enable and disable on it, and shows it active once trusted', async () => {
    const api = await skillgate();
    const ws = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(ws);
    const dir = path.join(ws, '.rivumi/plugins');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'pk.md'), 'Check the risks.\n');
    fs.writeFileSync(path.join(dir, 'pk.json'), JSON.stringify({ name: 'pk', skills: [{ path: 'pk.md' }] }));
    try {
      const pk = await until('the Rivumi plugin', (a) =>
        a.snapshot()?.items.find((i) => i.name === 'pk' && i.parent === null),
      );
      assert.deepEqual(
        [pk.decision, pk.reasons, pk.enabled],
        ['registered', ['loaded_unreviewed', 'not_reviewed'], null],
      );
      assert.equal(api.isActive('pk'), false, 'loaded, but not active to a caller until trusted');
      const folder = ((await api.tree.getChildren()) ?? [])[0];
      const rivumi = ((await api.tree.getChildren(folder)) ?? [])[0];
      const node = ((await api.tree.getChildren(rivumi)) ?? []).find((n) => n.kind === 'item' && n.item.id === pk.id);
      assert.ok(node);
      const row = await api.tree.getTreeItem(node);
      assert.equal(row.description, 'loaded · not reviewed');
      // The shape is the kind (a Rivumi plugin), the colour the risk: loaded although not reviewed.
      assert.ok(
        row.iconPath instanceof vscode.ThemeIcon &&
          row.iconPath.id === 'plug' &&
          row.iconPath.color?.id === 'list.warningForeground',
      );
      assert.equal(row.accessibilityInformation?.label, 'pk, Rivumi plugin, loaded · not reviewed');
      assert.doesNotMatch(String(row.contextValue), /canEnable|\benabled\b/);
      const stateDir = process.env.SKILLGATE_STATE_DIR;
      assert.ok(stateDir);
      const store = new TrustStore(stateDir);
      const before = store.read();
      await vscode.commands.executeCommand('skillgate.enable', pk.id);
      await vscode.commands.executeCommand('skillgate.disable', pk.id);
      assert.deepEqual(store.read(), before, 'enable and disable wrote nothing');
      const r = review(pk, { store });
      assert.ok(r.ok && r.value.reviewToken !== null);
      assert.ok((await trust(pk, r.value.reviewToken, { store })).ok);
      const active = await until('the trusted plugin to be active', (a) =>
        a.snapshot()?.items.find((i) => i.id === pk.id && i.trust === 'trusted'),
      );
      assert.deepEqual([active.decision, active.reasons], ['registered', ['active']]);
      assert.equal(api.isActive('pk'), true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
