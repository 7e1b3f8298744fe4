import type { DocPath } from '../../documents/document';
import { YamlFloat } from './yamlScalars';
import { YamlTagged, isMapping, isYamlInteger, untag, yamlTypeName } from './yamlValue';
import { nonStringKeys } from './yamlMappingKeys';
import type { EvaDiagnosticCode } from './vocabulary';

/**
 * Eva-CLI's JSON-schema evaluator (`eva-config` schema.rs, eva.md §2.1): only `type` (a
 * name or a list of names), `enum`, two `pattern`s (any other is an error), `minProperties`,
 * `required`, `properties`, `additionalProperties: false` (beside `properties`) and `items`,
 * in that order per node, stopping at the first error as upstream does. `oneOf`, `allOf`, `if/then`, `not`, `$ref`, numeric
 * bounds and schema-valued `additionalProperties` are not evaluated (upstream ignores them).
 */

export interface SchemaError {
  readonly code: EvaDiagnosticCode;
  readonly message: string;
  /** Where the error is: the field itself, or the mapping that lacks a required field. */
  readonly path: DocPath;
  /** The field the error names, dotted with `[i]` indexes, from the root `$` (fieldPath). */
  readonly field: string;
  /** A missing required field's key in the mapping at `path` (`field` cannot be split back: a key may hold a dot). */
  readonly missing?: string;
}

/**
 * The only two patterns upstream's evaluator knows, as it tests them (byte checks, not a
 * regex engine: `^/.+` is any text after a leading `/`, a line break included). Any other
 * pattern on a string is an error (`matches_supported_pattern`), so that a schema
 * constraint is never skipped.
 */
const PATTERNS = new Map<string, (value: string) => boolean>([
  ['^[a-zA-Z0-9][a-zA-Z0-9_.-]*$', (v) => /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/.test(v)],
  ['^/.+', (v) => v.startsWith('/') && v.length > 1],
]);

type Schema = Record<string, unknown>;

/**
 * Upstream's `FieldPath` (schema.rs), which keeps the text after its root: a property is
 * `name` there or `<text>.name`, an index `<text or $>[i]`, and no text at all is the root `$`;
 * so an empty property at the root is the root (`""` is `$`, `"".x` is `x`). Skillgate writes
 * that text after `$.` (`$.a[0].b`), or alone when it is upstream's own `$[i]…`.
 */
export function fieldPath(path: DocPath): string {
  let text = '';
  let fromRoot = false;
  for (const s of path) {
    if (typeof s !== 'number') text = text === '' ? s : `${text}.${s}`;
    else {
      fromRoot ||= text === '';
      text = `${text === '' ? '$' : text}[${s}]`;
    }
  }
  return text === '' ? '$' : fromRoot ? text : `$.${text}`;
}

