import type { Diagnostic, Severity } from '../model';
import { thousands } from '../text/thousands';

/**
 * The most diagnostics one unit of work (a Codewhale bundle, a Rivumi load) lists for one
 * file. The agents stop at a file's first error; Skillgate reports each independent
 * problem so that one pass fixes a file, and a hostile file makes that unbounded: a
 * 600 KB `plugin.json` whose `when.os` holds 150,000 unknown names was 300,000 diagnostics,
 * 136 MB of `list --json` and as many markers in the Problems panel. Codewhale's schema
 * problems had a cap of 100 of their own, which left the rest out in silence; this one
 * bounds every rule, and counts what it leaves out.
 */
export const MAX_DIAGNOSTICS_PER_FILE = 100;

const RANK: Record<Severity, number> = { information: 0, warning: 1, error: 2 };

/**
 * Keeps the first MAX_DIAGNOSTICS_PER_FILE diagnostics of each file in a list, and counts
 * the rest in one diagnostic of that file, in the place of the first left out: never
 * dropped silently, and never less severe than what it stands for, so a file with an error
 * left out still has an error (every "has this file an error" in the decisions holds).
 * It names the first of the most severe left out, at its range.
 */
export class FileCap {
  private readonly kept = new Map<string, number>();
  private readonly left = new Map<string, { at: number; count: number; worst: Diagnostic }>();

  /** Whether a diagnostic of `file` would only be counted now: what only a listed one shows (a fix) need not be built. */
  full(file: string): boolean {
    return (this.kept.get(file) ?? 0) >= MAX_DIAGNOSTICS_PER_FILE;
  }

  /**
   * Whether a diagnostic of `file` with `severity` would change no more than its summary's count:
   * its range and its fix would never be shown, so they need not be looked up (a hostile list
   * of 200,000 values is 200,000 range lookups otherwise).
   */
  onlyCounts(file: string, severity: Severity): boolean {
    const s = this.left.get(file);
    return s !== undefined && RANK[severity] <= RANK[s.worst.severity];
  }

  /** Appends `d` to `list`, or counts it in its file's summary there. `list` is only appended to. */
  add(list: Diagnostic[], d: Diagnostic): void {
    const n = this.kept.get(d.file) ?? 0;
    if (n < MAX_DIAGNOSTICS_PER_FILE) {
      this.kept.set(d.file, n + 1);
      list.push(d);
      return;
    }
    const s = this.left.get(d.file);
    if (!s) {
      this.left.set(d.file, { at: list.length, count: 1, worst: d });
      list.push(summary(d, 1));
      return;
    }
    s.count++;
    if (RANK[d.severity] > RANK[s.worst.severity]) s.worst = d;
    list[s.at] = summary(s.worst, s.count);
  }
}

function summary(worst: Diagnostic, count: number): Diagnostic {
  const more = count === 1 ? '1 more problem' : `${thousands(count)} more problems`;
  return {
    file: worst.file,
    range: worst.range,
    severity: worst.severity,
    code: 'skillgate.diagnostics.truncated',
    message: `${more} in this file not listed (Skillgate lists the first ${MAX_DIAGNOSTICS_PER_FILE} of a file); the first of the most severe: ${worst.message}`,
    itemId: null,
  };
}
