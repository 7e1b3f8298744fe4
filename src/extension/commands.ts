import * as vscode from 'vscode';
import { fileUri } from './fileUri';
import { ReadonlyDocuments } from './readonlyDocuments';
import { displayText } from '../core/text/displayText';
import { itemPick } from './itemText';
import { notificationText, safeUi } from './uiText';
import { RESTRICTED_ENABLE, RESTRICTED_TRUST, enableFlow, shortToken, trustFlow } from './flows/trustFlow';
import type { ReviewPanels } from './reviewPanel';
import type { SkillgateService } from './skillgateService';
import type { TreeNode } from './itemTree';
import type { LifecyclePort, UiPort } from './flows/ports';
import type { Item } from '../core/model';

/** The editor's side of the flows' UI port: modal confirmations and notifications, every message escaped (uiText.ts). */
export const windowUi: UiPort = safeUi({
  async confirm(message, detail, action, options) {
    if (!options?.safeDefault) return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
    // VS Code's modal focuses its first non-close button, so Enter picks it; `isCloseAffordance` only sets what Escape
    // returns. A harmless first button makes Enter safe; Cancel stays for Escape and the close box.
    const items: vscode.MessageItem[] = [{ title: KEEP_REVIEWING }, { title: action }, { title: 'Cancel', isCloseAffordance: true }];
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, ...items))?.title === action;
  },
  async offer(message, action) {
    return (await vscode.window.showInformationMessage(message, action)) === action;
  },
  info: (m) => void vscode.window.showInformationMessage(m),
  error: (m) => void vscode.window.showErrorMessage(m),
});

/** The modal's default button where Enter must not add trust: it closes the modal and leaves the review open. */
export const KEEP_REVIEWING = 'Keep Reviewing';

type Arg = TreeNode | Item | string | undefined;

/**
 * Every command, in the palette (category "Skillgate") and in the tree's menus. Run
 * without an item, each asks with a QuickPick; every handler re-checks what it needs
 * (Restricted Mode, current hashes) rather than trusting that a menu was hidden.
 */
