import type { ReviewViewModel } from '../../../core/review/reviewModel';
import { el, section, shownIn } from './dom';

/** What the hooks run that trust cannot cover: listed first, since it blocks trust. */
export function notCoveredSection(notCovered: ReviewViewModel['notCovered']): HTMLElement {
  const s = section(`Not covered by this trust (${notCovered.length}): trust is refused`, 'error', 'not-covered');
  const list = el('ul');
  for (const n of notCovered) {
    list.append(shownIn('li', 'diag diag-error', n));
  }
  s.append(list);
  return s;
}
