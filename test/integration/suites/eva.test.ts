import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { codeActionsUntil, skillgate, until } from './api';
import { TrustStore } from '../../../src/core/trust/trustStore';
import { review } from '../../../src/core/trust/reviewBundle';
import { trust } from '../../../src/core/trust/grantTrust';
import { EMBEDDED_SCHEMAS } from '../../../src/core/systems/eva/schemas';
import { REASON_PHRASE } from '../../../src/extension/tree/reasonPhrases';
import type { TreeNode } from '../../../src/extension/tree/itemTree';
import type { Item } from '../../../src/core/model';

/**
 * Eva-CLI in the extension host (issue 13): a folder becomes an Eva project when its
 * `config/eva.yaml` appears; its skill is in the tree with its reason, a problem is in
 * the Problems panel with its quick fix, and review → trust → edit drops trust.
 */
const EVA_YAML = `runtime: {env: dev, workspace: ., hot_reload: false}
eventbus: {}
scheduler: {}
observability: {}
config:
  agent_dir: config/agents
  adapter_dir: config/adapters
  capability_dir: config/capabilities
  policy_dir: config/policies
  route_file: config/routes/default.yaml
  schema_dir: config/schemas
`;

const adapter = (id: string, enabled: string) => `id: ${id}
name: ${id}
version: 1.0.0
enabled: ${enabled}
transport: skill
skill:
  source: project
  id: ${id}
  kind: workflow_skill
  runtime_gate: normal
  input_schema: {type: object}
  output_schema: {type: object}
capabilities: [workflow.${id}]
permissions: {read_workspace: true}
limits: {timeout_ms: 1000}
routing: {priority: 1}
`;

function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the suites run in a workspace folder');
  return folder.uri.fsPath;
}

function store(): TrustStore {
  const stateDir = process.env.SKILLGATE_STATE_DIR;
  assert.ok(stateDir, 'the runner gives the host its own trust store');
  return new TrustStore(stateDir);
}

const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? d.code.value : d.code);

describe('Eva-CLI (in the extension host)', () => {
  const config = () => path.join(workspaceFolder(), 'config');
  const evaItem = (id: string) => (a: Awaited<ReturnType<typeof skillgate>>) =>
    a.snapshot()?.items.find((i) => i.system === 'eva' && i.name === id);

  before(async () => {
    await skillgate();
    for (const dir of ['adapters', 'capabilities', 'policies', 'schemas'])
      fs.mkdirSync(path.join(config(), dir), { recursive: true });
    for (const [name, schema] of Object.entries(EMBEDDED_SCHEMAS))
      fs.writeFileSync(path.join(config(), 'schemas', `${name}.schema.json`), JSON.stringify(schema, null, 2));
    fs.writeFileSync(path.join(config(), 'adapters', 'notes.yaml'), adapter('notes', 'true'));
    fs.writeFileSync(path.join(config(), 'adapters', 'toggle.yaml'), adapter('toggle', 'yes'));
    // The entry file last: its appearance makes the folder an Eva project (the watcher on config/eva.yaml).
    fs.writeFileSync(path.join(config(), 'eva.yaml'), EVA_YAML);
  });

  after(async () => {
    fs.rmSync(config(), { recursive: true, force: true });
    await until('the Eva items to go', (a) => !a.snapshot()?.items.some((i) => i.system === 'eva'), 10000);
  });

  it("shows the project's skill in the tree under Eva-CLI, with its reason", async () => {
    const api = await skillgate();
    await until('the Eva skill notes', evaItem('notes'), 10000);
    const [folder] = (await api.tree.getChildren()) ?? [];
    assert.ok(folder);
    const systems = (await api.tree.getChildren(folder)) ?? [];
    let eva: TreeNode | undefined;
    for (const s of systems) if ((await api.tree.getTreeItem(s)).label === 'Eva-CLI') eva = s;
    assert.ok(eva, 'an Eva-CLI node');
    const rows = await Promise.all(((await api.tree.getChildren(eva)) ?? []).map((n) => api.tree.getTreeItem(n)));
    const notes = rows.find((r) => (typeof r.label === 'string' ? r.label : r.label?.label) === 'notes (skill notes)');
    assert.ok(notes, JSON.stringify(rows.map((r) => r.label)));
    assert.equal(notes.description, REASON_PHRASE.loaded_unreviewed);
  });

  it('puts enabled: yes in the Problems panel at its key, and its quick fix writes the boolean', async () => {
    const uri = vscode.Uri.file(path.join(config(), 'adapters', 'toggle.yaml'));
    const diag = await until(
      'an eva.schema.type diagnostic',
      () => vscode.languages.getDiagnostics(uri).find((d) => codeOf(d) === 'eva.schema.type'),
      10000,
    );
    assert.equal(diag.message, 'schema type mismatch: expected boolean, got string');
    assert.deepEqual([diag.range.start.line, diag.range.start.character], [3, 0]);
    assert.equal(diag.severity, vscode.DiagnosticSeverity.Error);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const { found: fix, actions } = await codeActionsUntil(uri, diag.range, (a) => !!a.edit);
    assert.ok(fix?.edit, JSON.stringify(actions.map((a) => a.title)));
    assert.equal(fix.title, 'Write true (a YAML 1.2 boolean)');
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    await doc.save();
    await until(
      'eva.schema.type to go',
      () => !vscode.languages.getDiagnostics(uri).some((d) => codeOf(d) === 'eva.schema.type'),
      10000,
    );
    const fixed = await until(
      'toggle to be registered',
      (a) => evaItem('toggle')(a)?.decision === 'registered' && evaItem('toggle')(a),
    );
    assert.deepEqual(fixed.reasons, ['loaded_unreviewed', 'not_reviewed']);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('reviews and trusts the skill, and an edit to its manifest drops trust', async () => {
    const item = (await until('notes', evaItem('notes'))) as Item;
    const r = review(item, { store: store() });
    assert.ok(r.ok, r.ok ? '' : r.message);
    assert.equal(r.value.trustable, true, r.value.trustRefusal ?? '');
    const t = await trust(item, r.value.reviewToken ?? '', { store: store() });
    assert.ok(t.ok, t.ok ? '' : t.message);
    const trusted = await until(
      'notes to be trusted',
      (a) => evaItem('notes')(a)?.trust === 'trusted' && evaItem('notes')(a),
      10000,
    );
    assert.deepEqual(trusted.reasons, ['registered']);
    fs.appendFileSync(path.join(config(), 'adapters', 'notes.yaml'), '# edited\n');
    const drifted = await until(
      'notes to drop trust',
      (a) => evaItem('notes')(a)?.trust === 'content-changed' && evaItem('notes')(a),
      10000,
    );
    assert.deepEqual([drifted.decision, drifted.reasons], ['registered', ['loaded_unreviewed', 'content_changed']]);
  });
});
