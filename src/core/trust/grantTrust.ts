import { readBundleSource, type BundleSource } from './bundleSource';
import { ownRecordOf } from '../documents/ownRecord';
import { invalidBundleRefusal, unloadable } from './invalidBundle';
import { copyReviewed, verifyReviewedCopy } from './reviewedCopy';
import { MAX_REVIEW_HISTORY, type BundleState, type Receipt, type TrustState } from './stateSchema';
import { touched, unavailableMessage, type Mutation } from './trustStore';
import { hasEnableSwitch } from './enableSwitch';
import type { LifecycleContext } from './lifecycle';
import { systemOf } from '../systems/registry';
import type { Item } from '../model';
import type { Capabilities } from '../capabilities';

// Granting trust (trust.md "Operations", trust(token)): the receipt is written only for the
// exact token a person was shown, with a reviewed copy of those bytes; every refusal is a typed reason.

/** Why trust is refused, as a value a face can act on (never matched against message text). */
export type TrustRefusalReason =
  /** VS Code Restricted Mode. */
  | 'restricted'
  | 'store-unavailable'
  /** The unit cannot be read or hashed now. */
  | 'unreadable'
  /** The agent rejects the unit (an invalid manifest or hooks file). */
  | 'invalid'
  /** Its hooks run files this trust cannot cover. */
  | 'not-covered'
  /** The token is not the unit's current one: it changed since the review that showed it. */
  | 'token-mismatch'
  /** The person declined the confirmation. */
  | 'cancelled'
  /** The reviewed copy could not be made (the unit changed while it was copied, a hard link, a full disk). */
  | 'copy-failed';

export interface TrustRefusal {
  readonly ok: false;
  readonly reason: TrustRefusalReason;
  readonly message: string;
}

/** What the confirmation of a trust shows, from the one read of the unit that trust makes. */
export interface TrustPreview {
  readonly item: Item;
  readonly capabilities: Capabilities;
  /** The enable bit before this trust (trust resets it). */
  readonly enabled: boolean;
  /** A receipt existed before this trust: this is a re-review. */
  readonly reviewedBefore: boolean;
}

export type TrustResult =
  | {
      readonly ok: true;
      readonly value: { readonly item: Item; readonly reviewedCopy: string; readonly preview: TrustPreview };
    }
  | TrustRefusal;

const refused = (reason: TrustRefusalReason, message: string): TrustRefusal => ({ ok: false, reason, message });

/** The unit read now, when it could be trusted as it is: not invalid, nothing its trust cannot cover. */
function readTrustable(item: Item, ctx: LifecycleContext): { ok: true; source: BundleSource } | TrustRefusal {
  const read = readBundleSource(item, ctx.host);
  if (!read.ok) {
    const message = unloadable(item, ctx, read.message);
    return refused(message === read.message ? 'unreadable' : 'invalid', message);
  }
  const s = read.source;
  const invalid = invalidBundleRefusal(s.item, s.diagnostics, s.root);
  if (invalid) return refused('invalid', invalid);
  if (s.notCovered.length > 0) return refused('not-covered', notCoveredRefusal(s.item.name, s.notCovered));
  return { ok: true, source: s };
}

/**
 * The review token a unit has now, read from disk, or why it cannot be trusted: what a
 * face compares with the token it showed, without a full review.
 */
export function currentToken(
  item: Item,
  ctx: LifecycleContext,
): { readonly ok: true; readonly token: string } | TrustRefusal {
  const r = readTrustable(item, ctx);
  return r.ok ? { ok: true, token: r.source.item.reviewToken as string } : r;
}

/**
 * Trusts exactly the token a person was shown (trust.md "Operations"): the unit is read
 * once; a token that is not its current one is refused (`token-mismatch`); `confirm`,
 * when given, is asked with what that read found before anything is written. The reviewed
 * copy is then made from the same read and must reproduce the token's content hash, so a
 * unit that changes while the person decides is refused, never trusted.
 */
