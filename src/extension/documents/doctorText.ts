import { displayText } from '../../core/text/displayText';
import { UNAVAILABLE_EFFECT } from '../../core/trust/trustStore';
import type { SkillgateService } from '../skillgateService';

/** The Doctor report as plain text, every line escaped (it names paths a repository chose). */
export function doctorText(service: SkillgateService): string {
  const report = service.doctor();
  const lines = [
    `Trust store: ${report.store}`,
    report.problem
      ? `UNAVAILABLE: ${report.problem}\n${UNAVAILABLE_EFFECT} ${report.repairable ? '`skillgate doctor --repair` moves the file aside.' : 'Fix it as it says (the file may hold sound trust records, so `skillgate doctor --repair` leaves it where it is).'}`
      : `Healthy: ${report.bundles} bundle record(s).`,
    ...report.setAside.map(
      (f) => `Moved aside by \`skillgate doctor --repair\` (never read; delete it once you no longer need it): ${f}`,
    ),
    ...report.staleReceipts.map(
      (s) => `Stale receipt: ${displayText(s.name)} (${displayText(s.path)} no longer exists)`,
    ),
    // Which snapshots a receipt references is in the store: unreadable, they are not counted.
    report.problem
      ? 'Unreferenced snapshots: not counted while the trust store is unavailable.'
      : `Unreferenced snapshots: ${report.unreferencedSnapshots.length}`,
  ];
  return lines.map((l) => displayText(l, 'multi-line')).join('\n') + '\n';
}
