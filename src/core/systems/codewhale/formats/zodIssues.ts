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
 * Problems reported per file. Codewhale (serde) stops at the first; Skillgate shows
 * more so one pass fixes a file, but a hostile file with hundreds of thousands of
 * wrong values must not cost as many diagnostics (each one a range lookup): that is
 * minutes of a frozen editor for one 1 MiB file.
 */
export const MAX_SCHEMA_PROBLEMS = 100;

/** `error` is a zod error, or its issues with their paths moved (a value checked apart from its document). */
export function schemaProblems(error: Pick<z.ZodError, 'issues'>): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  for (const issue of error.issues) {
    if (out.length >= MAX_SCHEMA_PROBLEMS) break;
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys.slice(0, MAX_SCHEMA_PROBLEMS - out.length))
        out.push({ path: [...path, k], key: true, detail: `unknown field \`${k}\`` });
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