export async function trustShown(
  item: Item,
  token: string,
  ctx: LifecycleContext,
  confirm?: (preview: TrustPreview) => Promise<boolean>,
): Promise<TrustResult> {
  if (ctx.workspaceTrusted === false)
    return refused('restricted', 'Restricted Mode: trust the workspace in VS Code before trusting its bundles.');
  const before = ctx.store.read();
  if (!before.ok) return refused('store-unavailable', unavailableMessage(before));
  const r = readTrustable(item, ctx);
  if (!r.ok) return r;
  const s = r.source;
  if (token !== s.item.reviewToken) {
    const how = systemOf(s.item.system).reviewAgainHint(s.item);
    return refused('token-mismatch', `Review token does not match this bundle content and capability set; ${how}`);
  }
  const entryBefore = before.state.bundles[s.bundleKey];
  const preview: TrustPreview = {
    item: s.item,
    capabilities: s.capabilities,
    enabled: hasEnableSwitch(s.item) && (entryBefore?.enabled ?? false),
    reviewedBefore: (entryBefore?.trust ?? null) !== null,
  };
  if (confirm && !(await confirm(preview))) return refused('cancelled', `${s.item.name} was not trusted.`);
  const copy = copyReviewed(ctx.store.reviewedCopiesDir, s, s.item.contentHash as string);
  if (!copy.ok) return refused('copy-failed', copy.message);
  const receipt: Receipt = {
    contentHash: s.item.contentHash as string,
    capabilityHash: s.item.capabilityHash as string,
    capabilities: s.capabilities,
    files: ownRecordOf(s.files.map((f) => [f.path, { sha256: f.sha256, size: f.size, executable: f.executable }])),
    reviewedAt: (ctx.now?.() ?? new Date()).toISOString(),
  };
  let copyGone = false;
  const written = await ctx.store.mutate((state) => {
    // The copy was made before the lock was taken, and `doctor --prune` removes old copies no
    // receipt names under this lock: one that decided on this copy just before it was marked
    // fresh may have removed it since. A receipt must never name a copy that is gone.
    copyGone = !verifyReviewedCopy(ctx.store.reviewedCopiesDir, s, s.item.contentHash as string);
    if (copyGone)
      return {
        ok: false,
        message: `the reviewed copy of ${s.item.name} was removed while it was being trusted (doctor --prune ran meanwhile); nothing was trusted; trust it again`,
      };
    const entry = entryFor(state, s);
    // Trust never activates: enabling is a separate, explicit step (codewhale.md §8.4).
    state.bundles[s.bundleKey] = touched({
      ...entry,
      enabled: false,
      trust: receipt,
      reviewHistory: [...entry.reviewHistory, receipt].slice(-MAX_REVIEW_HISTORY),
    });
    return { ok: true, value: { item: s.item, reviewedCopy: copy.dir, preview } };
  });
  return written.ok ? written : refused(copyGone ? 'copy-failed' : 'store-unavailable', written.message);
}

/** `trustShown` without a confirmation, answering as the store's other mutations do (the CLI's `trust`). */
export async function trust(
  item: Item,
  token: string,
  ctx: LifecycleContext,
): Promise<Mutation<{ item: Item; reviewedCopy: string }>> {
  const r = await trustShown(item, token, ctx);
  return r.ok
    ? { ok: true, value: { item: r.value.item, reviewedCopy: r.value.reviewedCopy } }
    : { ok: false, message: r.message };
}

function entryFor(state: TrustState, s: BundleSource): BundleState {
  return (
    state.bundles[s.bundleKey] ?? {
      system: s.item.system,
      scope: s.item.scope,
      name: s.item.name,
      path: s.canonicalPath,
      generation: 0,
      enabled: false,
      trust: null,
      reviewHistory: [],
    }
  );
}

/** trust.md "Hook argv files, exactly": a file a hook runs that trust cannot cover blocks trust of its bundle. */
export function notCoveredRefusal(name: string, notCovered: readonly string[]): string {
  // Hook scripts and, for a Rivumi plugin, skill files reached through a link or that this user
  // may not read: what the agent runs or loads. Each entry says which; the way out names both.
  // Not counted as files: an entry is one argv element's problem, which may name several.
  return `Cannot trust ${name}: it runs or loads what this trust cannot cover (${notCovered.join('; ')}). Nothing was changed; make each one a regular file inside the workspace that you may read, reached without a symbolic link, or stop using it, then review again.`;
}
