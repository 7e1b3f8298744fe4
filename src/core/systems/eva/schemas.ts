import * as path from 'node:path';
import type { Diagnostic, Range } from '../../model';
import { evaDiagnostic } from './diagnostics';
import { MAX_MANIFEST_BYTES, readManifest } from './files';
import { plainJsonValue } from './plainJsonValue';
import { parseEvaYaml } from './yamlDocument';
import { isMapping } from './yamlValue';
import adapterSchema from './schemas/adapter.schema.json';
import capabilitySchema from './schemas/capability.schema.json';
import evaSchema from './schemas/eva.schema.json';
import policySchema from './schemas/policy.schema.json';

/**
 * Eva's JSON schemas: the project's own from `schema_dir` when present and valid, else
 * the upstream copies embedded here (byte-for-byte from the corpus, eva.md §2.1).
 */

export type SchemaName = 'adapter' | 'capability' | 'eva' | 'policy';

export const EMBEDDED_SCHEMAS: Record<SchemaName, unknown> = {
  adapter: adapterSchema,
  capability: capabilitySchema,
  eva: evaSchema,
  policy: policySchema,
};

export interface EvaSchemas {
  readonly schemas: Record<SchemaName, unknown>;
  readonly diagnostics: Diagnostic[];
}

export function loadSchemas(
  schemaDir: string | null,
  configFile: string,
  schemaDirRange: Range | undefined,
): EvaSchemas {
  const schemas = { ...EMBEDDED_SCHEMAS };
  const diagnostics: Diagnostic[] = [];
  if (schemaDir === null) return { schemas, diagnostics };
  for (const name of Object.keys(EMBEDDED_SCHEMAS) as SchemaName[]) {
    const file = path.join(schemaDir, `${name}.schema.json`);
    const loaded = readSchemaObject(file);
    if (loaded.ok) schemas[name] = loaded.value;
    else
      diagnostics.push(
        evaDiagnostic(
          configFile,
          schemaDirRange,
          'eva.project.schema-missing',
          `${namedFailure(loaded.message, `${name}.schema.json`)}; using Skillgate's embedded copy`,
        ),
      );
  }
  return { schemas, diagnostics };
}

/** `read_schema`'s two sentences (eva-config schema.rs): the file does not read, or does not parse. */
const READ_SCHEMA_SENTENCES = ['failed to read JSON Schema', 'failed to parse JSON Schema'] as const;

/**
 * The failure with the file it is about, its sentence said once: `read_schema` fails with one of its
 * sentences, the `schema_path` in context and, for a read, the io error after it
 * (`failed to read JSON Schema adapter.schema.json: Permission denied (os error 13)`). Skillgate's own
 * refusals (a file past the cap, a JSON value that is no object) follow the read sentence, as before.
 */
function namedFailure(message: string, file: string): string {
  const sentence = READ_SCHEMA_SENTENCES.find((s) => message === s || message.startsWith(`${s}: `));
  return sentence === undefined
    ? `failed to read JSON Schema ${file}: ${message}`
    : `${sentence} ${file}${message.slice(sentence.length)}`;
}

/** A JSON schema file: a regular file of at most 1 MiB, UTF-8, a JSON object (eva.md §2.5). */
export function readSchemaObject(
  file: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; missing: boolean; message: string } {
  const read = readManifest(file, MAX_MANIFEST_BYTES);
  if (!read.ok)
    return {
      ok: false,
      // What the open found absent (ENOENT, or ENOTDIR: a file on the way).
      missing: read.fault?.code === 'ENOENT' || read.fault?.code === 'ENOTDIR',
      message:
        read.problem === 'too-large'
          ? 'schema file is larger than 1048576 bytes'
          : `failed to read JSON Schema: ${read.detail}`,
    };
  // The text must be JSON (`<name>.schema.json`); the value used is serde_yaml's, below.
  try {
    JSON.parse(read.text.replace(/^\ufeff/, ''));
  } catch {
    return { ok: false, missing: false, message: 'failed to parse JSON Schema' };
  }
  // Upstream's `read_schema` parses the file with serde_yaml, which refuses JSON that JSON.parse takes: a key
  // given twice (JSON.parse keeps the last, as serde_json's Value would), a `"\udcff"` escape. Its value is
  // the schema, not JSON.parse's: `1.0` and `1e2` are floats to serde_yaml, so a `minProperties` read with
  // `as_u64` is no bound and an `enum` entry equals no integer (schemaSubset.ts).
  // Most schema files are JSON that reads the same in both languages: their value without the YAML reader.
  const value = plainJsonValue(read.text) ?? yamlValueOf(file, read.text);
  if (value === undefined) return { ok: false, missing: false, message: 'failed to parse JSON Schema' };
  if (!isMapping(value)) return { ok: false, missing: false, message: 'schema file must contain a JSON object' };
  return { ok: true, value };
}

/** The file's value as serde_yaml reads it, or `undefined` where it fails to parse. */
function yamlValueOf(file: string, text: string): unknown {
  const parsed = parseEvaYaml(file, text);
  return parsed.ok ? parsed.document.value : undefined;
}
