import * as fs from 'node:fs';
import * as path from 'node:path';
import { notATrustUnit, readBundleSource, type BundleSource } from './bundleSource';
import { ownRecordOf } from '../documents/ownRecord';
import { osPath } from '../fs/rawNames';
import { invalidBundleRefusal, readInvalidBundle, withReviewedFiles } from './invalidBundle';
import { diffAgainstReceipt, type ReviewDiff } from './reviewDiff';
import { copyReviewed, verifyReviewedCopy } from './reviewedCopy';
import { MAX_REVIEW_HISTORY, type BundleState, type Receipt, type TrustState } from './stateSchema';
import { touched, unavailableMessage, type Mutation, type TrustStore } from './trustStore';
import { enableBlock, hasEnableSwitch, noEnableSwitchRefusal } from './enableSwitch';
import { systemOf } from '../systems/registry';
import { statusOf } from '../decisions/gates';
import type { HostFacts } from '../host';
import type { Diagnostic, Item, TrustStatus } from '../model';
import type { Capabilities } from '../capabilities';
import type { Snapshot } from '../index/snapshot';

/**
 * The bundle lifecycle (trust.md "Operations"): review, trust with the exact review
 * token, enable as a separate step, disable, revoke; and the `check` gate. Every
 * operation re-reads the bundle from disk and the store under its lock, so a stale
 * view can never enable what another process revoked.
 */
export interface LifecycleContext {
  readonly store: TrustStore;
  readonly host?: HostFacts;
  /** False in VS Code Restricted Mode: trust and enable are refused. */
  readonly workspaceTrusted?: boolean;
  readonly now?: () => Date;
}

export interface ReviewReport {
  readonly item: Item;
  /** Null when the unit does not load and so has no capability hash (an invalid manifest). */
  readonly reviewToken: string | null;
  readonly contentHash: string | null;
  readonly capabilityHash: string | null;
  /** Null when an invalid manifest leaves what the unit can do unknown. */
  readonly capabilities: Capabilities | null;
  readonly files: Item['detail']['files'];
  /** The directory the files are relative to. */
  readonly root: string;
  /** The unit's skills, hooks, MCP servers and components as read now. */
  readonly parts: readonly Item[];
  readonly status: TrustStatus;
  readonly enabled: boolean;
  readonly receipt: Receipt | null;
  /** Present when a receipt exists and the bundle changed since. */
  readonly diff: ReviewDiff | null;
  /** The agent's own command that records this review (AgentSystem.agentTrustCommand: Codewhale's `/plugin trust`); the name is the JSON contract's. */
  readonly codewhaleTrustLine: string | null;
  /** What the bundle runs that this trust cannot cover; while any is listed, trust is refused. */
  readonly notCovered: readonly string[];
  /** False when trust and enable are refused for what this review shows; `trustRefusal` says why. */
  readonly trustable: boolean;
  readonly trustRefusal: string | null;
  /** The unit's diagnostics as read now: for an invalid unit, why the agent rejects it. */
  readonly diagnostics: readonly Diagnostic[];
  /**
   * Why the trust store could not be read, when it could not: then no receipt is known, so
   * `status` reads as not reviewed and what changed since the last review cannot be shown.
   */
  readonly storeProblem: string | null;
}

export function review(item: Item, ctx: LifecycleContext): Mutation<ReviewReport> {
  const read = readBundleSource(item, ctx.host);
  if (!read.ok) return reviewInvalid(item, ctx, read.message);
  const s = read.source;
  const state = ctx.store.read();
  const entry = state.ok ? state.state.bundles[s.bundleKey] : undefined;
  const receipt = entry?.trust ?? null;
  const contentHash = s.item.contentHash as string;
  const capabilityHash = s.item.capabilityHash as string;
  const status = statusOf(receipt, contentHash, capabilityHash);
  const invalid = invalidBundleRefusal(s.item, s.diagnostics, s.root);
  const refusal =
    invalid ??
    (s.notCovered.length > 0 ? notCoveredRefusal(s.item.name, s.notCovered) : null) ??
    // Trust would be refused by the store (fail closed): said here, before the reviewer acts on a token.
    (state.ok ? null : unavailableMessage(state));
  const files = invalid && receipt ? withReviewedFiles(s.files, s.root, Object.keys(receipt.files)) : s.files;
  const diff =
    receipt && status !== 'trusted'
      ? diffAgainstReceipt(receipt, s.capabilities, files, s.root, reviewedCopyOf(ctx, receipt), s.directories)
      : null;
  return {
    ok: true,
    value: {
      item: s.item,
      reviewToken: s.item.reviewToken as string,
      contentHash,
      capabilityHash,
      capabilities: s.capabilities,
      files,
      root: s.root,
      parts: s.parts,
      status,
      enabled: hasEnableSwitch(item) && (entry?.enabled ?? false),
      receipt,
      diff,
      codewhaleTrustLine: refusal === null ? systemOf(s.item.system).agentTrustCommand(s.item) : null,
      notCovered: s.notCovered,
      trustable: refusal === null,
      trustRefusal: refusal,
      diagnostics: s.diagnostics,
      storeProblem: state.ok ? null : state.problem,
    },
  };
}

