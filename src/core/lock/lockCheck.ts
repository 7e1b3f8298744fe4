import type { Snapshot } from '../index/snapshot';
import { systemOf } from '../systems/registry';
import type { Item, System } from '../model';
import { lockPath, samePlaceBundles, sortEntries, unpinnable, workspaceBundles, type LockEntry } from './lockFile';

/**
 * How one bundle stands against the lock (cli.md `check --lock`):
 * `pinned` (in the lock with exactly its current token), `new` (not in the lock),
 * `changed` (another token), `gone` (in the lock, not in the repository), `unpinnable`
 * (it has no token that covers what it runs, so no lock can vouch for it).
 */
export type LockStatus = 'pinned' | 'new' | 'changed' | 'gone' | 'unpinnable';

export interface LockFinding {
  readonly status: LockStatus;
  readonly system: System;
  readonly name: string;
  readonly path: string;
  /** The bundle, when it is in the repository (not for `gone`). */
  readonly item: Item | null;
  readonly reviewToken: string | null;
  readonly lockedReviewToken: string | null;
  /** For `changed`: which half of the token moved (the token pair is all CI has; the reviewed copy lives on a reviewer's machine). */
  readonly contentChanged: boolean;
  readonly capabilitiesChanged: boolean;
  /** For `changed` capabilities, each change in words when this machine holds the reviewed copy the lock pins; else null. */
  readonly capabilityChanges: readonly string[] | null;
  /** One sentence for the terminal and SARIF. */
  readonly message: string;
}

/** Every bundle of one workspace folder against one lock, in lock order (path, then system). */
export function checkAgainstLock(
  snapshot: Snapshot,
  workspace: string,
  lock: readonly LockEntry[],
  lockName: string,
  changesSinceLocked: (item: Item, lockedToken: string) => readonly string[] | null = () => null,
): LockFinding[] {
  const locked = new Map(lock.map((e) => [`${e.system}\u0000${e.path}`, e]));
  const findings: LockFinding[] = [];
  const present = new Set<string>();
  const items = workspaceBundles(snapshot, workspace);
  const shared = samePlaceBundles(items, workspace);
  for (const item of items) {
    const rel = lockPath(item, workspace);
    const key = `${item.system}\u0000${rel}`;
    present.add(key);
    const entry = locked.get(key);
    const base = {
      system: item.system,
      name: item.name,
      path: rel,
      item,
      reviewToken: item.reviewToken,
      lockedReviewToken: entry?.reviewToken ?? null,
      capabilityChanges: null,
    };
    const cannot = unpinnable(item, shared.has(item));
    if (cannot !== null) {
      findings.push({
        ...base,
        status: 'unpinnable',
        contentChanged: false,
        capabilitiesChanged: false,
        message: `${describe(item.system, item.name, rel)} cannot be pinned: ${cannot}.`,
      });
    } else if (!entry) {
      findings.push({
        ...base,
        status: 'new',
        contentChanged: false,
        capabilitiesChanged: false,
        message: `${describe(item.system, item.name, rel)} is not in ${lockName}: review it, then run \`skillgate lock\`.`,
      });
    } else if (entry.reviewToken !== item.reviewToken) {
      const [oldContent, oldCaps] = entry.reviewToken.split('.');
      const contentChanged = oldContent !== item.contentHash;
      const capabilitiesChanged = oldCaps !== item.capabilityHash;
      const changes = capabilitiesChanged ? changesSinceLocked(item, entry.reviewToken) : null;
      const listed =
        changes && changes.length > 0 ? ` (since the reviewed copy in your trust store: ${changes.join('; ')})` : '';
      const what = capabilitiesChanged
        ? `${contentChanged ? 'its content and its capabilities changed' : 'its capabilities changed'}${listed}`
        : 'its content changed (capabilities unchanged)';
      findings.push({
        ...base,
        capabilityChanges: changes,
        status: 'changed',
        contentChanged,
        capabilitiesChanged,
        message: `${describe(item.system, item.name, rel)} differs from ${lockName}: ${what}; review it, then run \`skillgate lock\`.`,
      });
    } else {
      findings.push({
        ...base,
        status: 'pinned',
        contentChanged: false,
        capabilitiesChanged: false,
        message: `${describe(item.system, item.name, rel)} is pinned at its current review token.`,
      });
    }
  }
  for (const entry of lock) {
    if (present.has(`${entry.system}\u0000${entry.path}`)) continue;
    findings.push({
      status: 'gone',
      system: entry.system,
      name: entry.name,
      path: entry.path,
      item: null,
      reviewToken: null,
      lockedReviewToken: entry.reviewToken,
      contentChanged: false,
      capabilitiesChanged: false,
      capabilityChanges: null,
      message: `${describe(entry.system, entry.name, entry.path)} is pinned in ${lockName} but no longer in the repository: run \`skillgate lock\`.`,
    });
  }
  return sortEntries(findings);
}

function describe(system: System, name: string, rel: string): string {
  return `${systemOf(system).label} bundle ${name} (${rel})`;
}
