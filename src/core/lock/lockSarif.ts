import { artifactUri } from '../report/artifactUri';
import { displayPath } from '../report/contract';
import { fingerprintFile, runFingerprints } from '../report/sarifFingerprint';
import { sarifRule, workspaceBaseId, workspaceBaseIds } from '../report/sarif';
import type { LockFinding } from './lockCheck';

/** What `check --lock` found in one workspace folder, and where its lock file is. */
export interface LockReport {
  readonly workspace: string;
  /** Absolute path of the lock file. */
  readonly lockFile: string;
  readonly findings: readonly LockFinding[];
  /** 1-based line of a bundle's entry in the lock (where a `gone` bundle is reported). */
  readonly lineInLock: (finding: LockFinding) => number;
}

/**
 * SARIF 2.1.0 for `check --lock`: one error result per bundle that is not pinned, at the
 * bundle's manifest (or, for a bundle that is gone, at its entry in the lock). Paths are
 * relative to their workspace folder (`%SRCROOT%`, `%SRCROOT2%`, …), as in `validate`'s SARIF. The
 * fingerprint is the rule, system and path, never the token, which changes every commit.
 */
export function lockSarif(reports: readonly LockReport[], version: string): object {
  const failing = reports.flatMap((r) => r.findings.filter((f) => f.status !== 'pinned').map((f) => ({ r, f })));
  const used = [...new Set(failing.map(({ f }) => `skillgate.lock.${f.status}`))].sort();
  const rules = used.map(sarifRule);
  const fingerprint = runFingerprints();
  // Relative to the finding's own workspace folder, as in `validate`'s SARIF; a file outside it (a --lock elsewhere) is absolute.
  const location = (file: string, base: number, line: number, column: number) => {
    const uri = displayPath(file, [reports[base]?.workspace ?? '']);
    const relative = !uri.startsWith('/');
    return {
      physicalLocation: {
        artifactLocation: relative
          ? { uri: artifactUri(uri, true), uriBaseId: workspaceBaseId(base) }
          : { uri: `file://${artifactUri(uri, false)}` },
        region: { startLine: line, startColumn: column },
      },
    };
  };
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'Skillgate', version, rules } },
        originalUriBaseIds: workspaceBaseIds(reports.map((r) => r.workspace)),
        results: failing.map(({ r, f }) => {
          const ruleId = `skillgate.lock.${f.status}`;
          const base = reports.indexOf(r);
          const where = f.item
            ? location(
                f.item.location.file,
                base,
                f.item.location.range.start.line + 1,
                f.item.location.range.start.character + 1,
              )
            : location(r.lockFile, base, r.lineInLock(f), 1);
          return {
            ruleId,
            ruleIndex: used.indexOf(ruleId),
            level: 'error',
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
      },
    ],
  };
}
