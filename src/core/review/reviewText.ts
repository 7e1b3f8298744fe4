import { argvText } from '../text/argvText';
import { displayText } from '../text/displayText';
import { displayPath, scopedPath } from '../report/contract';
import { capabilitiesText } from './capabilitiesText';
import { changesText } from './changesText';
import { hashesNotComputable } from './missingHashes';
import { systemOf } from '../systems/registry';
import { hasEnableSwitch } from '../trust/enableSwitch';
import type { Item } from '../model';
import type { ReviewReport } from '../trust/reviewBundle';

/**
 * The text review (`skillgate review`, and the editor's plain-text review): what a
 * reviewer must see, with every invisible character made visible. What changed since
 * the last review comes first, capability changes before file changes.
 */
export function reviewText(
  r: ReviewReport,
  workspaces: readonly string[],
  hooksOptIn: boolean,
  /** The agent's hook load fails for this unit (hookLoad.ts): with the opt-in set, none of its hooks run. */
  hookLoadFails = false,
  /**
   * The unit as the index decides it now: the review reads its own copy without the trust
   * store, so only this says whether the bundle is active. Absent, no line claims it is or is not.
   */
  current?: Pick<Item, 'decision'>,
): string {
  const out = [
    ...headerLines(r, workspaces),
    ...notCoveredLines(r),
    ...changesText(r),
    ...contractLines(r),
    ...capabilitiesText(r, hooksOptIn, hookLoadFails, current),
    ...fileLines(r),
    ...diagnosticLines(r, workspaces),
    ...hashLines(r),
    ...trustLines(r),
  ];
  // Each line is one line on the screen, whatever a value held (spec: nothing reaches a terminal raw).
  return out.map((line) => displayText(line)).join('\n') + '\n';
}

/** A value from the bundle as the review shows it: text escaped, anything else as its JSON. */
function shownValue(s: unknown): string {
  return displayText(typeof s === 'string' ? s : JSON.stringify(s));
}

/** The unit, where it is, its trust and whether it can be trusted at all. */
function headerLines(r: ReviewReport, workspaces: readonly string[]): string[] {
  const item = r.item;
  const out = [`Review: ${shownValue(item.name)} (${item.system} ${item.kind}, ${item.scope})`];
  out.push(`  path: ${scopedPath(item, item.path, workspaces)}`);
  // An agent without an enable switch loads the unit whatever a stored bit says: no "enabled: false" for it.
  out.push(`  trust: ${r.status}, ${hasEnableSwitch(item) ? `enabled: ${r.enabled}` : 'no enable switch'}`);
  if (r.storeProblem)
    out.push(
      `  trust store unavailable: ${shownValue(r.storeProblem)}; no receipt can be read, so what changed since your last review cannot be shown`,
    );
  // Files trust cannot cover get their own section just below; the refusal closes the review either way.
  if (!r.trustable && r.notCovered.length === 0)
    out.push(`  not trustable: ${shownValue(r.trustRefusal ?? 'this bundle cannot be trusted')}`);
  if (item.detail.description) out.push(`  description: ${shownValue(item.detail.description)}`);
  return out;
}

function notCoveredLines(r: ReviewReport): string[] {
  if (!r.notCovered.length) return [];
  return [
    '',
    'Not covered by this trust (trust is refused until each is fixed):',
    ...r.notCovered.map((n) => `  not covered by this trust: ${shownValue(n)}`),
  ];
}

/** The agent's own statement of what the unit declares, when it has one. */
function contractLines(r: ReviewReport): string[] {
  const contract = systemOf(r.item.system).reviewContract?.(r.item) ?? null;
  if (!contract) return [];
  const width = Math.max(...contract.rows.map((row) => row.label.length));
  return [
    '',
    `${contract.title}:`,
    ...contract.rows.map((row) => `  ${row.label.padEnd(width)}  ${shownValue(row.value)}`),
  ];
}

function fileLines(r: ReviewReport): string[] {
  // Of a unit Skillgate cannot hash, every file it covers: the one that stops the hash is the one the reviewer needs.
  const files = r.coveredFiles ?? r.files ?? [];
  const unhashed = files.filter((f) => 'unhashed' in f).length;
  return [
    '',
    `Files (${files.length}${unhashed ? `, ${unhashed} not hashed` : ''}):`,
    ...files.map((f) =>
      'unhashed' in f
        ? `  ! ${'?'.padStart(9)}  ${'not hashed'.padEnd(12)}  ${shownValue(f.path)}  (${shownValue(f.unhashed)})`
        : `  ${f.executable ? 'x' : '-'} ${String(f.size).padStart(9)}  ${f.sha256.slice(0, 12)}  ${shownValue(f.path)}`,
    ),
  ];
}

function diagnosticLines(r: ReviewReport, workspaces: readonly string[]): string[] {
  return [
    '',
    `Diagnostics (${r.diagnostics.length}):`,
    ...(r.diagnostics.length === 0 ? ['  none'] : []),
    ...r.diagnostics.map(
      (d) =>
        `  ${d.severity.padEnd(11)} ${d.code}  ${displayPath(d.file, workspaces)}:${d.range.start.line + 1}  ${shownValue(d.message)}`,
    ),
  ];
}

function hashLines(r: ReviewReport): string[] {
  const none = `not computable (${hashesNotComputable(r.item)})`;
  return [
    '',
    `Content hash:    ${r.contentHash ?? none}`,
    `Capability hash: ${r.capabilityHash ?? none}`,
    `Review token:    ${r.reviewToken ?? none}`,
    '',
  ];
}

/** How to trust exactly what was shown, or why trust is refused. */
function trustLines(r: ReviewReport): string[] {
  const item = r.item;
  const out: string[] = [];
  // An agent without an enable switch has no enable to refuse (trust.md "Status"): trust alone is.
  if (!r.trustable || r.reviewToken === null)
    out.push(
      `${hasEnableSwitch(item) ? 'Trust and enable are refused' : 'Trust is refused'}: ${shownValue(r.trustRefusal ?? 'this bundle cannot be hashed')}`,
    );
  // A line to paste into a shell: the id holds a repository's file name (`x;touch PWNED.json`), so it is quoted as a word.
  else out.push(`To trust exactly this: ${argvText(['skillgate', 'trust', item.id, r.reviewToken])}`);
  // The agent's own command for the same review, when it has one (`codewhaleTrustLine` keeps its JSON name).
  if (r.codewhaleTrustLine) out.push(`${systemOf(item.system).label} accepts the same token: ${r.codewhaleTrustLine}`);
  return out;
}
