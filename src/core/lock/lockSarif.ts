import { displayPath, owningWorkspace } from '../report/contract';
import { fingerprintFile, fingerprintPlace, runFingerprints } from '../report/sarifFingerprint';
import { sarifLocation, sarifLog, sarifRegion, workspaceBaseId, type SarifRegion } from '../report/sarif';
import { unreadPlaceProblem } from '../trust/checkGate';
import type { Diagnostic } from '../model';
import type { LockFinding } from './lockCheck';

/** The rule of a place Skillgate's own limits left unread, which no lock entry can name. */
const UNREAD_RULE = 'skillgate.lock.unread';

/** What `check --lock` found in one workspace folder, and where its lock file is. */
export interface LockReport {
  readonly workspace: string;
  /** Absolute path of the lock file. */
  readonly lockFile: string;
  readonly findings: readonly LockFinding[];
  /** Where a bundle's entry is in the lock (where a `gone` bundle is reported). */
  readonly placeInLock: (finding: LockFinding) => LockPlace;
}

/** A place on one line of the lock: its 1-based line, the 1-based column it starts at and the one it ends before. */
export interface LockPlace {
  readonly line: number;
  readonly startColumn: number;
  readonly endColumn: number;
}

/**
 * SARIF 2.1.0 for `check --lock`: one error result per bundle that is not pinned, at the
 * bundle's manifest (or, for a bundle that is gone, at its entry in the lock). Paths are
 * relative to their workspace folder (`%SRCROOT%`, `%SRCROOT2%`, …), as in `validate`'s SARIF. The
 * fingerprint is the rule, system and path, never the token, which changes every commit.
 * `unread`: the places Skillgate's own limits left unread (checkGate.ts `unreadPlaces`), which fail
 * `check --lock` with no bundle to name: one error result each (UNREAD_RULE) at the diagnostic's file and
 * range, so code scanning shows why the job failed. Its fingerprint is the rule, the place's path
 * (sarifFingerprint.ts `fingerprintPlace`, as `validate`'s SARIF names it: the directory whose cap was
 * hit, not its first skipped file, which a new file sorting before it moves) and the diagnostic code,
 * never the message, whose counts change as files are added.
 * Within what code scanning takes (sarifLimits.ts): past it, the first bundles and a count of the rest.
 */
export function lockSarif(reports: readonly LockReport[], version: string, unread: readonly Diagnostic[] = []): object {
  const failing = reports.flatMap((r) => r.findings.filter((f) => f.status !== 'pinned').map((f) => ({ r, f })));
  const used = [
    ...new Set([...failing.map(({ f }) => `skillgate.lock.${f.status}`), ...(unread.length ? [UNREAD_RULE] : [])]),
  ].sort();
  const fingerprint = runFingerprints();
  const workspaces = reports.map((r) => r.workspace);
  // Relative to the finding's own workspace folder, as in `validate`'s SARIF; a file outside it (a --lock elsewhere) is absolute.
  const location = (file: string, base: number, region: SarifRegion) =>
    sarifLocation(displayPath(file, [reports[base]?.workspace ?? '']), base, region);
  const lockLocation = (r: LockReport, base: number, at: LockPlace) =>
    location(r.lockFile, base, {
      startLine: at.line,
      startColumn: at.startColumn,
      endLine: at.line,
      endColumn: at.endColumn,
    });
  return sarifLog(
    version,
    used,
    workspaces,
    [
      ...failing.map(({ r, f }) => {
        const ruleId = `skillgate.lock.${f.status}`;
        const base = reports.indexOf(r);
        const where = f.item
          ? location(f.item.location.file, base, sarifRegion(f.item.location.range))
          : lockLocation(r, base, r.placeInLock(f));
        return {
          ruleId,
          ruleIndex: used.indexOf(ruleId),
          level: 'error' as const,
          message: { text: f.message },
          locations: [where],
          partialFingerprints: fingerprint(
            ruleId,
            fingerprintFile(displayPath(r.lockFile, [r.workspace]), workspaceBaseId(base)),
            `${f.system}\u0000${f.path}`,
          ),
          properties: {
            system: f.system,
            name: f.name,
            path: f.path,
            reviewToken: f.reviewToken,
            lockedReviewToken: f.lockedReviewToken,
            contentChanged: f.contentChanged,
            capabilitiesChanged: f.capabilitiesChanged,
          },
        };
      }),
      ...unread.map((d) => {
        const workspace = owningWorkspace(d.file, workspaces);
        const base = workspace === undefined ? -1 : workspaces.indexOf(workspace);
        const within = workspace === undefined ? [] : [workspace];
        const uri = displayPath(d.file, within);
        return {
          ruleId: UNREAD_RULE,
          ruleIndex: used.indexOf(UNREAD_RULE),
          level: 'error' as const,
          message: { text: unreadPlaceProblem(d) },
          locations: [sarifLocation(uri, base, sarifRegion(d.range))],
          partialFingerprints: fingerprint(
            UNREAD_RULE,
            fingerprintFile(
              displayPath(fingerprintPlace(d), within),
              workspace === undefined ? null : workspaceBaseId(base),
            ),
            d.code,
          ),
          properties: { workspace: workspace ?? null, code: d.code },
        };
      }),
    ],
    '`skillgate check --lock` (text or `--json`) lists them all',
  );
}
