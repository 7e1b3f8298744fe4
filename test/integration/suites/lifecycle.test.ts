import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { skillgate, until } from './api';
import { TrustStore } from '../../../src/core/trust/trustStore';
import { review, trust } from '../../../src/core/trust/lifecycle';

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
    const trusted = await until('the store watcher to show trust', (a) => a.snapshot()?.items.find((i) => i.id === good.id && i.trust === 'trusted'));
    assert.deepEqual([trusted.decision, trusted.reasons], ['disabled', ['not_enabled']]);

    await vscode.commands.executeCommand('skillgate.enable', good.id);
    const active = await until('the bundle to be active', (a) => a.snapshot()?.items.find((i) => i.id === good.id && i.decision === 'registered'));
    assert.deepEqual(active.reasons, ['active']);
    assert.equal(api.isActive('good'), true);
    const folder = ((await api.tree.getChildren()) ?? [])[0];
    const codewhale = ((await api.tree.getChildren(folder)) ?? [])[1];
    const node = ((await api.tree.getChildren(codewhale)) ?? []).find((n) => n.kind === 'item' && n.item.id === good.id);
    assert.ok(node);
    assert.equal((await api.tree.getTreeItem(node)).description, 'registered · active');

    const started = Date.now();
    fs.appendFileSync(path.join(good.path, 'skills/hello/SKILL.md'), '\nAlso do something else.\n');
    const drifted = await until('content_changed', (a) => a.snapshot()?.items.find((i) => i.id === good.id && i.trust === 'content-changed'), 3000);
    assert.ok(Date.now() - started < 1500, `took ${Date.now() - started} ms`);
    assert.deepEqual([drifted.decision, drifted.reasons, drifted.enabled], ['disabled', ['content_changed'], true]);
    assert.equal(api.isActive('good'), false);
  });

  it('disables through the command, keeping trust', async () => {
    const api = await skillgate();
    const good = api.snapshot()?.items.find((i) => i.name === 'good' && i.parent === null);
    assert.ok(good);
    await vscode.commands.executeCommand('skillgate.disable', good.id);
    const off = await until('the bundle to be disabled', (a) => a.snapshot()?.items.find((i) => i.id === good.id && i.enabled === false));
    assert.equal(off.trust, 'content-changed');
  });
});
