import { YamlFloat } from './yamlScalars';

/**
 * serde_yaml 0.9's `Value` as Eva's YAML read builds it (yamlConverter.ts; eva.md §2.1): plain
 * data in mappings without a prototype, a float as YamlFloat (`Number::Float`), a value under a
 * local tag as YamlTagged (`Value::Tagged`); and the readings upstream makes of such a value
 * (`untag`, `as_mapping`, its schema's type names), shared by every reader of a manifest.
 */

/**
 * A value under a local tag (`!foo`, `!<!foo>`): serde_yaml's `Value::Tagged`, never resolved. A
 * tag libyaml resolves to a URI (`!!js/function`, `!<tag:x>`) is no tag to serde_yaml.
 */
export class YamlTagged {
  constructor(
    readonly tag: string,
    readonly value: unknown,
  ) {}
}

/** The value's type name in upstream's words (`schema type mismatch: …, got <actual>`). */
export function yamlTypeName(value: unknown): 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object' | 'tagged' {
  if (value === null || value === undefined) return 'null';
  if (value instanceof YamlTagged) return 'tagged';
  if (value instanceof YamlFloat) return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number' || typeof value === 'bigint') return 'number';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'array';
  return 'object';
}

/**
 * A whole number as serde_yaml's `Number` has it (`as_i64`/`as_u64`): never a YamlFloat, even
 * `0.0`. A bare JS number can only be a float when it is not whole (a JSON schema's number).
 */
export function isYamlInteger(value: unknown): boolean {
  return (typeof value === 'number' && Number.isInteger(value)) || typeof value === 'bigint';
}

/**
 * serde_yaml's `untag`/`untag_ref`: the value under a local tag (the only tag that makes a
 * tagged value here; a node holds one tag, so one step is all). Its `as_str`, `as_mapping`,
 * `deserialize_str`, … read a value through it.
 */
export function untag(v: unknown): unknown {
  return v instanceof YamlTagged ? v.value : v;
}

/**
 * The document's root as serde derive reads a manifest struct from it: `deserialize_struct`
 * ignores a mapping's tag, so `--- !t` over a mapping is that mapping to Eva's loader.
 */
export function manifestRoot(doc: { readonly value: unknown }): unknown {
  const v = doc.value;
  return v instanceof YamlTagged && isMapping(v.value) ? v.value : v;
}

/** A plain mapping (not an array, not tagged). */
export function isMapping(value: unknown): value is Record<string, unknown> {
  return yamlTypeName(value) === 'object';
}
