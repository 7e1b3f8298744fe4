import { byteOrder } from '../fs/rawNames';
import { capabilityChanges, type CapabilityChange } from './capabilityChanges';
import { fileChanges, type FileChange } from './fileChanges';
import { directoryChanges } from './directoryChanges';
import type { HashedUnit } from './unitFileRead';
import type { BundleFile } from '../model';
import type { Receipt } from './stateSchema';
import type { Capabilities } from '../capabilities';

export type { CapabilityChange, FileChange };

export interface ReviewDiff {
  readonly capabilities: CapabilityChange[];
  readonly files: FileChange[];
}

/**
 * What changed since the receipt: capability changes first (what the bundle can now
 * do), then file changes with unified diffs against the reviewed copy. Capabilities are
 * compared as stored (capabilities.ts): a receipt's record that is not the typed model
 * (another tool's, a damaged one) compares as such, every capability then shows as new.
 * The current side of a diff is read as the unit's hash read it (unitFileRead.ts
 * `readFromUnit`): by the unit's own `readCovered` when it has one (BundleSource: Eva's
 * skill folder), else beneath `currentRoot` or the unit's `manifest`'s directory; never
 * through a directory swapped for a link since the hash.
 */
export function diffAgainstReceipt(
  receipt: Receipt,
  capabilities: Capabilities | Record<string, unknown>,
  files: readonly BundleFile[],
  currentRoot: string,
  reviewedCopy: string | undefined,
  directories: readonly string[] = [],
  manifest?: string,
  readCovered?: HashedUnit['readCovered'],
): ReviewDiff {
  const unit: HashedUnit = { root: currentRoot, item: { path: manifest }, ...(readCovered ? { readCovered } : {}) };
  const changed = fileChanges(receipt, files, unit, reviewedCopy);
  const dirs = reviewedCopy ? directoryChanges(files, directories, reviewedCopy) : [];
  return {
    capabilities: capabilityChanges(receipt.capabilities, capabilities),
    files: dirs.length ? [...changed, ...dirs].sort((a, b) => byteOrder(a.path, b.path)) : changed,
  };
}
