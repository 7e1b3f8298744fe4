import * as vscode from 'vscode';
import type { SkillgateApi } from '../../../src/extension/extension';

/** The Skillgate extension under test, activated and with its first index published. */
export async function skillgate(): Promise<SkillgateApi> {
  const ext = vscode.extensions.getExtension<SkillgateApi>('skillgate.skillgate');
  if (!ext) throw new Error('the Skillgate extension is not installed in this host');
  const api = await ext.activate();
  await api.ready;
  return api;
}

/** Polls until `check` holds for the current snapshot (the file watcher debounces, then re-indexes). */
export async function until<T>(
  what: string,
  check: (api: SkillgateApi) => T | undefined | false,
  timeoutMs = 5000,
): Promise<T> {
  const api = await skillgate();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = check(api);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The quick-fix code actions at `range` of `uri`, asked again until one satisfies `wanted`.
 * The first request after a file is opened can come back empty while the workbench is still
 * wiring the new editor's model to the extension host (seen once in a clean CI run); a fix that
 * never comes still fails, with the titles of what was offered.
 *
 * Each action is resolved, as applying it resolves it: a fix is offered without its edit, which
 * is built on the file's text when it is applied (quickFixes.ts `resolveCodeAction`). The
 * command resolves the first `resolveCount` actions it returns (codeAction.ts
 * `_executeCodeActionProvider`); 0 gives the actions as offered.
 */
export async function codeActionsUntil(
  uri: vscode.Uri,
  range: vscode.Range,
  wanted: (action: vscode.CodeAction) => boolean,
  timeoutMs = 5000,
  resolveCount = 100,
): Promise<{ found: vscode.CodeAction | undefined; actions: vscode.CodeAction[] }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const actions =
      (await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        uri,
        range,
        vscode.CodeActionKind.QuickFix.value,
        resolveCount,
      )) ?? [];
    const found = actions.find(wanted);
    if (found || Date.now() > deadline) return { found, actions };
    await new Promise((r) => setTimeout(r, 100));
  }
}
