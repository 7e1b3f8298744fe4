import type { DocPath } from '../../documents/document';
import { isMapping, yamlTypeName } from './yamlDocument';
import type { EvaDiagnosticCode } from './vocabulary';
import { isJsonObject } from '../../documents/jsonObject';

/**
 * Eva-CLI's JSON-schema evaluator (`eva-config` schema.rs, eva.md §2.1): only `type`,
 * `enum`, two `pattern`s, `minProperties`, `required`, `properties`,
 * `additionalProperties: false` and `items`, in that order per node, stopping at the
 * first error as upstream does. `oneOf`, `allOf`, `if/then`, `not`, `$ref`, numeric
 * bounds and schema-valued `additionalProperties` are not evaluated (upstream ignores them).
 */

export interface SchemaError {
  readonly code: EvaDiagnosticCode;
  readonly message: string;
  /** Where the error is: the field itself, or the mapping that lacks a required field. */
  readonly path: DocPath;
  /** The field the error names, dotted with `[i]` indexes, from the root `$`. */
  readonly field: string;
}

/** The only two patterns upstream's evaluator knows; any other pattern is not checked. */
const PATTERNS: Record<string, RegExp> = {
  '^[a-zA-Z0-9][a-zA-Z0-9_.-]*$': /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/,
  '^/.+': /^\/.+/,
};

type Schema = Record<string, unknown>;

export function fieldPath(path: DocPath): string {
  let out = '$';
  for (const s of path) out += typeof s === 'number' ? `[${s}]` : `.${s}`;
  return out;
}

/** The first error of `value` against `schema`, or undefined when it conforms. */
export function firstSchemaError(schema: unknown, value: unknown, path: DocPath = []): SchemaError | undefined {
  if (!isPlainSchema(schema)) return undefined;
  const err = (code: EvaDiagnosticCode, message: string, at: DocPath = path, field: DocPath = at): SchemaError => ({
    code,
    message,
    path: at,
    field: fieldPath(field),
  });
  const actual = yamlTypeName(value);
  const type = schema['type'];
  if (typeof type === 'string' && !typeMatches(type, value))
    return err('eva.schema.type', `schema type mismatch: expected ${type}, got ${actual}`);
  const allowed = schema['enum'];
  if (Array.isArray(allowed) && !allowed.some((a) => sameJson(a, value)))
    return err('eva.schema.enum', 'value is not allowed by schema enum');
  const pattern = schema['pattern'];
  if (typeof pattern === 'string' && typeof value === 'string') {
    const re = PATTERNS[pattern];
    if (re && !re.test(value)) return err('eva.schema.pattern', 'string does not match schema pattern');
  }
  const minProperties = schema['minProperties'];
  if (typeof minProperties === 'number' && isMapping(value) && Object.keys(value).length < minProperties) {
    return err('eva.schema.type', 'object has fewer properties than schema minProperties');
  }
  if (isMapping(value)) {
    const required = schema['required'];
    if (Array.isArray(required)) {
      for (const key of required) {
        if (typeof key === 'string' && !Object.prototype.hasOwnProperty.call(value, key))
          return err('eva.schema.required', 'required field is missing', path, [...path, key]);
      }
    }
    const properties = schema['properties'];
    if (isPlainSchema(properties)) {
      for (const key of Object.keys(properties)) {
        if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
        const inner = firstSchemaError(properties[key], value[key], [...path, key]);
        if (inner) return inner;
      }
    }
    if (schema['additionalProperties'] === false) {
      const known = isPlainSchema(properties) ? properties : {};
      for (const key of Object.keys(value)) {
        if (!Object.prototype.hasOwnProperty.call(known, key))
          return err('eva.schema.additional', 'object contains a property not allowed by schema', [...path, key]);
      }
    }
  }
  const items = schema['items'];
  if (Array.isArray(value) && isPlainSchema(items)) {
    for (let i = 0; i < value.length; i++) {
      const inner = firstSchemaError(items, value[i], [...path, i]);
      if (inner) return inner;
    }
  }
  return undefined;
}

function isPlainSchema(s: unknown): s is Schema {
  return isJsonObject(s);
}

function typeMatches(type: string, value: unknown): boolean {
  const actual = yamlTypeName(value);
  if (type === 'integer') return actual === 'number' && Number.isInteger(value);
  return actual === type;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
