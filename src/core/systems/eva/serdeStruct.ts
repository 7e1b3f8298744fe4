import type { DocPath } from '../../documents/document';
import { rustDebugStr } from '../../text/rustText';
import { serdeError, type ProviderRuleError } from './serdeWords';
import { serdeKeys } from './yamlMappingKeys';
import type { YamlDocument } from './yamlDocument';
import { bufferedTagError } from './serdeBufferedTag';
import { keysInDocumentOrder } from './serdeKeyOrder';

/**
 * serde derive's reading of one raw struct level at `at` (its `fields`, and a
 * `#[serde(flatten)] Mapping` for the rest), given the first error the entries' values gave
 * in document order (`valueError`). It reads the mapping an entry at a time, key before value:
 * a key it cannot take (structKeyError) stops it there, before any later value's error. Once
 * the whole mapping is read, the flattened `Mapping` takes the buffered entries and refuses two
 * whose keys are one string ("duplicate entry with key", mapping.rs `DuplicateKeyError`).
 * Between the two, serde derive takes its fields: the first of `required` (declaration order)
 * the mapping did not name is `missing field`.
 */
export function structSerdeError(
  doc: YamlDocument,
  at: DocPath,
  record: Record<string, unknown>,
  fields: readonly string[],
  valueError: ProviderRuleError | undefined,
  required: readonly string[] = [],
): ProviderRuleError | undefined {
  const keys = serdeKeys(record);
  if (!keys) return valueError ?? missingField(at, Object.keys(record), required);
  const key = structKeyError(at, keys, fields);
  if (key && (!valueError || startsBefore(doc, key, valueError, at))) return key;
  return (
    valueError ??
    missingField(
      at,
      keys.map((k) => k.text),
      required,
    ) ??
    flattenedDuplicate(at, keys, fields)
  );
}

/** serde derive's `missing_field` for the first of `required` no key's text names. */
export function missingField(
  at: DocPath,
  texts: readonly (string | undefined)[],
  required: readonly string[],
): ProviderRuleError | undefined {
  const field = required.find((f) => !texts.includes(f));
  return field === undefined ? undefined : serdeError(at, `missing field \`${field}\``);
}

/**
 * The first key of a struct level serde derive refuses as it meets it: a sequence or mapping
 * (serde_yaml's `deserialize_identifier` is `deserialize_str`, which takes only a scalar), or a
 * second key whose text names a field it already read (`Error::duplicate_field`; `"1"`, `1`
 * and `!t 1` are one name). The error names the struct's path, as the key is read there.
 */
function structKeyError(
  at: DocPath,
  keys: readonly { text: string | undefined; collection: string | undefined; span: readonly [number, number] }[],
  fields: readonly string[],
): ProviderRuleError | undefined {
  const seen = new Set<string>();
  for (const key of keys) {
    if (key.text === undefined)
      return { ...serdeError(at, `invalid type: ${key.collection}, expected field identifier`), span: key.span };
    if (!fields.includes(key.text)) continue;
    if (seen.has(key.text)) return { ...serdeError(at, `duplicate field \`${key.text}\``), span: key.span };
    seen.add(key.text);
  }
  return undefined;
}

/**
 * The first error serde meets in the values of the raw struct level `record` at `at`, in
 * document order: a field's value as its type reads it (`readField`, given the field's name), or
 * a local tag in an entry the flattened `Mapping` buffers (`Content` refuses it as it is read,
 * before any loader rule looks at the struct: `{bogus: !t 1}` fails on the tag, not as an
 * unsupported field).
 */
export function entryValuesSerdeError(
  doc: YamlDocument,
  at: DocPath,
  record: Record<string, unknown>,
  fields: readonly string[],
  readField: (field: string) => ProviderRuleError | undefined,
): ProviderRuleError | undefined {
  // A field is named by its key's text (`!t mode` is `mode`); a collection key has none.
  const texts = new Map(serdeKeys(record)?.map((k) => [k.name, k.text]));
  for (const name of keysInDocumentOrder(doc, at, Object.keys(record))) {
    const text = texts.has(name) ? texts.get(name) : name;
    const e =
      text !== undefined && fields.includes(text)
        ? readField(text)
        : bufferedTagError(doc, at, { [name]: record[name] }, []);
    if (e) return e;
  }
  return undefined;
}

/** The second buffered key with the text of one before it, as the flattened `Mapping` refuses it. */
function flattenedDuplicate(
  at: DocPath,
  keys: readonly { text: string | undefined; span: readonly [number, number] }[],
  fields: readonly string[],
): ProviderRuleError | undefined {
  const seen = new Set<string>();
  for (const { text, span } of keys) {
    if (text === undefined || fields.includes(text)) continue;
    if (seen.has(text)) return { ...serdeError(at, `duplicate entry with key ${rustDebugStr(text)}`), span };
    seen.add(text);
  }
  return undefined;
}

/**
 * The value serde derive reads into the field `key` of a raw struct, or that the struct's
 * flattened `Mapping` holds under the string `key`: a key of a struct level is its text, whatever
 * its tag or type (`!t supervision` is `supervision`). Not for a mapping kept as a value (inside
 * such an entry), where `Mapping::get` finds only a key that is the string itself.
 */
export function structField(record: Record<string, unknown>, key: string): unknown {
  const keys = serdeKeys(record);
  if (!keys) return Object.hasOwn(record, key) ? record[key] : undefined;
  // Two keys with this text were refused (structSerdeError) before any field is read.
  const found = keys.find((k) => k.text === key);
  return found && Object.hasOwn(record, found.name) ? record[found.name] : undefined;
}

/** True when the key error `key` stands before the entry of `at` that `value` is the error of. */
function startsBefore(doc: YamlDocument, key: ProviderRuleError, value: ProviderRuleError, at: DocPath): boolean {
  const k = doc.spanRange(key.span?.[0] ?? 0, key.span?.[0] ?? 0).start;
  const entry = value.path[at.length];
  const v = value.span
    ? doc.spanRange(value.span[0], value.span[0]).start
    : entry === undefined
      ? k
      : doc.keyRange([...at, entry]).start;
  return k.line < v.line || (k.line === v.line && k.character < v.character);
}
