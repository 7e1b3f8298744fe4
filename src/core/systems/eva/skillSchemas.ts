import type { DocPath } from '../../documents/document';
import type { CheckFindings } from './checkFindings';
import type { SchemaRef, SkillContract } from './contracts';
import type { SchemaState } from './item';
import type { ResolvedPath } from './paths';
import { readSchemaObject } from './schemas';
import { schemaStubFix } from './schemaStubFix';

type SchemaSide = 'input' | 'output';

/** Each side's schema as the contract declares it, before any file is read. */
export function declaredSchemaStates(k: SkillContract): Record<SchemaSide, SchemaState> {
  return { input: stateOf(k.inputSchema), output: stateOf(k.outputSchema) };
}

/**
 * C8: both schemas present; file references exist and hold a JSON object. `files` are the
 * schema files C5 resolved, by side. Returns each side's state, `invalid` where its file is
 * not a JSON object.
 */
export function checkSkillSchemas(
  findings: CheckFindings,
  k: SkillContract,
  files: Readonly<Record<SchemaSide, ResolvedPath | undefined>>,
): Record<SchemaSide, SchemaState> {
  const states = declaredSchemaStates(k);
  const missing: string[] = [];
  const checkSide = (side: SchemaSide, ref: SchemaRef | null, file: ResolvedPath | undefined) => {
    if (!ref) {
      missing.push(side);
      return;
    }
    if (!file || !file.allowed) return;
    const field: DocPath = [`${side}_schema`];
    // One this user cannot look at is read, and its read fails as Eva's would: `failed to read JSON Schema`.
    if (!file.exists && file.unreadable === undefined) {
      missing.push(side);
      findings.note('eva.skill.schema-file-missing', `${side}_schema file does not exist: ${file.display}`, field);
      return;
    }
    const read = readSchemaObject(file.real ?? (file.resolved as string));
    if (!read.ok) {
      states[side] = 'invalid';
      findings.reason('schema_invalid');
      findings.note('eva.skill.schema-file-invalid', read.message, field);
    }
  };
  checkSide('input', k.inputSchema, files.input);
  checkSide('output', k.outputSchema, files.output);
  const absent = missing.filter((side) => !(side === 'input' ? k.inputSchema : k.outputSchema));
  if (missing.length) findings.reason('capability_missing_schema');
  for (const side of absent) {
    findings.note('eva.skill.schema-missing', `workflow skill is missing ${side}_schema`, k.schemaField);
    findings.fixLast(schemaStubFix(findings.doc, k, side));
  }
  return states;
}

function stateOf(ref: SchemaRef | null): 'inline' | 'file' | 'absent' {
  return !ref ? 'absent' : 'file' in ref ? 'file' : 'inline';
}