/**
 * The review of a unit that does not load (issue 10 #19): what is on disk now, the file
 * diff against the reviewed copy, and why it is rejected; never trustable. Capability
 * changes cannot be computed without a manifest, so the diff lists files only.
 */
function reviewInvalid(item: Item, ctx: LifecycleContext, failure: string): Mutation<ReviewReport> {
  const state = ctx.store.read();
  const key = item.detail.bundleKey;
  // What is no trust unit (a skill of a plugin, one hook) has no bundle key, and nor does what
  // readInvalidBundle makes of it: the two would compare equal and review it as a manifest that does not load.
  if (key === undefined) return { ok: false, message: failure };
  const entry = state.ok ? state.state.bundles[key] : undefined;
  const receipt = entry?.trust ?? null;
  const disk = readInvalidBundle(item, receipt ? Object.keys(receipt.files) : [], ctx.host);
  if (!disk || disk.bundleKey !== key) return { ok: false, message: failure };
  const refusal =
    invalidBundleRefusal(disk.item, disk.diagnostics, disk.root) ??
    `${item.name} cannot be trusted or enabled: ${failure}`;
  const diff = receipt
    ? diffAgainstReceipt(receipt, receipt.capabilities, disk.files, disk.root, reviewedCopyOf(ctx, receipt))
    : null;
  return {
    ok: true,
    value: {
      item: disk.item,
      reviewToken: null,
      contentHash: disk.contentHash,
      capabilityHash: null,
      capabilities: null,
      files: disk.files,
      root: disk.root,
      parts: disk.parts,
      status: statusOf(receipt, disk.contentHash, null),
      enabled: hasEnableSwitch(item) && (entry?.enabled ?? false),
      receipt,
      diff,
      codewhaleTrustLine: null,
      notCovered: [],
      trustable: false,
      trustRefusal: refusal,
      diagnostics: disk.diagnostics,
      storeProblem: state.ok ? null : state.problem,
    },
  };
}

/** Why trust or enable is refused for a unit that does not load: its first error when it is invalid, else the read failure. */
function unloadable(item: Item, ctx: LifecycleContext, failure: string): string {
  const disk = readInvalidBundle(item, [], ctx.host);
  return (disk && invalidBundleRefusal(disk.item, disk.diagnostics, disk.root)) ?? failure;
}

/** The directory of the reviewed copy a receipt points at, when it is there. */
function reviewedCopyOf(ctx: LifecycleContext, receipt: Receipt): string | undefined {
  const dir = path.join(ctx.store.reviewedCopiesDir, receipt.contentHash);
  return fs.existsSync(dir) ? dir : undefined;
}

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

