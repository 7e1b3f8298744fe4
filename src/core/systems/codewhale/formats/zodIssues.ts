import type { z } from 'zod';
import type { DocPath } from '../../../documents/document';

/** One zod issue as a path and a sentence that never echoes the offending value. */
export interface SchemaProblem {
  readonly path: DocPath;
  /** Point at the key (unknown field) rather than the value. */
  readonly key: boolean;
  readonly detail: string;
}

/**
 * `error` is a zod error, or its issues with their paths moved (a value checked apart from its document).
 * Codewhale (serde) stops at the first; Skillgate reports each, so one pass fixes a file, and
 * the per-file cap lists the first 100 and counts the rest (fileCap.ts): a hostile file's
 * 200,000 wrong values are one count, not 199,900 problems left out in silence.
 */
export function schemaProblems(error: Pick<z.ZodError, 'issues'>): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) out.push({ path: [...path, k], key: true, detail: `unknown field \`${k}\`` });
    } else if (issue.code === 'invalid_type') {
      const where = path.length ? ` at \`${path.join('.')}\`` : '';
      out.push({
        path,
        key: issue.input === undefined,
        detail:
          issue.input === undefined
            ? `missing field \`${String(path[path.length - 1] ?? '')}\``
            : `expected ${issue.expected}${where}`,
      });
    } else {
      const where = path.length ? ` at \`${path.join('.')}\`` : '';
      out.push({ path, key: false, detail: `${issue.message.replace(/:.*$/, '')}${where}` });
    }
  }
  return out;
}
