import type { ReviewViewModel } from '../../core/review/reviewModel';

/**
 * The one typed protocol between the review panel's host and its webview. Messages
 * from the webview are untrusted input: the host parses them with the core's schema
 * (core/review/webviewMessage.ts) and re-checks every action (workspace trust, current
 * hashes) before doing anything.
 */
export { parseWebviewMessage, type WebviewMessage } from '../../core/review/webviewMessage';

export type HostMessage =
  | { readonly type: 'render'; readonly model: ReviewViewModel; readonly changed: boolean }
  | { readonly type: 'status'; readonly text: string; readonly error: boolean };
