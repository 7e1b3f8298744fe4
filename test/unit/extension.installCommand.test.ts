import { strict as assert } from 'node:assert';
import { loadWithVscode, vscodeStandIn } from './helpers/vscodeStandIn';
import { itemOf as item } from './helpers/item';
import type { Item } from '../../src/core/model';
import type { Snapshot } from '../../src/core/index/snapshot';
import type { SkillgateService } from '../../src/extension/skillgateService';
import type { ReviewPanels } from '../../src/extension/review/reviewPanel';
import type { WorkspaceCommandDeps } from '../../src/extension/commands/workspaceCommands';

type WorkspaceCommands = typeof import('../../src/extension/commands/workspaceCommands');

// Not in the stand-in, and read by the modules through `vscode` (the Problems view, the user's JSON
// settings): named before they load, for their `import * as vscode` takes the names there are then.
for (const name of ['commands', 'ConfigurationTarget'])
  if (!(name in vscodeStandIn.api)) Object.assign(vscodeStandIn.api, { [name]: undefined });

/**
 * "Install Rivumi Plugin from Manifest…" on the vscode stand-in: a freshly installed plugin
 * is never trusted, so its old trust record is dropped; when that fails, the notification
 * must not say it is not reviewed (the CLI exits 1 and says so in the same case).
 */
describe('the install command: what it says about trust after the install', () => {
  const { workspaceCommands } = loadWithVscode(
    () => require('../../src/extension/commands/workspaceCommands') as WorkspaceCommands,
  );
  const window = vscodeStandIn.api.window as unknown as Record<string, unknown>;
  const installed = item({ path: '/ws/.rivumi/plugins/x.json', name: 'x', trust: 'trusted' });

  const commandWith = (revoke: () => { ok: boolean; message?: string }) => {
    const s: Snapshot = { generation: 1, workspaces: ['/ws'], items: [installed], diagnostics: [], trustProblem: null };
    const service = {
      snapshot: s,
      refreshAll: async () => s,
      install: () => ({
        ok: true,
        name: 'x',
        source: '.rivumi/plugins/x.json',
        file: '/ws/.rivumi/plugins/x.json',
        written: ['/ws/.rivumi/plugins/x.json'],
        loads: 'Rivumi loads it from now on',
      }),
      revoke: async (_i: Item) => revoke(),
    } as unknown as SkillgateService;
    const deps = { service, panels: { open: () => undefined } as unknown as ReviewPanels } as WorkspaceCommandDeps;
    return workspaceCommands(deps)['skillgate.installRivumiPlugin'];
  };

  beforeEach(() => {
    vscodeStandIn.reset();
    vscodeStandIn.api.workspace.workspaceFolders = [{ uri: { scheme: 'file', fsPath: '/ws' } }];
    window.showOpenDialog = async () => [{ fsPath: '/pkg/plugin.json' }];
  });
  after(() => {
    vscodeStandIn.reset();
    delete window.showOpenDialog;
  });

  it('says the plugin is not reviewed once its old trust record is dropped', async () => {
    await commandWith(() => ({ ok: true }))();
    assert.equal(vscodeStandIn.shown.length, 1);
    assert.match(
      vscodeStandIn.shown[0] as string,
      /^Installed plugin x at \.rivumi\/plugins\/x\.json\. .*not reviewed/,
    );
  });

  it('says its old trust record could not be dropped, and never that it is not reviewed, when the revoke fails', async () => {
    await commandWith(() => ({ ok: false, message: 'The trust store is locked.' }))();
    assert.equal(vscodeStandIn.shown.length, 1);
    const shown = vscodeStandIn.shown[0] as string;
    assert.match(shown, /but its old trust record could not be dropped: The trust store is locked\./);
    assert.doesNotMatch(shown, /not reviewed/);
  });
});

/**
 * The commands on the whole workspace, on the vscode stand-in: each runs what its title says,
 * and Install asks where and what before it writes anything, and not at all in Restricted Mode.
 */
