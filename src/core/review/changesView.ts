import * as path from 'node:path';
import type { ReviewReport } from '../trust/reviewBundle';
import { relativeTime } from './relativeTime';
import { diffLines } from './diffLines';
import type { ReviewViewModel, Shown } from './reviewModel';
import type { ShowText } from './shown';

/**
 * A bundle that cannot be walked now (a link in it, past a limit) has no list of its files:
 * only the files the receipt names are compared, so "no file changes" would hide a file
 * added since. Said in place of it.
 */
export const FILES_REVIEWED_ONLY =
  'The bundle cannot be walked now (see Diagnostics), so only the files you reviewed are compared: a file added since is not listed.';

/** What changed since the last review: the capabilities first, then the files with their diffs; null without a review to compare with. */
export function changesView(r: ReviewReport, now: Date, S: ShowText): ReviewViewModel['changes'] {
  if (!r.diff) return null;
  const argvOf = (v: unknown): Shown[] => (Array.isArray(v) ? v.map((x) => S(String(x))) : []);
  return {
    reviewedAt: r.receipt?.reviewedAt ?? '',
    reviewedAgo: r.receipt ? `reviewed ${relativeTime(r.receipt.reviewedAt, now)}` : 'reviewed at an unknown time',
    filesNote: r.contentHash === null ? FILES_REVIEWED_ONLY : null,
    capabilities: r.diff.capabilities.map((c) => ({
      change: c.change,
      summary: S(c.summary),
      argv:
        /\.(args|argv)$/.test(c.path) && c.change === 'changed'
          ? { before: argvOf(c.before), after: argvOf(c.after) }
          : null,
    })),
    files: r.diff.files.map((f) => ({
      path: S(f.path),
      file: path.join(r.root, f.path),
      change: f.change,
      note: f.note ?? null,
      diff: diffLines(f.unifiedDiff ?? '', S),
    })),
  };
}