export function registerCommands(context: vscode.ExtensionContext, service: SkillgateService, panels: ReviewPanels, focusView: () => Thenable<unknown>): void {
  const gate = { workspaceTrusted: () => vscode.workspace.isTrusted, shownToken: (id: string) => panels.shownToken(id) };
  const lifecycle: LifecyclePort = service;

  const resolve = async (arg: Arg, what: string, filter: (i: Item) => boolean): Promise<Item | undefined> => {
    const snapshot = service.snapshot ?? (await service.refreshAll());
    if (typeof arg === 'string') return snapshot.items.find((i) => i.id === arg);
    if (arg && 'kind' in arg && arg.kind === 'item' && 'item' in arg) return snapshot.items.find((i) => i.id === arg.item.id);
    if (arg && 'id' in arg && 'system' in arg) return snapshot.items.find((i) => i.id === arg.id);
    const candidates = snapshot.items.filter(filter);
    if (candidates.length === 0) {
      void vscode.window.showInformationMessage(`Skillgate: no bundle to ${what}.`);
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(
      candidates.map((i) => ({ ...itemPick(i), item: i })),
      { title: `Skillgate: choose a bundle to ${what}`, matchOnDescription: true, matchOnDetail: true },
    );
    return picked?.item;
  };
  const bundles = (i: Item) => i.trust !== null;
  const reg = (id: string, fn: (arg?: Arg) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(id, fn));

  reg('skillgate.refresh', () => service.refreshAll());
  reg('skillgate.focus', () => focusView());
  reg('skillgate.validateWorkspace', async () => {
    const s = await service.refreshAll();
    const errors = s.diagnostics.filter((d) => d.severity === 'error').length;
    const warnings = s.diagnostics.filter((d) => d.severity === 'warning').length;
    await vscode.commands.executeCommand('workbench.actions.view.problems');
    void vscode.window.showInformationMessage(`Skillgate: ${errors} error(s), ${warnings} warning(s) in ${s.items.filter((i) => i.parent === null).length} item(s).`);
  });
  reg('skillgate.review', async (arg) => {
    const item = await resolve(arg, 'review', bundles);
    if (item) panels.open(item);
  });
  // Restricted Mode: trust and enable are refused before anything is asked; disable and revoke only reduce what runs and stay allowed.
  reg('skillgate.trust', async (arg) => {
    if (!gate.workspaceTrusted()) return windowUi.error(RESTRICTED_TRUST);
    const item = await resolve(arg, 'trust', (i) => bundles(i) && i.trust !== 'trusted' && i.decision !== 'rejected');
    if (!item) return;
    const outcome = await trustFlow(item, undefined, { ui: windowUi, gate, lifecycle });
    if (outcome === 'review-first') {
      panels.open(item);
      windowUi.info(`Review ${item.name} first: Trust is in the review panel, for exactly what it shows.`);
    }
  });
  reg('skillgate.enable', async (arg) => {
    if (!gate.workspaceTrusted()) return windowUi.error(RESTRICTED_ENABLE);
    // Only bundles with an enable switch are offered; one given directly (a Rivumi bundle) is refused by the lifecycle with how to switch it off.
    const item = await resolve(arg, 'enable', (i) => bundles(i) && i.trust === 'trusted' && i.enabled === false);
    if (item) await enableFlow(item, { ui: windowUi, gate, lifecycle });
  });
  reg('skillgate.disable', async (arg) => {
    const item = await resolve(arg, 'disable', (i) => bundles(i) && i.enabled === true);
    if (!item) return;
    const r = await service.disable(item);
    if (r.ok) windowUi.info(`Disabled ${item.name}.`);
    else windowUi.error(r.message);
  });
  reg('skillgate.revoke', async (arg) => {
    const item = await resolve(arg, 'revoke', (i) => bundles(i) && i.trust !== 'not-reviewed');
    if (!item) return;
    const after = item.enabled === null ? `Rivumi still loads it; Skillgate shows it as loaded and not reviewed until you review and trust it again.` : 'the bundle stays inactive until you review and trust it again.';
    if (!(await windowUi.confirm(`Revoke trust in ${item.name}?`, `The receipt is removed; ${after}`, 'Revoke'))) return;
    const r = await service.revoke(item);
    if (r.ok) windowUi.info(`Revoked trust in ${item.name}.`);
    else windowUi.error(r.message);
  });
  reg('skillgate.explain', async (arg) => {
    const item = await resolve(arg, 'explain', () => true);
    if (!item) return;
    await vscode.commands.executeCommand('markdown.showPreview', ReadonlyDocuments.explainUri(item.id, item.name));
  });
  reg('skillgate.doctor', async () => {
    const doc = await vscode.workspace.openTextDocument(ReadonlyDocuments.doctorUri());
    await vscode.window.showTextDocument(doc, { preview: true });
  });
  reg('skillgate.installRivumiPlugin', async () => {
    if (!vscode.workspace.isTrusted) return windowUi.error('Restricted Mode: trust this workspace in VS Code before installing plugins into it.');
    const folder = vscode.workspace.workspaceFolders?.length === 1 ? vscode.workspace.workspaceFolders[0] : await vscode.window.showWorkspaceFolderPick({ placeHolder: 'Install the Rivumi plugin into which folder?' });
    if (!folder) return;
    const picked = await vscode.window.showOpenDialog({ canSelectMany: false, openLabel: 'Install', title: 'Rivumi plugin manifest', filters: { 'Plugin manifest': ['json'] } });
    if (!picked?.[0]) return;
    const r = service.install(picked[0].fsPath, folder.uri.fsPath);
    if (!r.ok) return windowUi.error(r.message);
    await service.refreshAll();
    const item = service.snapshot?.items.find((i) => i.path === r.plugin.file);
    if (item) await service.revoke(item);
    // Rivumi loads it from now on, trusted or not (it has no enable switch): say so, and offer the review.
    const open = await vscode.window.showInformationMessage(notificationText(`Installed plugin ${r.plugin.name} at ${r.plugin.source}. Rivumi loads it from now on, and it is not reviewed: review it, then trust it, or remove the file.`), 'Review');
    if (open === 'Review' && item) panels.open(item);
  });
  reg('skillgate.copyReviewToken', async (arg) => {
    const item = await resolve(arg, 'copy the review token of', (i) => bundles(i) && i.reviewToken !== null);
    if (!item?.reviewToken) return;
    await vscode.env.clipboard.writeText(item.reviewToken);
    windowUi.info(`Copied the review token of ${item.name} (${shortToken(item.reviewToken)}).`);
  });
  reg('skillgate.openManifest', async (arg) => {
    const item = await resolve(arg, 'open', () => true);
    if (!item) return;
    const r = item.location.range;
    await vscode.window.showTextDocument(fileUri(item.location.file), { selection: new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character) });
  });
}

/** Offers "Review changes" when trusted content changes on disk. */
export async function notifyDrift(items: Item[], panels: ReviewPanels): Promise<void> {
  for (const item of items) {
    const what = item.trust === 'capabilities-changed' ? 'what it can do changed' : 'its files changed';
    const choice = await vscode.window.showWarningMessage(notificationText(`Skillgate: ${item.name} is no longer trusted: ${what} since your review.`), 'Review changes');
    if (choice === 'Review changes') panels.open(item);
  }
}


/** The Doctor report as plain text, every line escaped (it names paths a repository chose). */
export function doctorText(service: SkillgateService): string {
  const report = service.doctor();
  const lines = [
    `Trust store: ${report.store}`,
    report.problem ? `UNAVAILABLE: ${report.problem}\nEvery bundle is disabled until this is fixed; \`skillgate doctor --repair\` moves the file aside.` : `Healthy: ${report.bundles} bundle record(s).`,
    ...report.staleReceipts.map((s) => `Stale receipt: ${displayText(s.name)} (${displayText(s.path)} no longer exists)`),
    `Unreferenced snapshots: ${report.unreferencedSnapshots.length}`,
  ];
  return lines.map((l) => displayText(l, 'multi-line')).join('\n') + '\n';
}
