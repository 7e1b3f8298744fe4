import { createHash } from 'node:crypto';

/** The `partialFingerprints` key Skillgate writes (GitHub reserves `primaryLocationLineHash` and recomputes it). */
export const FINGERPRINT_KEY = 'skillgate/v1';

/**
 * SARIF `partialFingerprints` for one result: the rule, the workspace-relative file and
 * what identifies the finding there, never a line number or a hash of changing content,
 * so code scanning tracks one alert across commits (SARIF 2.1.0 §3.27.17).
 */
export function sarifFingerprint(ruleId: string, file: string, identity: string): Record<string, string> {
  return { [FINGERPRINT_KEY]: createHash('sha256').update(`${ruleId}\u0000${file}\u0000${identity}`).digest('hex') };
}
