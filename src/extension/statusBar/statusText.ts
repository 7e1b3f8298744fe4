import { statusCounts } from './statusCounts';
import type { TreeFilter } from '../tree/treeNodes';
import type { Snapshot } from '../../core/index/snapshot';

/** How loud the status bar is: the worst state in the snapshot. */
export type StatusLevel = 'error' | 'warning' | 'plain';

export interface StatusSummary {
  readonly text: string;
  /** The counts in words, one a line. */
  readonly tooltip: string;
  readonly level: StatusLevel;
  /** What a click shows: the worst state's bundles. */
  readonly filter: TreeFilter;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The status bar's text, tooltip and colour: error when anything is rejected (or the
 * trust store fails closed), warning when something needs review (`needsReview`: what an
 * agent loads unreviewed is among it), plain when everything is trusted.
 */
export function statusSummary(snapshot: Snapshot): StatusSummary {
  const c = statusCounts(snapshot);
  const loaded = c.loadedUnreviewed > 0 ? ` $(warning) ${c.loadedUnreviewed}` : '';
  const lines = [`${c.active} active`];
  if (c.loadedUnreviewed > 0) lines.push(`${c.loadedUnreviewed} loaded although not reviewed`);
  lines.push(`${plural(c.needsReview, 'needs', 'need')} review`, `${c.rejected} rejected`);
  if (snapshot.trustProblem) lines.push('the trust store is unreadable: everything fails closed');
  const level: StatusLevel =
    c.rejected > 0 || snapshot.trustProblem ? 'error' : c.needsReview > 0 ? 'warning' : 'plain';
  const filter: TreeFilter = c.rejected > 0 ? 'rejected' : c.needsReview > 0 ? 'needsReview' : 'all';
  const click =
    filter === 'rejected'
      ? 'Click to show the rejected bundles.'
      : filter === 'needsReview'
        ? 'Click to show the bundles that need review.'
        : 'Click to show Skillgate.';
  return {
    text: `$(shield) ${c.active}${loaded} $(eye) ${c.needsReview} $(error) ${c.rejected}`,
    tooltip: `Skillgate\n${lines.join('\n')}\n\n${click}`,
    level,
    filter,
  };
}
