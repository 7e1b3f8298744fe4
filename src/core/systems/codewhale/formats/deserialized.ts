import type * as z from 'zod';
import type { ParsedDocument } from '../../../documents/document';
import { REPORT_INPUT } from '../../../documents/parseContext';
import type { Findings } from '../../../diagnostics/findings';
import type { DiagnosticCode } from '../../../diagnostics/diagnosticCodes';
import { schemaProblems } from './zodIssues';
import { documentPath, type SerdeLayout } from './serdeSequence';

/**
 * A JSON document's value read into its schema, as serde_json reads it into upstream's
 * structs; undefined when the schema refuses it, each problem reported as the parse error
 * upstream words it (`failed to parse <what>: …`), at the field, which is an element's
 * index where a struct is written as an array.
 */
export function deserialized<T extends z.ZodType>(
  doc: ParsedDocument,
  schema: T,
  findings: Findings,
  code: DiagnosticCode,
  what: string,
  layout: SerdeLayout,
): z.output<T> | undefined {
  const result = schema.safeParse(doc.value, REPORT_INPUT);
  if (result.success) return result.data;
  for (const p of schemaProblems(result.error))
    findings.at(code, `failed to parse ${what}: ${p.detail}`, {
      file: doc.file,
      path: documentPath(doc.value, p.path, layout),
      key: p.key,
    });
  return undefined;
}
