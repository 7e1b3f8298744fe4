import * as fs from 'node:fs';
import * as path from 'node:path';
import type { TrustState } from './stateSchema';
import { lstatOrUndefined } from '../fs/lstatOrUndefined';

/**
 * A reviewed copy or staging directory changed this recently may belong to a trust in
 * progress: `trust` copies the bundle before it takes the lock to write its receipt, so
 * holding the lock cannot tell its copy from an abandoned one; age can. An abandoned
 * copy merely waits this long longer to be pruned.
 */
const FRESH_COPY_MS = 60 * 60 * 1000;

/**
 * The entries of the reviewed copies' directory that `doctor` lists and `doctor --prune`
 * removes: reviewed copies no receipt or history of `state` refers to, and staging
 * directories of abandoned trusts, unless changed within `FRESH_COPY_MS` of `now`. In
 * code-unit order of name.
 */
export function unreferencedCopies(state: TrustState, reviewedCopiesDir: string, now: number): string[] {
  const referenced = new Set(
    Object.values(state.bundles).flatMap((e) =>
      [e.trust?.contentHash, ...e.reviewHistory.map((r) => r.contentHash)].filter((h): h is string => !!h),
    ),
  );
  let names: string[];
  try {
    names = fs.readdirSync(reviewedCopiesDir);
  } catch {
    return [];
  }
  return names
    .filter((n) => (/^[0-9a-f]{64}$/.test(n) || n.startsWith('.staging-')) && !referenced.has(n))
    .filter((n) => {
      const st = lstatOrUndefined(path.join(reviewedCopiesDir, n));
      // A rename sets the change time, so a copy renamed into place just now counts as fresh.
      return st !== undefined && now - Math.max(st.mtimeMs, st.ctimeMs) >= FRESH_COPY_MS;
    })
    .sort();
}
