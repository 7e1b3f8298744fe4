import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import type * as z from 'zod';
import { jsonDuplicateKeys } from '../../../documents/jsonDocument';
import type { DocPath, ParsedDocument } from '../../../documents/document';
import { REPORT_INPUT } from '../../../documents/parseContext';
import { schemaProblems, type SchemaProblem } from './zodIssues';
import type { Findings } from '../../../diagnostics/findings';
import type { DiagnosticCode } from '../../../diagnostics/diagnosticCodes';
import { innerLayout, type SerdeLayout } from './serdeSequence';

/**
 * What serde deserializes the JSON object at a path into, which decides what a repeated
 * key does there:
 * - `struct`: a derived struct, which refuses a field named twice (`duplicate field`);
 * - `map`: a `BTreeMap`, which keeps the last value of a repeated key without a word, but
 *   deserializes every value first, so a replaced value must still be a `values`;
 * - `any`: a `serde_json::Value` (or a map of them): the last value wins and nothing
 *   beneath is checked.
 */
/** A refusal, with its place in the text: a path names the last of repeated keys, and the
 * problem may be at an earlier one or inside the value it replaced. */
export interface RepeatedKeyProblem extends SchemaProblem {
  readonly span?: readonly [number, number];
}

export type SerdeShape =
  { readonly kind: 'struct' } | { readonly kind: 'map'; readonly values: z.ZodType } | { readonly kind: 'any' };

export const STRUCT: SerdeShape = { kind: 'struct' };
export const ANY: SerdeShape = { kind: 'any' };

/**
 * How serde_json reads a document whose keys repeat (codewhale.md §4.2): a repeated
 * struct field is refused, a repeated map key keeps its last value, as the parsed
 * document value already does (`JSON.parse`). Empty when the text reads as upstream
 * reads it; otherwise the refusal (a repeated field, or a replaced map value that is
 * not of the map's type), paths absolute.
 */
function repeatedKeyProblems(
  doc: ParsedDocument,
  shapeAt: (path: DocPath) => SerdeShape,
  layout?: SerdeLayout,
): RepeatedKeyProblem[] {
  // Nearly every document has no repeated key: settled without a tree.
  if (jsonDuplicateKeys(doc).length === 0) return [];
  const root = parseTree(doc.text, [], { disallowComments: true, allowTrailingComma: false });
  const problems: RepeatedKeyProblem[] = [];
  // `names` is the path by field names, which the shapes speak: a struct written as an array
  // (serdeSequence.ts) names its elements by its fields, as serde reads them, replaced values too.
  const visit = (node: Node, path: DocPath, names: DocPath, at: SerdeLayout | undefined): void => {
    if (problems.length > 0) return;
    if (node.type === 'array') {
      (node.children ?? []).forEach((child, i) => {
        const name = (at && 'struct' in at ? at.struct[i] : undefined) ?? i;
        visit(child, path.concat(i), names.concat(name), innerLayout(at, name));
      });
      return;
    }
    if (node.type !== 'object') return;
    const shape = shapeAt(names);
    if (shape.kind === 'any') return;
    const seen = new Map<string, Node>();
    for (const property of node.children ?? []) {
      const [k, v] = property.children ?? [];
      if (!k || !v) continue;
      const key = k.value as string;
      const here = path.concat(key);
      const earlier = seen.get(key);
      if (earlier && shape.kind === 'struct') {
        // At the repeat, where serde stops; inside a replaced value no path would reach it.
        problems.push({
          path: here,
          key: true,
          detail: `duplicate field \`${key}\``,
          span: [k.offset, k.offset + k.length],
        });
        return;
      }
      if (earlier && shape.kind === 'map') {
        const value: unknown = JSON.parse(doc.text.slice(earlier.offset, earlier.offset + earlier.length));
        const result = shape.values.safeParse(value, REPORT_INPUT);
        if (!result.success) {
          // The path names the last value (the document's ranges find that one): the problem is
          // in the replaced one, so it carries that value's own place.
          const issues = result.error.issues.map((issue) => ({ ...issue, path: [...here, ...issue.path] }));
          for (const p of schemaProblems({ issues })) {
            const inner = p.path.slice(here.length);
            let node: Node | undefined;
            for (let n = inner.length; !node && n >= 0; n--) node = findNodeAtLocation(earlier, inner.slice(0, n));
            const target = (p.key && node?.parent?.type === 'property' ? node.parent.children?.[0] : node) ?? earlier;
            problems.push({ ...p, span: [target.offset, target.offset + target.length] });
          }
          return;
        }
      }
      seen.set(key, v);
      // serde reads every value, a replaced one too: repeats inside it count.
      visit(v, here, names.concat(key), innerLayout(at, key));
      if (problems.length > 0) return;
    }
  };
  if (root) visit(root, [], [], layout);
  return problems;
}

/**
 * Reports `repeatedKeyProblems` as the parse error they are (`failed to parse <what>: …`,
 * at the key); true when there were any, so the manifest is not read further.
 */
export function refusedRepeatedKeys(
  doc: ParsedDocument,
  shapeAt: (path: DocPath) => SerdeShape,
  findings: Findings,
  code: DiagnosticCode,
  what: string,
  layout?: SerdeLayout,
): boolean {
  const repeated = repeatedKeyProblems(doc, shapeAt, layout);
  for (const p of repeated) {
    const message = `failed to parse ${what}: ${p.detail}`;
    if (p.span) findings.inFile(code, message, doc.file, doc.spanRange(p.span[0], p.span[1]));
    else findings.at(code, message, { file: doc.file, path: p.path, key: p.key });
  }
  return repeated.length > 0;
}
