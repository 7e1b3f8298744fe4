import { displayText } from '../text/displayText';
import { FILES_REVIEWED_ONLY } from './changesView';
import { capabilitiesUnknown } from './missingHashes';
import type { ReviewReport } from '../trust/reviewBundle';

/** The text review's "What changed since your last review": capability changes before file changes; nothing without a receipt to compare with. */
export function changesText(r: ReviewReport): string[] {
  if (!r.diff) return [];
  const out = ['', `What changed since your last review (${r.receipt?.reviewedAt ?? 'unknown'}):`];
  out.push('  Capabilities:');
  if (r.capabilities === null) out.push(`    (${capabilitiesUnknown(r.item)})`);
  else if (r.diff.capabilities.length === 0) out.push('    (no capability changes)');
  for (const c of r.diff.capabilities)
    out.push(`    ${c.change === 'added' ? '+' : c.change === 'removed' ? '-' : '~'} ${displayText(c.summary)}`);
  out.push('  Files:');
  if (r.contentHash === null) out.push(`    (${FILES_REVIEWED_ONLY})`);
  if (r.diff.files.length === 0)
    out.push(r.contentHash === null ? '    (none of them changed)' : '    (no file changes)');
  for (const f of r.diff.files) {
    const tag = f.change === 'added' ? 'A' : f.change === 'removed' ? 'D' : 'M';
    out.push(`    ${tag} ${displayText(f.path)}${f.note ? `  (${f.note})` : ''}`);
    if (f.unifiedDiff)
      for (const line of f.unifiedDiff.split('\n'))
        if (line !== '' && !line.startsWith('====')) out.push(`      ${displayText(line)}`);
  }
  return out;
}
