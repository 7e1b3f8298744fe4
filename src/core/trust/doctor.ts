import * as fs from 'node:fs';
import { osPath } from '../fs/rawNames';
import type { TrustStore } from './trustStore';

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
