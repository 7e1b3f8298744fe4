import * as z from 'zod';

/**
 * What a review view may send its host (the VS Code panel's webview today). The messages
 * are untrusted input: the host parses them here and re-checks every action (workspace
 * trust, current hashes) before doing anything. The schema lives in the core, beside the
 * view model it answers, so the faces share the core's one copy of zod.
 */
const webviewMessage = z.discriminatedUnion('type', [
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
