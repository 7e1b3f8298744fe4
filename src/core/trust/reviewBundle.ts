import * as fs from 'node:fs';
import * as path from 'node:path';
import { readBundleSource } from './bundleSource';
import { invalidBundleRefusal, readInvalidBundle, unhashableRefusal, withReviewedFiles } from './invalidBundle';
import { diffAgainstReceipt, type ReviewDiff } from './reviewDiff';
import type { Receipt } from './stateSchema';
import type { HashedUnit } from './unitFileRead';
import { unavailableMessage, type Mutation } from './trustStore';
import { hasEnableSwitch } from './enableSwitch';
import { notCoveredRefusal } from './grantTrust';
import type { LifecycleContext } from './lifecycle';
import { systemOf } from '../systems/registry';
import { statusOf } from '../decisions/gates';
import type { Diagnostic, Item, ListedFile, TrustStatus } from '../model';
import type { Capabilities } from '../capabilities';

// Reviewing a bundle (trust.md "Operations", review): what it is and can do as read from disk
// now, what changed since its receipt, and whether trust would be refused and why. It writes nothing.

export interface ReviewReport {
  readonly item: Item;
  /** Null when the unit does not load and so has no capability hash (an invalid manifest). */
  readonly reviewToken: string | null;
  readonly contentHash: string | null;
  readonly capabilityHash: string | null;
  /** Null when an invalid manifest leaves what the unit can do unknown. */
  readonly capabilities: Capabilities | null;
  readonly files: Item['detail']['files'];
  /**
   * Every file the unit covers as far as Skillgate can name them, each hashed or with why not,
   * when what it cannot hash is among them (InvalidBundle `coveredFiles`: an Eva skill folder
   * with a link): what the text and the panel list as Files. Absent where `files` are all. Not
   * in `review --json`, whose `files` stay cli.md's (path, size, sha256, executable).
   */
  readonly coveredFiles?: readonly ListedFile[];
  /** The directory the files are relative to. */
  readonly root: string;
  /**
   * The unit's own reader of its files, as its hash read them (BundleSource `readCovered`:
   * Eva's skill folder), for the text the panel shows (trust/unitFileRead.ts `readFromUnit`);
   * absent where they are read beneath `root`. A function: no part of `review --json`.
   */
  readonly readCovered?: HashedUnit['readCovered'];
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
  /** False when trust (and enable, for an agent with the switch) is refused for what this review shows; `trustRefusal` says why. */
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
      ? diffAgainstReceipt(
          receipt,
          s.capabilities,
          files,
          s.root,
          reviewedCopyOf(ctx, receipt),
          s.directories,
          s.item.path,
          s.readCovered,
        )
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
      ...(s.readCovered ? { readCovered: s.readCovered } : {}),
      parts: s.parts,
      status,
      enabled: hasEnableSwitch(item) && (entry?.enabled ?? false),
      receipt,
      diff,
      // The agent drops a shadowed bundle (codewhale.md §2.6): its command, given the name, would name the winner.
      codewhaleTrustLine:
        refusal === null && item.decision !== 'shadowed' ? systemOf(s.item.system).agentTrustCommand(s.item) : null,
      notCovered: s.notCovered,
      trustable: refusal === null,
      trustRefusal: refusal,
      diagnostics: s.diagnostics,
      storeProblem: state.ok ? null : state.problem,
    },
  };
}

/**
 * The review of a unit that does not load (issue 10 #19), or that Skillgate cannot hash while
 * its agent loads it (an Eva skill with a link in its folder: eva.md §6.1): what is on disk
 * now, the file diff against the reviewed copy, and why it cannot be trusted; never trustable.
 * Capability changes are not computed without hashes, so the diff lists files only.
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
    unhashableRefusal(disk.item) ??
    `${item.name} cannot be ${hasEnableSwitch(item) ? 'trusted or enabled' : 'trusted'}: ${failure}`;
  const diff = receipt
    ? diffAgainstReceipt(
        receipt,
        receipt.capabilities,
        disk.files,
        disk.root,
        reviewedCopyOf(ctx, receipt),
        [],
        disk.item.path,
      )
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
      ...(disk.coveredFiles ? { coveredFiles: disk.coveredFiles } : {}),
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

/** The directory of the reviewed copy a receipt points at, when it is there. */
function reviewedCopyOf(ctx: LifecycleContext, receipt: Receipt): string | undefined {
  const dir = path.join(ctx.store.reviewedCopiesDir, receipt.contentHash);
  return fs.existsSync(dir) ? dir : undefined;
}
