import { bundleKey } from '../../hashing/identity';
import { codewhalePluginId } from './identity';
import type { GateContext } from '../../decisions/gates';
import type { Diagnostic, Item } from '../../model';
import type { CodewhaleBundle } from './codewhaleBundle';
import { osBytes } from '../../fs/rawNames';
import { precedenceKey } from './precedence';
import { bundleItems } from './bundleItems';

/**
 * What is worked out once per loaded bundle and reused by every snapshot until the
 * bundle is re-read: its precedence key, ids, tagged diagnostics and last items.
 * One lookup per bundle per snapshot keeps a snapshot after a one-bundle change
 * cheap in a workspace of thousands of bundles.
 */
export interface BundleMemo {
  readonly orderKey: Buffer;
  readonly id: string;
  key?: string;
  own?: readonly Diagnostic[];
  items?: { readonly inputs: ItemInputs; readonly items: Item[] };
}

/**
 * What decides a bundle's items besides the bundle itself: unchanged inputs, the same items.
 * The id is the memo's own, and the diagnostics are the bundle's plus, exactly when it is
 * shadowed, the name-conflict warning: neither can change while these stay the same.
 */
interface ItemInputs {
  readonly workspace: string | null;
  readonly shadowedBy: string | null;
  /** The trust state as JSON ('null' when the store has none for the bundle). */
  readonly state: string;
  readonly workspaceTrusted: boolean;
}

const memos = new WeakMap<CodewhaleBundle, BundleMemo>();

export function memoOf(b: CodewhaleBundle): BundleMemo {
  let memo = memos.get(b);
  if (!memo) {
    memo = {
      orderKey: precedenceKey(b),
      id: b.pluginId ?? codewhalePluginId(b.scope, osBytes(b.canonicalRoot ?? b.dir), b.name),
    };
    memos.set(b, memo);
  }
  return memo;
}

/** The bundle's trust-store key. */
function keyOf(b: CodewhaleBundle, memo: BundleMemo): string {
  return (memo.key ??= bundleKey('codewhale', b.scope, b.canonicalRoot ?? b.dir, b.name));
}

/** The bundle's own diagnostics, tagged with its item id. */
export function ownDiagnostics(b: CodewhaleBundle, memo: BundleMemo): readonly Diagnostic[] {
  return (memo.own ??= b.diagnostics.map((d) => ({ ...d, itemId: memo.id })));
}

/** The bundle's items: its last ones while the inputs that decide them are unchanged (`ItemInputs`). */
export function cachedBundleItems(
  b: CodewhaleBundle,
  memo: BundleMemo,
  workspace: string | null,
  shadowedBy: string | null,
  diagnostics: readonly Diagnostic[],
  ctx: GateContext,
): Item[] {
  const state = ctx.trust.available ? ctx.trust.lookup(keyOf(b, memo)) : 'unavailable';
  const inputs: ItemInputs = {
    workspace,
    shadowedBy,
    state: JSON.stringify(state ?? null),
    workspaceTrusted: ctx.workspaceTrusted,
  };
  if (memo.items && sameInputs(memo.items.inputs, inputs)) return memo.items.items;
  const items = bundleItems(b, memo.id, workspace, shadowedBy, diagnostics, ctx, keyOf(b, memo));
  memo.items = { inputs, items };
  return items;
}

function sameInputs(a: ItemInputs, b: ItemInputs): boolean {
  return (
    a.workspace === b.workspace &&
    a.shadowedBy === b.shadowedBy &&
    a.state === b.state &&
    a.workspaceTrusted === b.workspaceTrusted
  );
}