/** The first error of `value` against `schema`, or undefined when it conforms. */
export function firstSchemaError(schema: unknown, value: unknown, path: DocPath = []): SchemaError | undefined {
  const err = (code: EvaDiagnosticCode, message: string, at: DocPath = path, field: DocPath = at): SchemaError => ({
    code,
    message,
    path: at,
    field: fieldPath(field),
  });
  // Upstream refuses a schema node that is not an object (`"foo": true`) wherever a value reaches it.
  if (!isPlainSchema(schema)) return err('eva.schema.type', 'schema node must be an object');
  const type = schema['type'];
  if (!typeMatches(type, value))
    return err('eva.schema.type', `schema type mismatch: expected ${typeLabel(type)}, got ${yamlTypeName(value)}`);
  const allowed = schema['enum'];
  if (Array.isArray(allowed) && !allowed.some((a) => sameValue(a, value)))
    return err('eva.schema.enum', 'value is not allowed by schema enum');
  // From here on upstream reads the value with serde_yaml's `as_str`/`as_mapping`/`as_sequence`,
  // which look through a tag (`!t x` is the string `x`); only `enum` compared it whole.
  const plain = untag(value);
  const pattern = schema['pattern'];
  if (typeof pattern === 'string' && typeof plain === 'string') {
    const matches = PATTERNS.get(pattern);
    if (!matches) return err('eva.schema.pattern', 'schema pattern is not supported by eva-config validator');
    if (!matches(plain)) return err('eva.schema.pattern', 'string does not match schema pattern');
  }
  // Upstream reads the bound with `as_u64`: only a whole number of at least 0 is one.
  const minProperties = schema['minProperties'];
  // Keys that are not strings count as entries, but no string lookup finds them (yamlMappingKeys.ts).
  const odd = isMapping(plain) ? nonStringKeys(plain) : undefined;
  if (
    isYamlInteger(minProperties) &&
    Number(minProperties) >= 0 &&
    isMapping(plain) &&
    Object.keys(plain).length + (odd?.shadowed ?? 0) < Number(minProperties)
  ) {
    return err('eva.schema.type', `object must contain at least ${String(minProperties)} propertie(s)`);
  }
  if (isMapping(plain) && odd) {
    const has = (key: string) => Object.prototype.hasOwnProperty.call(plain, key) && !odd.names.has(key);
    const required = schema['required'];
    if (Array.isArray(required)) {
      for (const key of required) {
        if (typeof key === 'string' && !has(key))
          return { ...err('eva.schema.required', 'required field is missing', path, [...path, key]), missing: key };
      }
    }
    const properties = schema['properties'];
    if (isPlainSchema(properties)) {
      for (const key of Object.keys(properties)) {
        if (!has(key)) continue;
        const inner = firstSchemaError(properties[key], plain[key], [...path, key]);
        if (inner) return inner;
      }
    }
    // Upstream closes an object only when it also lists `properties`; without them nothing is refused.
    // Here upstream names each key with `as_str`, which reads a tagged string key (`!t id`) as its string.
    if (schema['additionalProperties'] === false && isPlainSchema(properties)) {
      const nonString = () => err('eva.schema.additional', 'object contains a non-string property name');
      for (const key of Object.keys(plain)) {
        if (odd.names.has(key) && !odd.taggedStrings.has(key)) return nonString();
        if (!Object.prototype.hasOwnProperty.call(properties, key))
          return err('eva.schema.additional', 'object contains a property not allowed by schema', [...path, key]);
      }
      if (odd.shadowedNonStrings) return nonString();
    }
  }
  const items = schema['items'];
  if (Array.isArray(plain) && items !== undefined) {
    for (let i = 0; i < plain.length; i++) {
      const inner = firstSchemaError(items, plain[i], [...path, i]);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** A mapping: a schema file's float (YamlFloat) is an object to JavaScript, never a schema node to upstream. */
function isPlainSchema(s: unknown): s is Schema {
  return isMapping(s);
}

/**
 * Upstream's `validate_type`: a type name, or a list of names any one of which may match; a
 * `type` of any other shape, and a name it does not know, match everything.
 */
function typeMatches(type: unknown, value: unknown): boolean {
  if (typeof type === 'string') return valueMatchesType(type, value);
  if (Array.isArray(type)) return type.some((t) => typeof t === 'string' && valueMatchesType(t, value));
  return true;
}

/** The expected type as upstream's message writes it: a list joined with `|`. */
function typeLabel(type: unknown): string {
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string').join('|') : String(type);
}

/**
 * Upstream's `value_matches_type`; `integer` is an integer `Number`, so `0.0` is not one. Its
 * `as_mapping`/`as_str`/`as_i64`/… look through a tag (`!t x` is a string); only `null`
 * (`matches!(value, Value::Null)`) does not.
 */
function valueMatchesType(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
    case 'array':
    case 'string':
    case 'boolean':
    case 'number':
      return yamlTypeName(untag(value)) === type;
    case 'null':
      return yamlTypeName(value) === type;
    case 'integer':
      return isYamlInteger(untag(value));
    default:
      return true;
  }
}

/**
 * serde_yaml's `Value` equality, for `enum`: an integer never equals a float, one NaN equals
 * another, mappings are equal whatever their key order, tags compare without their `!`.
 */
function sameValue(a: unknown, b: unknown): boolean {
  const type = yamlTypeName(a);
  if (type !== yamlTypeName(b)) return false;
  switch (type) {
    case 'null':
      return true;
    case 'number': {
      if (isYamlInteger(a) !== isYamlInteger(b)) return false;
      const [x, y] = [numberOf(a), numberOf(b)];
      return x === y || (Number.isNaN(x) && Number.isNaN(y));
    }
    case 'array': {
      const [x, y] = [a as unknown[], b as unknown[]];
      return x.length === y.length && x.every((v, i) => sameValue(v, y[i]));
    }
    case 'object': {
      const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
      const keys = Object.keys(x);
      return (
        keys.length === Object.keys(y).length &&
        keys.every((k) => Object.prototype.hasOwnProperty.call(y, k) && sameValue(x[k], y[k]))
      );
    }
    case 'tagged': {
      const [x, y] = [a as YamlTagged, b as YamlTagged];
      return x.tag.replace(/^!/, '') === y.tag.replace(/^!/, '') && sameValue(x.value, y.value);
    }
    default:
      return a === b;
  }
}

function numberOf(v: unknown): number {
  return v instanceof YamlFloat ? v.value : Number(v);
}
