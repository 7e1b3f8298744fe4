/**
 * What a mapping's keys are to serde beyond the names its record gives them (eva.md §2.1). The
 * converter (yamlConverter.ts) names each key by its text, as Eva's readers look a field up by
 * its string; these side tables keep, for each record that needs them, the keys that are no
 * plain string (serde_yaml 0.9's `Mapping::get(Value::String(..))` never finds them) and each
 * key as serde derive reads it (serde_yaml 0.9 de.rs), for the readers that ask.
 */

/**
 * The keys of a mapping that are not plain strings (`1:`, `true:`, `!k id:`, `[a]:`): the
 * record names them by their text, but serde_yaml's `get(Value::String(..))` never finds them,
 * so a required `id` written `!k id` is missing upstream. `shadowed` counts such keys whose
 * name a string key took (`"1": a` beside `1: b`): they are in no record, yet in the mapping.
 */
export interface NonStringKeys {
  readonly names: ReadonlySet<string>;
  readonly shadowed: number;
  /**
   * Of `names`, the keys that are a string under a tag (`!k id`): `get(Value::String(..))` does
   * not find them, but `as_str` reads through the tag (upstream's `additionalProperties`).
   */
  readonly taggedStrings: ReadonlySet<string>;
  /** Of `shadowed`, the keys that are not a string even through a tag. */
  readonly shadowedNonStrings: number;
}

const NON_STRING_KEYS = new WeakMap<object, NonStringKeys>();
const NO_NON_STRING_KEYS: NonStringKeys = {
  names: new Set(),
  shadowed: 0,
  taggedStrings: new Set(),
  shadowedNonStrings: 0,
};

export function nonStringKeys(record: object): NonStringKeys {
  return NON_STRING_KEYS.get(record) ?? NO_NON_STRING_KEYS;
}

/**
 * serde_yaml 0.9's `mapping.get(Value::String(key))` on a mapping kept as a value (a policy
 * document, read by domains.rs `get`; an entry of a flattened `Mapping`): a key written as a
 * non-string (`1`, `!!binary env`, `!t network`) is another key, though the record names it
 * by its text.
 */
export function mappingGet(record: Record<string, unknown>, key: string): unknown {
  if (!Object.hasOwn(record, key) || nonStringKeys(record).names.has(key)) return undefined;
  return record[key];
}

/**
 * A mapping key as serde derive reads it (serde_yaml 0.9 `de.rs`). A struct's field name goes
 * through `deserialize_identifier`, which is `deserialize_str`: a scalar is its text, whatever
 * its tag or type (`1`, `"1"` and `!t 1` are all "1"), and a sequence or mapping is refused
 * ("invalid type: sequence, expected field identifier"). An entry buffered as serde's `Content`
 * reads its key through `deserialize_any`, which hands a locally tagged key to `visit_enum`:
 * refused, as a tagged value is (`tagged`, on the key or anywhere inside a collection key).
 */
export interface SerdeKey {
  /** The record's name for the key (the Converter's). */
  readonly name: string;
  /** The scalar's text as libyaml gives it (`''` for no key); undefined for a collection key. */
  readonly text: string | undefined;
  readonly collection: 'sequence' | 'map' | undefined;
  readonly tagged: boolean;
  /** The key as written, in the file. */
  readonly span: readonly [number, number];
  /**
   * This pair's value: the record's entry under `name` may be another pair's (`"1": a` takes the
   * name from `1: b`), but serde reads every pair.
   */
  readonly value: unknown;
}

const SERDE_KEYS = new WeakMap<object, () => readonly SerdeKey[]>();

/**
 * The keys of a mapping in document order as serde derive reads them, when one of them is not a
 * plain string; undefined when all are (each key is then its record name, and no two are equal).
 */
export function serdeKeys(record: object): readonly SerdeKey[] | undefined {
  return SERDE_KEYS.get(record)?.();
}

/** Records a mapping's keys that are not plain strings, as the converter found them, for the lookups above. */
export function keepMappingKeys(record: object, nonString: NonStringKeys, keys: () => readonly SerdeKey[]): void {
  NON_STRING_KEYS.set(record, nonString);
  SERDE_KEYS.set(record, keys);
}
