// The render entry: the whole review, rebuilt into the root on every render, banners first.
import type { ReviewViewModel } from '../../../core/review/reviewModel';
import { capabilitiesSection } from './capabilities';
import { changesSection } from './changes';
import { contractSection, diagnosticsSection, filesSection, hashesSection } from './details';
import { el, icon } from './dom';
import { header } from './header';
import { notCoveredSection } from './notCovered';
import { root } from './panel';

export function render(m: ReviewViewModel, changed: boolean): void {
  root.replaceChildren(
    ...banners(m, changed),
    header(m),
    ...(m.notCovered.length ? [notCoveredSection(m.notCovered)] : []),
    ...(m.changes ? [changesSection(m.changes, m.capabilitiesUnknown)] : []),
    ...(m.contract ? [contractSection(m.contract)] : []),
    capabilitiesSection(m),
    filesSection(m.files),
    diagnosticsSection(m.diagnostics, m.diagnosticsNotShown),
    hashesSection(m.hashes),
  );
}

/** The bundle changed under an open review; it holds invisible characters. */
function banners(m: ReviewViewModel, changed: boolean): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (changed) {
    const banner = el('div', 'banner changed');
    banner.append(
      icon('warning'),
      el(
        'span',
        undefined,
        'This bundle changed on disk while this review was open. The review below shows it as it is now. If you trusted it before the change, that trust covered only the earlier version and no longer applies.',
      ),
    );
    out.push(banner);
  }
  if (m.hiddenCount > 0) {
    const banner = el('div', 'banner hidden');
    banner.append(
      icon('eye'),
      el(
        'span',
        undefined,
        `${m.hiddenCount} string(s) in this bundle contain invisible or bidirectional characters; they are shown as \\u{…} and flagged.`,
      ),
    );
    out.push(banner);
  }
  return out;
}
