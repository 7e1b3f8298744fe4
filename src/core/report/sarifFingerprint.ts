import { createHash } from 'node:crypto';
import type { Diagnostic } from '../model';

/** The `partialFingerprints` key Skillgate writes (GitHub reserves `primaryLocationLineHash` and recomputes it). */
const FINGERPRINT_KEY = 'skillgate/v1';

/**
 * SARIF `partialFingerprints` for one result: the rule, the workspace-relative file and
 * what identifies the finding there, never a line number or a hash of changing content,
 * so code scanning tracks one alert across commits (SARIF 2.1.0 §3.27.17).
 */
export function sarifFingerprint(ruleId: string, file: string, identity: string): Record<string, string> {
  return { [FINGERPRINT_KEY]: createHash('sha256').update(`${ruleId}\u0000${file}\u0000${identity}`).digest('hex') };
}

/**
 * The fingerprints of one run's results, each distinct: code scanning takes results
 * with the same fingerprint for one alert, so two findings whose identities match (two
 * array elements whose messages differ only in the index) would show as one. The second
 * and later get their occurrence number, as CodeQL's line hash carries `:n`; the first
 * keeps the fingerprint it always had.
 */
export function runFingerprints(): (ruleId: string, file: string, identity: string) => Record<string, string> {
  const seen = new Map<string, number>();
  return (ruleId, file, identity) => {
    const key = `${ruleId}\u0000${file}\u0000${identity}`;
    const before = seen.get(key) ?? 0;
    seen.set(key, before + 1);
    return sarifFingerprint(ruleId, file, before === 0 ? identity : `${identity}\u0000${before + 1}`);
  };
}

/**
 * The file as a fingerprint names it: relative to its workspace folder, behind the
 * folder's `uriBaseId` for every folder after the first, so the same file name in two
 * folders is two files (the first folder's names stay as they always were).
 */
export function fingerprintFile(file: string, baseId: string | null): string {
  return baseId === null || baseId === '%SRCROOT%' ? file : `${baseId}/${file}`;
}

/**
 * The absolute path a diagnostic's fingerprint names: the place its producer says it is about
 * (`Diagnostic.place`: the directory whose cap was hit, the bundle whose walk ran out of files),
 * else its file. A location is where a listing stopped, which a new file sorting first moves;
 * the fingerprint must not move with it, or code scanning closes the alert and opens another.
 */
export function fingerprintPlace(d: Pick<Diagnostic, 'file' | 'place'>): string {
  return d.place ?? d.file;
}