export async function enable(
  item: Item,
  ctx: LifecycleContext,
): Promise<Mutation<{ item: Item; note: string | null }>> {
  if (!hasEnableSwitch(item))
    // A Rivumi hook or skill is no unit either: its agent having no switch is not the first thing wrong.
    return { ok: false, message: item.trust === null ? notATrustUnit(item) : noEnableSwitchRefusal(item, 'enable') };
  const unavailable = storeProblem(ctx.store);
  if (unavailable) return { ok: false, message: unavailable };
  const read = readBundleSource(item, ctx.host);
  if (!read.ok) return { ok: false, message: unloadable(item, ctx, read.message) };
  const s = read.source;
  const invalid = invalidBundleRefusal(s.item, s.diagnostics, s.root);
  if (invalid) return { ok: false, message: invalid };
  const label = systemOf(s.item.system).unitLabel(s.item);
  // Re-hashing the reviewed copy can take long; it is done before the lock, whose section
  // must stay short (a writer that holds it past the stale time loses it). The copy is
  // named by its content hash, so what is verified here is what the check below needs.
  const copyVerified = verifyReviewedCopy(ctx.store.reviewedCopiesDir, s, s.item.contentHash as string);
  return ctx.store.mutate((state) => {
    // Checked against the store as it is now, under the lock, not against an older view.
    const entry = state.bundles[s.bundleKey];
    const status = statusOf(entry?.trust ?? null, s.item.contentHash as string, s.item.capabilityHash as string);
    if (status !== 'trusted')
      return { ok: false, message: `${label} \`${s.item.name}\` requires review before enablement (trust: ${status})` };
    if (!copyVerified) {
      // The message keeps the word users and tests know ("snapshot"): it names the reviewed copy.
      return {
        ok: false,
        message: `${label} \`${s.item.name}\` has no verified snapshot of what was reviewed; review and trust it again before enablement`,
      };
    }
    const inactive = s.item.detail.activation?.inactiveComponents ?? [];
    // In the agent's words; the tree and the panel do not offer what is refused here (enableSwitch.ts).
    const block = enableBlock(s.item, s.applicable);
    if (block === 'staged_skill_invalid')
      // The agent loads the skills from its snapshot, and one that fails to load leaves it no
      // verified snapshot (codewhale.md §8.6): enabling it would switch on nothing.
      return {
        ok: false,
        message: `${label} \`${s.item.name}\` has no verified snapshot: a skill in it cannot be loaded (see its skill-invalid problems); fix it, then review and trust it again before enablement`,
      };
    if (block === 'not_applicable')
      return { ok: false, message: `${label} \`${s.item.name}\` does not apply to this host` };
    if (block === 'unsupported')
      return {
        ok: false,
        message: `${label} \`${s.item.name}\` has no supported declarative components to activate; inactive: ${inactive.join(', ')}`,
      };
    if (ctx.workspaceTrusted === false)
      return { ok: false, message: 'Restricted Mode: trust the workspace in VS Code before enabling its bundles.' };
    state.bundles[s.bundleKey] = touched({ ...(entry as BundleState), enabled: true });
    const note =
      s.item.compatibility === 'partial'
        ? `Compatibility: partial. Supported declarative components are active; inactive: ${inactive.join(', ')}.`
        : null;
    return { ok: true, value: { item: s.item, note } };
  });
}

export async function disable(item: Item, ctx: LifecycleContext): Promise<Mutation<{ changed: boolean }>> {
  if (!hasEnableSwitch(item))
    // A Rivumi hook or skill is no unit either: its agent having no switch is not the first thing wrong.
    return { ok: false, message: item.trust === null ? notATrustUnit(item) : noEnableSwitchRefusal(item, 'disable') };
  return setBit(item, ctx, (entry) => ({ ...entry, enabled: false }));
}

/** Drops the receipt; the history and the enable bit stay (codewhale.md §8.4). */
export async function revoke(item: Item, ctx: LifecycleContext): Promise<Mutation<{ changed: boolean }>> {
  return setBit(item, ctx, (entry) => ({ ...entry, trust: null }));
}

async function setBit(
  item: Item,
  ctx: LifecycleContext,
  change: (e: BundleState) => BundleState,
): Promise<Mutation<{ changed: boolean }>> {
  const unavailable = storeProblem(ctx.store);
  if (unavailable) return { ok: false, message: unavailable };
  const key = item.detail.bundleKey;
  if (!key) return { ok: false, message: notATrustUnit(item) };
  return ctx.store.mutate<{ changed: boolean }>((state) => {
    const entry = state.bundles[key];
    if (!entry) return { ok: true, value: { changed: false } };
    const next = change(entry);
    // Already so (revoked twice, disabled while off): nothing changes, and nothing is said to.
    if (next.trust === entry.trust && next.enabled === entry.enabled) return { ok: true, value: { changed: false } };
    state.bundles[key] = touched(next);
    return { ok: true, value: { changed: true } };
  });
}

export interface CheckFailure {
  readonly item: Item;
  readonly problem: string;
}

/** Why a bundle the agents load fails `check` while the store cannot be read: its receipt, if any, is unknown. */
export const STORE_UNAVAILABLE_PROBLEM = 'the trust store is unavailable, so it counts as not trusted';

/**
 * The gate for CI or a pre-launch hook: every bundle an agent would load is trusted at
 * its current hashes, and nothing enabled has drifted. Rivumi loads its plugins (and,
 * when opted in, its hooks) without asking, so those must be trusted; Codewhale loads
 * only enabled bundles, so an enabled bundle must still match its receipt.
 *
 * With the trust store unavailable the same bundles are chosen, by the same `loads`: the
 * index has already decided them fail-closed (gates.ts: no receipt, nothing enabled), so a
 * rejected, display-only or shadowed bundle is never named as one the agents load. The gate
 * still fails then, listed or not: `checkPasses`.
 */
