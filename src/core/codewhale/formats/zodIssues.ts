import type { z } from 'zod';
import type { DocPath } from '../../documents/document';

/** One zod issue as a path and a sentence that never echoes the offending value. */
export interface SchemaProblem {
  readonly path: DocPath;
  /** Point at the key (unknown field) rather than the value. */
  readonly key: boolean;
  readonly detail: string;
}

export function schemaProblems(error: z.ZodError): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) out.push({ path: [...path, k], key: true, detail: `unknown field \`${k}\`` });
    } else if (issue.code === 'invalid_type') {
      const where = path.length ? ` at \`${path.join('.')}\`` : '';
      out.push({ path, key: issue.input === undefined, detail: issue.input === undefined ? `missing field \`${String(path[path.length - 1] ?? '')}\`` : `expected ${issue.expected}${where}` });
    } else {
      const where = path.length ? ` at \`${path.join('.')}\`` : '';
      out.push({ path, key: false, detail: `${issue.message.replace(/:.*$/, '')}${where}` });
    }
  }
  return out;
}
