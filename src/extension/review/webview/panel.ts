// The panel's two singletons, made once here and imported by every module that needs them:
// VS Code lets a webview call acquireVsCodeApi() only once, and every section renders into the one root.
import type { WebviewMessage } from '../reviewProtocol';

declare function acquireVsCodeApi(): {
  postMessage(m: WebviewMessage): void;
  setState(s: unknown): void;
  getState(): unknown;
};

export const vscode = acquireVsCodeApi();
export const root = document.getElementById('root') as HTMLElement;
