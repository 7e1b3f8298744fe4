import { displayPath } from '../report/contract';
import type { Snapshot } from '../index/snapshot';
import type { Diagnostic, Severity } from '../model';
import type { ReviewReport } from '../trust/reviewBundle';
import type { ReviewViewModel } from './reviewModel';
import type { ShowText } from './shown';

/**
 * Diagnostics a review lists. They are findings, not reviewed content (every file stays
 * listed and can be opened); past this many the panel would hold tens of megabytes and
 * block the extension host while it builds them.
 */
export const MAX_REVIEW_DIAGNOSTICS = 500;
const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, information: 2 };

/** The unit's diagnostics the panel lists, errors first, and how many past the cap it only counts. */
export function diagnosticsView(
  r: ReviewReport,
  snapshot: Snapshot,
  S: ShowText,
): Pick<ReviewViewModel, 'diagnostics' | 'diagnosticsNotShown'> {
  const item = r.item;
  // As the repository wrote it: shown through S below, and two files whose names escape alike are still two.
  const where = (d: { file: string; range: { start: { line: number } } }) =>
    `${displayPath(d.file, snapshot.workspaces)}:${d.range.start.line + 1}`;
  // The index's diagnostics for the item and its children, and any the review's own read found that the index has not caught up with.
  const own = new Set([item.id, ...snapshot.items.filter((i) => i.parent === item.id).map((i) => i.id)]);
  const indexed = snapshot.diagnostics.filter((d) => d.itemId !== null && own.has(d.itemId));
  const key = (d: Diagnostic) => `${d.code}\0${where(d)}\0${d.message}`;
  const seen = new Set(indexed.map(key));
  const every = [...indexed, ...r.diagnostics.filter((d) => !seen.has(key(d)))];
  // Errors first, then the first of the rest: a manifest can declare 200,000 bad values, each its own finding.
  const diagnostics = [...every]
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity])
    .slice(0, MAX_REVIEW_DIAGNOSTICS);
  return {
    diagnostics: diagnostics.map((d) => ({
      severity: d.severity,
      code: d.code,
      message: S(d.message),
      file: d.file,
      where: S(where(d)),
      line: d.range.start.line,
      character: d.range.start.character,
    })),
    diagnosticsNotShown: every.length - diagnostics.length,
  };
}
