import { z } from 'zod';
import type { ReviewViewModel } from '../../core/review/reviewModel';

/**
 * The one typed protocol between the review panel's host and its webview. Messages
 * from the webview are untrusted input: the host parses them with these schemas and
 * re-checks every action (workspace trust, current hashes) before doing anything.
 */
export type HostMessage =
  | { readonly type: 'render'; readonly model: ReviewViewModel; readonly changed: boolean }
  | { readonly type: 'status'; readonly text: string; readonly error: boolean };

export const webviewMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('trust'), token: z.string().regex(/^[0-9a-f]{64}\.[0-9a-f]{64}$/) }),
  z.strictObject({ type: z.literal('enable') }),
  z.strictObject({ type: z.literal('disable') }),
  z.strictObject({ type: z.literal('revoke') }),
  z.strictObject({ type: z.literal('copyToken') }),
  z.strictObject({ type: z.literal('copyCodewhaleCommand') }),
  z.strictObject({
    type: z.literal('open'),
    file: z.string().min(1).max(4096),
    line: z.number().int().min(0).max(10_000_000),
  }),
]);

export type WebviewMessage = z.infer<typeof webviewMessage>;

export function parseWebviewMessage(raw: unknown): WebviewMessage | undefined {
  const r = webviewMessage.safeParse(raw);
  return r.success ? r.data : undefined;
}
