import * as vscode from 'vscode';
import { ReadonlyDocuments } from '../documents/readonlyDocuments';
import { notificationText } from '../text/uiText';
import { windowUi } from '../windowUi';
import { serveSchemasOffline } from '../offlineSchemas';
import type { CommandHandlers } from './commands';
import type { DiagnosticsDoc } from '../problems/diagnosticsDoc';
import type { ReviewPanels } from '../review/reviewPanel';
import type { SkillgateService } from '../skillgateService';

/** What the workspace-wide commands act on. */
export interface WorkspaceCommandDeps {
  readonly service: SkillgateService;
  readonly panels: ReviewPanels;
  readonly docs: DiagnosticsDoc;
  readonly log: vscode.LogOutputChannel;
  readonly extensionUri: vscode.Uri;
  readonly focusView: () => Thenable<unknown>;
}

/** The commands on the whole workspace, the trust store and Skillgate itself. */
export function workspaceCommands(
  deps: WorkspaceCommandDeps,
): CommandHandlers<
  | 'skillgate.refresh'
  | 'skillgate.focus'
  | 'skillgate.validateWorkspace'
  | 'skillgate.doctor'
  | 'skillgate.installRivumiPlugin'
  | 'skillgate.serveSchemasOffline'
  | 'skillgate.showLog'
  | 'skillgate.showDiagnosticDocumentation'
> {
  const { service, docs } = deps;
  return {
    'skillgate.refresh': () => service.refreshAll(),
    'skillgate.focus': () => deps.focusView(),
    'skillgate.validateWorkspace': async () => {
      const s = await service.refreshAll();
      const errors = s.diagnostics.filter((d) => d.severity === 'error').length;
      const warnings = s.diagnostics.filter((d) => d.severity === 'warning').length;
      await vscode.commands.executeCommand('workbench.actions.view.problems');
      void vscode.window.showInformationMessage(
        `Skillgate: ${errors} error(s), ${warnings} warning(s) in ${s.items.filter((i) => i.parent === null).length} item(s).`,
      );
    },
    'skillgate.doctor': async () => {
      const doc = await vscode.workspace.openTextDocument(ReadonlyDocuments.doctorUri());
      await vscode.window.showTextDocument(doc, { preview: true });
    },
    'skillgate.installRivumiPlugin': () => installRivumiPlugin(service, deps.panels),
    'skillgate.serveSchemasOffline': () => serveSchemasOffline(deps.extensionUri),
    'skillgate.showLog': () => deps.log.show(),
    'skillgate.showDiagnosticDocumentation': (code) => docs.show(typeof code === 'string' ? code : ''),
  };
}

/** Installs a plugin manifest into a folder's `.rivumi/plugins/`, drops any old trust in it, and offers its review. */
async function installRivumiPlugin(service: SkillgateService, panels: ReviewPanels): Promise<void> {
  if (!vscode.workspace.isTrusted)
    return windowUi.error('Restricted Mode: trust this workspace in VS Code before installing plugins into it.');
  const folder =
    vscode.workspace.workspaceFolders?.length === 1
      ? vscode.workspace.workspaceFolders[0]
      : await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Install the Rivumi plugin into which folder?' });
  if (!folder) return;
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: 'Install',
    title: 'Rivumi plugin manifest',
    filters: { 'Plugin manifest': ['json'] },
  });
  if (!picked?.[0]) return;
  const r = service.install(picked[0].fsPath, folder.uri.fsPath);
  if (!r.ok) return windowUi.error(r.message);
  await service.refreshAll();
  const item = service.snapshot?.items.find((i) => i.path === r.file);
  // Said only when it is so: an old receipt that could not be dropped may match these bytes again.
  const dropped = item ? await service.revoke(item) : undefined;
  if (dropped && !dropped.ok)
    return windowUi.error(
      `Installed plugin ${r.name} at ${r.source}, but its old trust record could not be dropped: ${dropped.message}`,
    );
  // Rivumi loads it from now on, trusted or not (it has no enable switch): say so, and offer the review.
  const open = await vscode.window.showInformationMessage(
    notificationText(
      `Installed plugin ${r.name} at ${r.source}. ${r.loads.charAt(0).toUpperCase()}${r.loads.slice(1)}, and it is not reviewed: review it, then trust it, or remove the file.`,
    ),
    'Review',
  );
  if (open === 'Review' && item) panels.open(item);
}