describe('the workspace commands: what each runs and asks', () => {
  const { workspaceCommands } = loadWithVscode(
    () => require('../../src/extension/commands/workspaceCommands') as WorkspaceCommands,
  );
  const api = vscodeStandIn.api as unknown as Record<string, unknown>;
  const window = api.window as Record<string, unknown>;
  const workspace = api.workspace as Record<string, unknown>;
  const uris = api.Uri as Record<string, unknown>;
  // The stand-in's own, put back after (a later suite opens a note through it).
  const standInFrom = uris.from;
  // The stand-in's, and another suite's, as they were when this suite started.
  let standIn: { api: Record<string, unknown>; window: Record<string, unknown>; workspace: Record<string, unknown> };
  before(() => {
    standIn = {
      api: { commands: api.commands, ConfigurationTarget: api.ConfigurationTarget },
      window: { showInformationMessage: window.showInformationMessage },
      workspace: { getConfiguration: workspace.getConfiguration },
    };
  });
  let ran: unknown[][];
  let installs: string[][];
  let revoked: string[];
  let opened: string[];
  let installResult: Record<string, unknown>;
  let reviewAnswer: string | undefined;
  let dialogs: unknown[];
  let dialogAnswer: { fsPath: string }[] | undefined;
  let folderPicks: unknown[];
  let folderAnswer: { uri: { fsPath: string } } | undefined;

  const diagnostic = (severity: string) => ({ severity }) as unknown as Snapshot['diagnostics'][number];
  const installed = item({ id: 'workspace/abc/x', path: '/ws/.rivumi/plugins/x.json', name: 'x' });
  const other = item({
    id: 'workspace/abc/other',
    path: '/ws/.rivumi/plugins/other.json',
    name: 'other',
    trust: 'trusted',
  });
  const s: Snapshot = {
    generation: 1,
    workspaces: ['/ws'],
    items: [other, installed, item({ id: 'workspace/abc/x/hook', parent: installed.id, trust: null })],
    diagnostics: ['error', 'warning', 'warning', 'warning', 'info'].map(diagnostic),
    trustProblem: null,
  };
  const handlers = () => {
    const service = {
      snapshot: s,
      refreshAll: async () => (ran.push(['refreshAll']), s),
      install: (manifest: string, folder: string) => (installs.push([manifest, folder]), installResult),
      revoke: async (i: Item) => (revoked.push(i.id), { ok: true }),
    } as unknown as SkillgateService;
    const deps = {
      service,
      panels: { open: (i: Item) => void opened.push(i.id) } as unknown as ReviewPanels,
      docs: { show: async (code: string) => void ran.push(['docs.show', code]) },
      log: { show: () => void ran.push(['log.show']) },
      extensionUri: { fsPath: '/ext' },
      focusView: async () => void ran.push(['focusView']),
    } as unknown as WorkspaceCommandDeps;
    return workspaceCommands(deps);
  };

  beforeEach(() => {
    vscodeStandIn.reset();
    [ran, installs, revoked, opened, dialogs, folderPicks] = [[], [], [], [], [], []];
    installResult = {
      ok: true,
      name: 'x',
      source: '.rivumi/plugins/x.json',
      file: installed.path,
      written: [installed.path],
      loads: 'Rivumi loads it from now on',
    };
    reviewAnswer = 'Review';
    dialogAnswer = [{ fsPath: '/pkg/plugin.json' }];
    folderAnswer = undefined;
    vscodeStandIn.api.workspace.workspaceFolders = [{ uri: { scheme: 'file', fsPath: '/ws' } }];
    Object.assign(api, {
      commands: { executeCommand: async (...args: unknown[]) => void ran.push(args) },
      ConfigurationTarget: standIn.api.ConfigurationTarget ?? { Global: 1 },
    });
    uris.from = (parts: Record<string, string>) => parts;
    uris.joinPath = (base: { fsPath: string }, ...parts: string[]) => `${base.fsPath}/${parts.join('/')}`;
    window.showInformationMessage = async (m: string, ...actions: string[]) => {
      vscodeStandIn.shown.push(m);
      return actions.includes('Review') ? reviewAnswer : undefined;
    };
    window.showOpenDialog = async (options: unknown) => (dialogs.push(options), dialogAnswer);
    window.showWorkspaceFolderPick = async (options: unknown) => (folderPicks.push(options), folderAnswer);
    window.showTextDocument = async (doc: unknown, options: unknown) =>
      void ran.push(['showTextDocument', doc, options]);
    workspace.openTextDocument = async (uri: unknown) => ({ opened: uri });
    workspace.getConfiguration = (section: string) => ({
      inspect: () => ({ globalValue: [] }),
      update: async (key: string, value: unknown[], target: unknown) =>
        void ran.push([`${section}.${key}`, value.length, target]),
    });
  });
  after(() => {
    vscodeStandIn.reset();
    delete uris.joinPath;
    uris.from = standInFrom;
    for (const name of ['showOpenDialog', 'showWorkspaceFolderPick', 'showTextDocument']) delete window[name];
    Object.assign(api, standIn.api);
    Object.assign(window, standIn.window);
    Object.assign(workspace, standIn.workspace);
  });

  it('Refresh indexes again, Focus shows the view, Show Log opens the log', async () => {
    const c = handlers();
    await c['skillgate.refresh']();
    await c['skillgate.focus']();
    await c['skillgate.showLog']();
    assert.deepEqual(ran, [['refreshAll'], ['focusView'], ['log.show']]);
  });

  it("opens the documentation at a diagnostic's code, and at the top for anything that is not a code", async () => {
    const c = handlers();
    await c['skillgate.showDiagnosticDocumentation']('CW012');
    await c['skillgate.showDiagnosticDocumentation']({ value: 'CW012' });
    assert.deepEqual(ran, [
      ['docs.show', 'CW012'],
      ['docs.show', ''],
    ]);
  });

  it('Validate Workspace indexes again, opens the Problems view, and counts errors, warnings and bundles (not parts)', async () => {
    await handlers()['skillgate.validateWorkspace']();
    assert.deepEqual(ran, [['refreshAll'], ['workbench.actions.view.problems']]);
    assert.deepEqual(vscodeStandIn.shown, ['Skillgate: 1 error(s), 3 warning(s) in 2 item(s).']);
  });

  it('Doctor opens its report as a preview', async () => {
    await handlers()['skillgate.doctor']();
    assert.deepEqual(ran, [
      [
        'showTextDocument',
        { opened: { scheme: 'skillgate', path: '/doctor/Skillgate Doctor.txt' } },
        { preview: true },
      ],
    ]);
  });

  it("Serve Schemas Offline adds the schemas to the user's JSON settings", async () => {
    await handlers()['skillgate.serveSchemasOffline']();
    assert.equal(ran.length, 1);
    const [key, count, target] = ran[0] as [string, number, number];
    assert.deepEqual([key, target], ['json.schemas', (api.ConfigurationTarget as { Global: unknown }).Global]);
    assert.ok(count > 0, 'no schema added');
  });

  it('refuses to install in Restricted Mode before asking anything', async () => {
    vscodeStandIn.api.workspace.isTrusted = false;
    await handlers()['skillgate.installRivumiPlugin']();
    assert.deepEqual([dialogs, folderPicks, installs], [[], [], []]);
    assert.deepEqual(vscodeStandIn.shown, [
      'Restricted Mode: trust this workspace in VS Code before installing plugins into it.',
    ]);
  });

  it('asks for one JSON manifest, and installs nothing when none is chosen', async () => {
    dialogAnswer = undefined;
    await handlers()['skillgate.installRivumiPlugin']();
    dialogAnswer = [];
    await handlers()['skillgate.installRivumiPlugin']();
    assert.deepEqual(dialogs[0], {
      canSelectMany: false,
      openLabel: 'Install',
      title: 'Rivumi plugin manifest',
      filters: { 'Plugin manifest': ['json'] },
    });
    assert.deepEqual(installs, []);
  });

  it('asks which folder in a multi-root workspace, installs there, and nothing when the pick is escaped', async () => {
    vscodeStandIn.api.workspace.workspaceFolders = [
      { uri: { scheme: 'file', fsPath: '/ws' } },
      { uri: { scheme: 'file', fsPath: '/ws2' } },
    ];
    await handlers()['skillgate.installRivumiPlugin']();
    assert.deepEqual(installs, []);
    assert.deepEqual(dialogs, [], 'no manifest asked for before a folder');
    folderAnswer = { uri: { fsPath: '/ws2' } };
    await handlers()['skillgate.installRivumiPlugin']();
    assert.deepEqual(folderPicks, Array(2).fill({ placeHolder: 'Install the Rivumi plugin into which folder?' }));
    assert.deepEqual(installs, [['/pkg/plugin.json', '/ws2']]);
  });

  it('asks which folder when the workspace has none open', async () => {
    vscodeStandIn.api.workspace.workspaceFolders = undefined;
    await handlers()['skillgate.installRivumiPlugin']();
    assert.equal(folderPicks.length, 1);
    assert.deepEqual(installs, []);
  });

  it("shows why the install failed, and drops no bundle's trust", async () => {
    installResult = { ok: false, message: 'x.json is not a plugin manifest.' };
    await handlers()['skillgate.installRivumiPlugin']();
    assert.deepEqual(vscodeStandIn.shown, ['x.json is not a plugin manifest.']);
    assert.deepEqual(revoked, []);
  });

  it('drops the trust of the installed plugin only, says what Rivumi loads, and opens its review when asked', async () => {
    await handlers()['skillgate.installRivumiPlugin']();
    assert.deepEqual(installs, [['/pkg/plugin.json', '/ws']]);
    assert.deepEqual(revoked, [installed.id]);
    assert.deepEqual(vscodeStandIn.shown, [
      'Installed plugin x at .rivumi/plugins/x.json. Rivumi loads it from now on, and it is not reviewed: review it, then trust it, or remove the file.',
    ]);
    assert.deepEqual(opened, [installed.id]);
    reviewAnswer = undefined;
    await handlers()['skillgate.installRivumiPlugin']();
    assert.deepEqual(opened, [installed.id], 'dismissed: no review opened');
  });

  it('opens no review when the installed plugin is not in the index after the refresh', async () => {
    installResult = { ...installResult, file: '/ws/.rivumi/plugins/elsewhere.json' };
    await handlers()['skillgate.installRivumiPlugin']();
    assert.deepEqual([revoked, opened], [[], []]);
  });
});