export function check(snapshot: Snapshot): CheckFailure[] {
  const failures: CheckFailure[] = [];
  // [Skillgate] What Skillgate failed to read (a `skillgate.internal` fault) cannot be vouched for, enabled or not.
  const faulted = new Set(
    snapshot.diagnostics.filter((d) => d.code === 'skillgate.internal' && d.itemId !== null).map((d) => d.itemId),
  );
  for (const item of snapshot.items) {
    if (faulted.has(item.id)) {
      failures.push({
        item,
        problem: 'Skillgate could not read it (internal error), so it cannot say what the agent would load',
      });
      continue;
    }
    if (item.trust === null) continue;
    if (!systemOf(item.system).loads(item)) continue;
    const notCovered = item.detail.notCovered ?? [];
    if (notCovered.length > 0) failures.push({ item, problem: `it cannot be trusted: ${notCovered.join('; ')}` });
    else if (item.decision === 'rejected')
      failures.push({ item, problem: `it is invalid (${item.reasons.join(', ')})` });
    else if (snapshot.trustProblem)
      // Its trust reads `not-reviewed` only because no receipt can be read: not "it is not reviewed".
      failures.push({ item, problem: STORE_UNAVAILABLE_PROBLEM });
    else if (item.trust !== 'trusted')
      failures.push({
        item,
        problem:
          item.trust === 'not-reviewed' ? 'it is not reviewed' : `it changed since it was trusted (${item.trust})`,
      });
  }
  return failures;
}

/**
 * Whether `check` passes with these failures (`check(snapshot)`). A trust store that cannot
 * be read fails it whenever there is a bundle at all (trust.md "Fail closed"): no receipt can
 * be read, so no bundle can be vouched for, even when none of them is one the agents load.
 */
export function checkPasses(snapshot: Snapshot, failures: readonly CheckFailure[]): boolean {
  return failures.length === 0 && !(snapshot.trustProblem && snapshot.items.some((i) => i.trust !== null));
}

export interface DoctorReport {
  readonly store: string;
  readonly problem: string | null;
  /** The problem is the file's content, which `--repair` moves aside; else its place, which the problem says how to fix. */
  readonly repairable: boolean;
  readonly bundles: number;
  readonly staleReceipts: { key: string; name: string; path: string }[];
  readonly unreferencedSnapshots: string[];
  readonly pruned: string[];
  /** Why `--prune` pruned nothing (another process writing the store). */
  readonly notPruned: string | null;
  readonly movedAside: string | null;
  /** Every bad file `--repair` has moved aside and that is still there (`movedAside` among them). */
  readonly setAside: string[];
}

/**
 * Store health, stale receipts (their bundle is gone) and reviewed copies no receipt refers
 * to (`unreferencedSnapshots` in the JSON contract; TrustStore.reviewedCopies).
 */
export function doctor(
  store: TrustStore,
  options: { repair?: boolean; prune?: boolean; now?: number } = {},
): DoctorReport {
  let movedAside: string | null = null;
  let read = store.read();
  if (!read.ok && options.repair) {
    const repaired = store.repair();
    movedAside = repaired.moved;
    read = store.read();
    // A bad file that could not be moved aside: the report says why, beside what is wrong with it.
    if (!read.ok && read.badFile && movedAside === null && repaired.problem !== null)
      read = { ...read, problem: repaired.problem };
  }
  if (!read.ok)
    return {
      store: store.file,
      problem: read.problem,
      repairable: read.badFile,
      bundles: 0,
      staleReceipts: [],
      unreferencedSnapshots: [],
      pruned: [],
      notPruned: null,
      movedAside,
      setAside: store.setAside(),
    };
  const entries = Object.entries(read.state.bundles);
  const copies = store.reviewedCopies({
    ...(options.prune ? { prune: true } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
  return {
    store: store.file,
    problem: null,
    repairable: false,
    bundles: entries.length,
    staleReceipts: entries
      .filter(([, e]) => !fs.existsSync(osPath(e.path)))
      .map(([key, e]) => ({ key, name: e.name, path: e.path })),
    unreferencedSnapshots: copies.unreferenced,
    pruned: copies.pruned,
    notPruned: copies.notPruned,
    movedAside,
    setAside: store.setAside(),
  };
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
  return `Cannot trust ${name}: it runs or loads ${notCovered.length === 1 ? 'a file' : `${notCovered.length} files`} this trust cannot cover (${notCovered.join('; ')}). Nothing was changed; make each one a regular file inside the workspace that you may read, reached without a symbolic link, or stop using it, then review again.`;
}

function storeProblem(store: TrustStore): string | undefined {
  const r = store.read();
  return r.ok ? undefined : unavailableMessage(r);
}
