import { gzipSync } from 'node:zlib';
import { sarifFingerprint } from './sarifFingerprint';
import { thousands } from '../text/thousands';

/**
 * The most results GitHub code scanning takes in one run: an upload with more is rejected
 * whole ("Analysis SARIF file rejected due to result limits"), so the gate shows nothing.
 * docs.github.com, code-security/code-scanning/troubleshooting-sarif-uploads/results-exceed-limit
 * ("Results per run | 25,000"; and sarif-support-for-code-scanning, "Validating your SARIF file").
 */
const CODE_SCANNING_RESULTS_PER_RUN = 25_000;

/**
 * The largest gzip-compressed SARIF file code scanning takes (…/troubleshooting-sarif-uploads/file-too-large:
 * "larger than the maximum size of 10 MB"), read as 10,000,000 bytes, the smaller sense of "MB".
 * `github/codeql-action/upload-sarif` gzips `JSON.stringify` of the log (upload-lib.ts
 * `uploadFiles`) after adding a `primaryLocationLineHash` to every result (fingerprints.ts
 * `addFingerprints`), about 60 bytes each: the log is kept 1,000,000 bytes below, room for
 * 25,000 of them even where they do not compress.
 */
const CODE_SCANNING_GZIP_BYTES = 10_000_000;
const UPLOADER_HEADROOM_BYTES = 1_000_000;
const BUDGET = CODE_SCANNING_GZIP_BYTES - UPLOADER_HEADROOM_BYTES;

/** The rule of the one result that says what a run left out. */
const TRUNCATED_RULE = 'skillgate.sarif.truncated';

type Level = 'error' | 'warning' | 'note';
const LEVELS: readonly Level[] = ['error', 'warning', 'note'];

export interface LimitedResult {
  readonly ruleId: string;
  readonly level: Level;
  readonly locations: readonly unknown[];
}
interface LimitedRun {
  readonly tool: { readonly driver: { readonly rules: readonly object[] } };
  readonly results: readonly LimitedResult[];
}
/** A log of one run, as `validate` and `check --lock` write. */
interface LimitedLog {
  readonly runs: readonly LimitedRun[];
}

/**
 * `log` as code scanning takes it: unchanged when its one run is within both limits;
 * otherwise the most severe results (errors, then warnings, then notes, each level in
 * its order) up to the limit but one, and one last result of `TRUNCATED_RULE` saying how
 * many of each level were left out and that `listedBy` lists them all — never dropped
 * silently. It is an error when an error was left out, else a warning, at the place of
 * the first result left out. The counts are also in `properties.omitted`, and per rule in
 * `properties.omittedByRule` (the Action adds them to its outputs, and counts an unread place
 * of `check --lock` apart from a bundle not pinned). `rule` makes the SARIF rule of `TRUNCATED_RULE`.
 */
export function withinCodeScanningLimits<L extends LimitedLog>(
  log: L,
  listedBy: string,
  rule: (id: string) => object,
): L {
  const [run] = log.runs;
  if (!run || log.runs.length !== 1) throw new Error('a SARIF log of one run is limited');
  if (run.results.length <= CODE_SCANNING_RESULTS_PER_RUN && fits(log)) return log;
  const ordered = LEVELS.flatMap((level) => run.results.filter((r) => r.level === level));
  const rules = [...run.tool.driver.rules, rule(TRUNCATED_RULE)];
  const withResults = (kept: number): L => {
    const results = [...ordered.slice(0, kept), truncation(ordered.slice(kept), listedBy, rules.length - 1)];
    return { ...log, runs: [{ ...run, tool: { ...run.tool, driver: { ...run.tool.driver, rules } }, results }] } as L;
  };
  let kept = Math.max(0, Math.min(ordered.length - 1, CODE_SCANNING_RESULTS_PER_RUN - 1));
  for (;;) {
    const candidate = withResults(kept);
    const size = gzippedSizeAtMost(candidate);
    if (size <= BUDGET || kept === 0) return candidate;
    // The size grows about linearly in the results kept: aim a little below the budget, and always shrink.
    kept = Math.min(kept - 1, Math.floor(((kept * BUDGET) / size) * 0.97));
  }
}

function fits(log: object): boolean {
  return gzippedSizeAtMost(log) <= BUDGET;
}

/**
 * The log's gzip-compressed size, or a bound above it: a text whose bound is within the
 * budget is not compressed (the common case; compressing a large log costs more than building it).
 * Deflate grows a text by at most n/4096 + n/16384 + 13 bytes (zlib's `deflateBound`), and
 * gzip's header and trailer are 18 more; n/1000 + 64 covers both.
 */
function gzippedSizeAtMost(log: object): number {
  const text = JSON.stringify(log);
  const bytes = Buffer.byteLength(text, 'utf8');
  const bound = bytes + Math.ceil(bytes / 1000) + 64;
  return bound <= BUDGET ? bound : gzipSync(text).length;
}

function truncation(omitted: readonly LimitedResult[], listedBy: string, ruleIndex: number): object {
  const count = (level: Level) => omitted.filter((r) => r.level === level).length;
  const by = { error: count('error'), warning: count('warning'), note: count('note') };
  const byRule = new Map<string, number>();
  for (const r of omitted) byRule.set(r.ruleId, (byRule.get(r.ruleId) ?? 0) + 1);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const text =
    `${plural(omitted.length, 'result')} ${omitted.length === 1 ? 'is' : 'are'} left out of this SARIF run ` +
    `(${plural(by.error, 'error')}, ${plural(by.warning, 'warning')}, ${plural(by.note, 'note')}): ` +
    `GitHub code scanning rejects a run of more than ${thousands(CODE_SCANNING_RESULTS_PER_RUN)} results ` +
    `or a file over 10 MB gzip-compressed, so the most severe are kept. ${listedBy}.`;
  return {
    ruleId: TRUNCATED_RULE,
    ruleIndex,
    level: by.error > 0 ? 'error' : 'warning',
    message: { text },
    // Code scanning requires a location: the first result left out (a file of the repository, with its region).
    locations: omitted[0]?.locations.slice(0, 1) ?? [],
    // One alert however many are left out, the same across commits.
    partialFingerprints: sarifFingerprint(TRUNCATED_RULE, '', 'truncated'),
    properties: { omitted: by, omittedByRule: Object.fromEntries(byRule) },
  };
}
