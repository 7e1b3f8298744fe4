import * as vscode from 'vscode';
import { safeUi } from './text/uiText';
import type { UiPort } from './flows/ports';

/** The modal's default button where Enter must not add trust: it closes the modal and leaves the review open. */
const KEEP_REVIEWING = 'Keep Reviewing';

/** The editor's side of the flows' UI port: modal confirmations and notifications, every message escaped (text/uiText.ts). */
export const windowUi: UiPort = safeUi({
  async confirm(message, detail, action, options) {
    if (!options?.safeDefault)
      return (await vscode.window.showWarningMessage(message, { modal: true, detail }, action)) === action;
    // VS Code's modal focuses its first non-close button, so Enter picks it; `isCloseAffordance` only sets what Escape
    // returns. A harmless first button makes Enter safe; Cancel stays for Escape and the close box.
    const items: vscode.MessageItem[] = [
      { title: KEEP_REVIEWING },
      { title: action },
      { title: 'Cancel', isCloseAffordance: true },
    ];
    return (await vscode.window.showWarningMessage(message, { modal: true, detail }, ...items))?.title === action;
  },
  async offer(message, action) {
    return (await vscode.window.showInformationMessage(message, action)) === action;
  },
  info: (m) => void vscode.window.showInformationMessage(m),
  error: (m) => void vscode.window.showErrorMessage(m),
});
