import type { Item } from '../../core/model';
import type { Mutation } from '../../core/trust/trustStore';
import type { TrustPreview, TrustResult } from '../../core/trust/grantTrust';

/**
 * What the command flows need from the editor and the core, as plain interfaces:
 * the flows carry the decisions (refuse in Restricted Mode, trust only what was
 * shown, confirm first) and are unit-tested with stubs; commands/commands.ts adapts VS Code.
 */
export interface UiPort {
  /**
   * A modal confirmation; resolves true only when the user picks `action`. With
   * `safeDefault`, Enter does not pick `action`: the focused default is a button that
   * does nothing (for what adds trust).
   */
  confirm(
    message: string,
    detail: string,
    action: string,
    options?: { readonly safeDefault?: boolean },
  ): Promise<boolean>;
  /** A notification with one action button; resolves true when the user picks it. */
  offer(message: string, action: string): Promise<boolean>;
  info(message: string): void;
  error(message: string): void;
}

export interface LifecyclePort {
  /** Reads the bundle once: refuses (with a typed reason) or asks `confirm` with what it read, then trusts exactly `token`. */
  trust(item: Item, token: string, confirm: (preview: TrustPreview) => Promise<boolean>): Promise<TrustResult>;
  enable(item: Item): Promise<Mutation<{ item: Item; note: string | null }>>;
}

export interface GatePort {
  /** VS Code's workspace trust: false in Restricted Mode. */
  workspaceTrusted(): boolean;
  /** The review token last shown to the user for this item (panel or text review), if any. */
  shownToken(itemId: string): string | undefined;
  /** The item's agent's hook opt-in, and whether it is set in the editor's environment; null for an agent without hooks. */
  hooksOptIn(item: Item): { readonly optIn: string; readonly set: boolean } | null;
}

/**
 * The extension's log, the "Skillgate" output channel (a `vscode.LogOutputChannel`):
 * what ran, how long it took and what failed, for when something looks wrong.
 */
export interface LogPort {
  /** Shown only when the channel's level is Debug or Trace ("Developer: Set Log Level…"). */
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}
