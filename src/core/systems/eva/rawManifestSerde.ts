import type { DocPath } from '../../documents/document';
import { rustDebugStr } from '../../text/rustText';
import { serdeError, unexpected, type ProviderRuleError } from './serdeWords';
import { YamlTagged, isMapping, untag } from './yamlValue';
import { serdeKeys } from './yamlMappingKeys';
import type { YamlDocument } from './yamlDocument';
import { parseU64 } from './yamlScalars';
import { emptyOwnRecord } from '../../documents/ownRecord';

/**
 * What serde derive makes of an Eva manifest after the schema passed it (eva.md §2.1: the
 * typed loader reads the file again with `serde_yaml::from_str` into the raw structs of
 * upstream `manifest/adapter.rs` and `manifest/capability.rs`), where the schema does not
 * decide. Every raw struct there has a `#[serde(flatten)] extra: Mapping`, so serde reads it
 * as a map (a sequence is refused, never read as fields in order) and buffers each entry it
 * has no field for as its private `Content`, through serde_yaml's `deserialize_any`. That
 * hands a value under a local tag (`!x …`, not `!!binary`) to `visit_enum`, which `Content`
 * refuses: the whole manifest fails, wherever the tag stands below such an entry.
 * A field of type `String` takes any scalar's text, tag or not (`5` is "5", `~` is "~"); an
 * `Option<String>` is `None` for `~`, `null` or nothing; a `Vec<String>` is empty for nothing
 * but refuses `~`. A `bool` (`enabled`) is a plain `true`/`false` word under any tag, nothing
 * else. A field with neither `Option` nor a default is `missing field` when absent.
 */

const TAG_REFUSED = 'untagged and internally tagged enums do not support enum input';

/** `RawCapabilityManifest`'s own fields: the rest is buffered. */
const CAPABILITY_FIELDS: readonly string[] = [
  'id',
  'name',
  'version',
  'enabled',
  'kind',
  'capability',
  'default_provider',
  'provider',
  'permissions',
];

/** `RawCapabilityManifest`'s fields serde requires (no `Option`, no default), in declaration order. */
const CAPABILITY_REQUIRED: readonly string[] = ['id', 'name', 'version', 'enabled', 'kind', 'capability'];

/** `RawAdapterManifest`'s own fields (supervision and credentials: providerRules.ts). */
export const ADAPTER_FIELDS: readonly string[] = [
  'id',
  'name',
  'version',
  'enabled',
  'transport',
  'capabilities',
  'supervision',
  'credentials',
];

/** `RawAdapterManifest`'s fields serde requires, in declaration order (the `String`s but `enabled`). */
const ADAPTER_REQUIRED: readonly string[] = ['id', 'name', 'version', 'enabled', 'transport'];

/**
 * serde's reading of an adapter manifest's own entries past the schema, in document order:
 * its `String` fields (readString), `enabled` (readBool), `capabilities` (a
 * `#[serde(default)] Vec<String>`) and the tags in what it buffers. `supervision` and
 * `credentials` are providerRules.ts's (`providerSerdeError`).
 */
export function adapterEntriesSerdeError(
  doc: YamlDocument,
  manifest: Record<string, unknown>,
): ProviderRuleError | undefined {
  return entryValuesSerdeError(doc, [], manifest, ADAPTER_FIELDS, (field) => {
    const v = structField(manifest, field);
    if (field === 'enabled') return refusal(readBool(doc, [field], v));
    if (field === 'capabilities') return stringListError(doc, [field], v);
    return ADAPTER_REQUIRED.includes(field) ? refusal(readString(doc, [field], v)) : undefined;
  });
}

/** An adapter manifest's raw struct as serde derive finishes it (structSerdeError with its required fields). */
export function adapterStructSerdeError(
  doc: YamlDocument,
  manifest: Record<string, unknown>,
  valueError: ProviderRuleError | undefined,
): ProviderRuleError | undefined {
  return structSerdeError(doc, [], manifest, ADAPTER_FIELDS, valueError, ADAPTER_REQUIRED);
}

/**
 * The text serde reads into the top-level `String` field `field` of an adapter or capability
 * manifest (the loader's rules read it): undefined when absent (serde refused that, or a
 * collection, first).
 */
export function manifestString(
  doc: YamlDocument,
  manifest: Record<string, unknown>,
  field: string,
): string | undefined {
  const v = structField(manifest, field);
  if (v === undefined) return undefined;
  const read = readString(doc, [field], v);
  return 'ok' in read ? read.ok : undefined;
}

/**
 * The `bool` serde reads into a manifest's `enabled` (readBool): false when it refused it (the
 * loader has reported that: the manifest is not loaded).
 */
export function manifestEnabled(doc: YamlDocument, manifest: Record<string, unknown>): boolean {
  const read = readBool(doc, ['enabled'], structField(manifest, 'enabled'));
  return 'ok' in read && read.ok;
}

/**
 * The capability names serde reads into an adapter's `capabilities` (`Vec<String>`), in order,
 * each with its field: `!t [a]` and `[!t a]` are ["a"], `[5]` is ["5"]; empty when absent or
 * refused (the loader has reported that).
 */
export function adapterCapabilityList(
  doc: YamlDocument,
  manifest: Record<string, unknown>,
): { name: string; field: DocPath }[] {
  const list = readSeq(doc, ['capabilities'], structField(manifest, 'capabilities') ?? null);
  if (!('ok' in list)) return [];
  const out: { name: string; field: DocPath }[] = [];
  list.ok.forEach((item, i) => {
    const read = readString(doc, ['capabilities', i], item);
    if ('ok' in read) out.push({ name: read.ok, field: ['capabilities', i] });
  });
  return out;
}

/** The first entry of `record` (at `at`) that serde buffers and whose value holds a local tag. */
export function bufferedTagError(
  doc: YamlDocument,
  at: DocPath,
  record: Record<string, unknown>,
  fields: readonly string[],
): ProviderRuleError | undefined {
  for (const key of keysInDocumentOrder(doc, at, Object.keys(record))) {
    if (fields.includes(key)) continue;
    const tagged = firstTag(doc, [...at, key], record[key]);
    if (tagged) return serdeError(tagged, TAG_REFUSED, doc);
  }
  return undefined;
}

/**
 * A tagged value at or below `path`, depth first in document order (a bounded tree: the reader
 * expanded aliases). `Content` reads each key before its value, and a key through
 * `deserialize_any` too: a tagged key is refused where it stands, under its mapping's path.
 */
function firstTag(doc: YamlDocument, path: DocPath, value: unknown): DocPath | undefined {
  if (isLocalTag(value)) return path;
  if (value instanceof YamlTagged) return firstTag(doc, path, value.value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstTag(doc, [...path, i], value[i]);
      if (found) return found;
    }
    return undefined;
  }
  if (!isMapping(value)) return undefined;
  const keys = serdeKeys(value);
  if (keys) {
    for (const key of keys) {
      if (key.tagged) return path;
      // The pair's own value: a string key may have taken this name in the record.
      const found = firstTag(doc, [...path, key.name], key.value);
      if (found) return found;
    }
    return undefined;
  }
  for (const key of keysInDocumentOrder(doc, path, Object.keys(value))) {
    const found = firstTag(doc, [...path, key], value[key]);
    if (found) return found;
  }
  return undefined;
}

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
function missingField(
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

/**
 * serde's reading of a capability manifest past the schema (`RawCapabilityManifest`): the
 * provider fields and `permissions.adapters`, and tags in what it buffers, in document order.
 */
export function capabilitySerdeError(
  doc: YamlDocument,
  manifest: Record<string, unknown>,
): ProviderRuleError | undefined {
  const first = entryValuesSerdeError(doc, [], manifest, CAPABILITY_FIELDS, (field) => {
    const v = structField(manifest, field);
    if (field === 'default_provider' || field === 'provider') return optionalStringError([field], v);
    if (field === 'permissions') {
      // `Option<RawCapabilityPermissions>`: a mapping under any tag; a sequence or scalar is refused.
      const read = readStruct(doc, [field], v, 'RawCapabilityPermissions', true);
      return 'ok' in read ? (read.ok ? permissionsError(doc, read.ok) : undefined) : read;
    }
    if (field === 'enabled') return refusal(readBool(doc, [field], v));
    return CAPABILITY_REQUIRED.includes(field) ? refusal(readString(doc, [field], v)) : undefined;
  });
  return structSerdeError(doc, [], manifest, CAPABILITY_FIELDS, first, CAPABILITY_REQUIRED);
}

/**
 * The first local tag, in document order, in what `RawCapabilityManifest` buffers: at its root,
 * in `permissions` and in `permissions.adapters` (each struct read through its own tag). serde's
 * `Content` refuses it before any rule, so Eva reads none of the file; for a `lua_skill`, whose
 * fields otherwise follow the design's contract (eva.md §2.5), not serde's required fields.
 */
export function capabilityBufferedTagError(
  doc: YamlDocument,
  manifest: Record<string, unknown>,
): ProviderRuleError | undefined {
  return entryValuesSerdeError(doc, [], manifest, CAPABILITY_FIELDS, (field) => {
    const permissions = field === 'permissions' ? untag(structField(manifest, field)) : undefined;
    if (!isMapping(permissions)) return undefined;
    return entryValuesSerdeError(doc, [field], permissions, ['adapters'], () => {
      const adapters = untag(structField(permissions, 'adapters'));
      const fields = ['providers', 'capabilities'];
      return isMapping(adapters) ? bufferedTagError(doc, [field, 'adapters'], adapters, fields) : undefined;
    });
  });
}

/** `RawCapabilityPermissions`: `adapters: Option<RawCapabilityAdapterPermissions>`, the rest buffered. */
function permissionsError(doc: YamlDocument, permissions: Record<string, unknown>): ProviderRuleError | undefined {
  let first: ProviderRuleError | undefined;
  for (const key of keysInDocumentOrder(doc, ['permissions'], Object.keys(permissions))) {
    const v = permissions[key];
    first =
      key === 'adapters' ? adapterPermissionsError(doc, v) : bufferedTagError(doc, ['permissions'], { [key]: v }, []);
    if (first) break;
  }
  return structSerdeError(doc, ['permissions'], permissions, ['adapters'], first);
}

/** `RawCapabilityAdapterPermissions`: two `Vec<String>`, the rest buffered. */
function adapterPermissionsError(doc: YamlDocument, v: unknown): ProviderRuleError | undefined {
  const at: DocPath = ['permissions', 'adapters'];
  if (v === null) return undefined;
  const struct = untag(v);
  if (!isMapping(struct))
    return serdeError(at, `invalid type: ${unexpected(struct)}, expected struct RawCapabilityAdapterPermissions`);
  const fields = ['providers', 'capabilities'];
  let first: ProviderRuleError | undefined;
  for (const field of keysInDocumentOrder(doc, at, Object.keys(struct))) {
    first = fields.includes(field)
      ? stringListError(doc, [...at, field], struct[field])
      : bufferedTagError(doc, at, { [field]: struct[field] }, []);
    if (first) break;
  }
  return structSerdeError(doc, at, struct, fields, first);
}

/** `Option<String>`: null is `None`, any scalar is its text; a sequence or mapping is refused. */
function optionalStringError(path: DocPath, v: unknown): ProviderRuleError | undefined {
  const inner = untag(v);
  return Array.isArray(inner) || isMapping(inner)
    ? serdeError(path, `invalid type: ${unexpected(inner)}, expected a string`)
    : undefined;
}

/** `#[serde(default)] Vec<String>` (readSeq, then readString per item); absent is empty. */
function stringListError(doc: YamlDocument, path: DocPath, v: unknown): ProviderRuleError | undefined {
  if (v === undefined) return undefined;
  const list = readSeq(doc, path, v);
  if (!('ok' in list)) return list;
  for (let i = 0; i < list.ok.length; i++) {
    const e = refusal(readString(doc, [...path, i], list.ok[i]));
    if (e) return e;
  }
  return undefined;
}

/**
 * The text serde reads into an `Option<String>` field at `path` (readOptionString): null for
 * `None`, and for a sequence or mapping (refused where the field is read).
 */
export function serdeString(doc: YamlDocument, path: DocPath, v: unknown): string | null {
  const read = readOptionString(doc, path, v);
  return 'ok' in read ? read.ok : null;
}

/** A field's value as serde_yaml hands it to the field's type, or serde's words for it. */
export type SerdeRead<T> = { readonly ok: T } | ProviderRuleError;

/**
 * `Option<T>` (serde_yaml de.rs `deserialize_option`): absent, or a plain `~`/`null`/`Null`/
 * `NULL`/empty scalar with no tag, or under `!!null`, is `None`. A quoted `"~"` is `Some`, even
 * under `!!null`, and so is `!t ~` (any other tag).
 */
function isNone(doc: YamlDocument, path: DocPath, v: unknown): boolean {
  return v === undefined || (v === null && (doc.scalarAt(path)?.style ?? 'plain') === 'plain');
}

/**
 * `Option<String>`: `deserialize_str` takes any scalar's text, whatever its tag or type (`5` is
 * "5", `!t none` is "none", `!t ~` is "~"); a sequence or mapping is refused, under a tag or not.
 */
export function readOptionString(doc: YamlDocument, path: DocPath, v: unknown): SerdeRead<string | null> {
  return isNone(doc, path, v) ? { ok: null } : readString(doc, path, v);
}

/**
 * `String` (`deserialize_str`): any scalar's text, whatever its tag or type (`~` is "~", nothing
 * is ""); a sequence or mapping is refused, under a tag or not.
 */
export function readString(doc: YamlDocument, path: DocPath, v: unknown): SerdeRead<string> {
  const inner = untag(v);
  if (Array.isArray(inner) || isMapping(inner))
    return serdeError(path, `invalid type: ${unexpected(inner)}, expected a string`);
  return { ok: typeof inner === 'string' ? inner : (doc.scalarAt(path)?.text ?? String(inner)) };
}

/** serde's words when `read` failed. */
function refusal<T>(read: SerdeRead<T>): ProviderRuleError | undefined {
  return 'ok' in read ? undefined : read;
}

/**
 * `Option<u64>`: `deserialize_u64` parses a plain scalar's text whatever its tag (`!t 3` and
 * `!!str 3` are 3), or a literal block under `!!int`; anything else is refused, named as
 * serde_yaml types it with no tag in the way (a quoted `"3"` is a string, `!t ~` a unit value).
 */
export function readOptionU64(doc: YamlDocument, path: DocPath, v: unknown): SerdeRead<bigint | null> {
  if (isNone(doc, path, v)) return { ok: null };
  const inner = untag(v);
  const scalar = doc.scalarAt(path);
  if (scalar && (scalar.style === 'plain' || (scalar.style === 'literal' && scalar.tag === TAG_INT))) {
    const n = parseU64(scalar.text);
    if (n !== undefined) return { ok: n };
  }
  return serdeError(path, `invalid type: ${unexpected(inner)}, expected u64`);
}

/**
 * `bool` (`deserialize_bool`): a plain scalar whatever its tag (`!t true`, `!!str false`), or a
 * literal block under `!!bool`, whose text is one of `parse_bool`'s words; anything else is
 * refused, named as serde_yaml types it (a quoted `"true"` and `yes` are strings, `~` and nothing
 * a unit value, `!!bool "true"` a boolean).
 */
export function readBool(doc: YamlDocument, path: DocPath, v: unknown): SerdeRead<boolean> {
  const scalar = doc.scalarAt(path);
  if (scalar && (scalar.style === 'plain' || (scalar.style === 'literal' && scalar.tag === TAG_BOOL))) {
    const word = BOOL_WORDS.get(scalar.text);
    if (word !== undefined) return { ok: word };
  }
  return serdeError(path, `invalid type: ${unexpected(untag(v))}, expected a boolean`);
}

/** serde_yaml de.rs `parse_bool`. */
const BOOL_WORDS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
]);

/**
 * A raw struct (`deserialize_map`): a mapping under any tag, or an empty plain scalar (an empty
 * mapping: every field `None` or empty); `Option<struct>` takes `None` first (isNone).
 */
export function readStruct(
  doc: YamlDocument,
  path: DocPath,
  v: unknown,
  name: string,
  optional: boolean,
): SerdeRead<Record<string, unknown> | null> {
  if (optional && isNone(doc, path, v)) return { ok: null };
  const inner = untag(v);
  if (isMapping(inner)) return { ok: inner };
  if (emptyPlain(doc, path, inner)) return { ok: emptyOwnRecord<unknown>() };
  return serdeError(path, `invalid type: ${unexpected(inner)}, expected struct ${name}`);
}

/**
 * serde's error for a manifest whose document is no mapping (a project schema with no top-level
 * `type` passed it): `deserialize_map` refuses a sequence or a non-empty scalar (readStruct), and
 * reads an empty document (libyaml's `Void`: nothing, or only comments) or an empty plain scalar
 * (`---`, `!t`) as an empty map, which lacks the first required field. Undefined for a mapping,
 * tagged or not, which serde reads as the manifest itself.
 */
export function manifestRootSerdeError(
  doc: YamlDocument,
  area: 'adapter' | 'capability',
): ProviderRuleError | undefined {
  if (isMapping(untag(doc.value))) return undefined;
  const name = area === 'adapter' ? 'RawAdapterManifest' : 'RawCapabilityManifest';
  const empty = doc.value === null && doc.scalarAt([]) === undefined;
  const read = empty ? { ok: null } : readStruct(doc, [], doc.value, name, false);
  if (!('ok' in read)) return read;
  return missingField([], [], area === 'adapter' ? ADAPTER_REQUIRED : CAPABILITY_REQUIRED);
}

/** `#[serde(default)] Vec<T>` (`deserialize_seq`): a sequence under any tag, or an empty plain scalar. */
export function readSeq(doc: YamlDocument, path: DocPath, v: unknown): SerdeRead<readonly unknown[]> {
  const inner = untag(v);
  if (Array.isArray(inner)) return { ok: inner };
  if (emptyPlain(doc, path, inner)) return { ok: [] };
  return serdeError(path, `invalid type: ${unexpected(inner)}, expected a sequence`);
}

/** The empty plain scalar (`key:`, `key: !t`), which serde_yaml reads as an empty mapping or sequence. */
function emptyPlain(doc: YamlDocument, path: DocPath, inner: unknown): boolean {
  if (inner !== null) return false;
  const scalar = doc.scalarAt(path);
  return scalar?.style === 'plain' && scalar.text === '';
}

const TAG_INT = 'tag:yaml.org,2002:int';
const TAG_BOOL = 'tag:yaml.org,2002:bool';

/** The adapter ids a capability manifest names, as serde reads them (`adapter_providers()` order). */
export function capabilityProviderRefs(
  doc: YamlDocument,
  manifest: Record<string, unknown>,
): { name: string; field: DocPath }[] {
  const out: { name: string; field: DocPath }[] = [];
  for (const key of ['default_provider', 'provider']) {
    const name = serdeString(doc, [key], manifest[key]);
    if (name !== null) out.push({ name, field: [key] });
  }
  out.push(...adapterPermissionList(doc, manifest, 'providers'));
  return out;
}

/**
 * `permissions.adapters.<list>` as serde reads it (strings in order; empty when absent): each level
 * a struct, read through its tag (`permissions: !t {adapters: …}` names its providers to Eva).
 */
export function adapterPermissionList(
  doc: YamlDocument,
  manifest: Record<string, unknown>,
  list: 'providers' | 'capabilities',
): { name: string; field: DocPath }[] {
  const permissions = untag(structField(manifest, 'permissions'));
  const adapters = isMapping(permissions) ? untag(structField(permissions, 'adapters')) : undefined;
  const items = isMapping(adapters) ? untag(structField(adapters, list)) : undefined;
  if (!Array.isArray(items)) return [];
  return items.map((item, i) => {
    const field: DocPath = ['permissions', 'adapters', list, i];
    return { name: item === null ? (doc.literalAt(field) ?? '') : (serdeString(doc, field, item) ?? ''), field };
  });
}

/**
 * A value under a local tag (`!x`, `!<!x>`): serde_yaml makes an enum only of a tag that still
 * starts with `!` once libyaml resolved it, so `!!binary` (`tag:yaml.org,2002:binary`) and a
 * `%TAG` handle's tags are read as their plain value.
 */
function isLocalTag(v: unknown): boolean {
  return v instanceof YamlTagged && v.tag.startsWith('!');
}

/**
 * `keys` of the mapping at `at`, in the order the document writes them (serde reads a mapping in
 * that order; a record lists integer-like names first). One pass over the mapping: a position
 * looked up per key made a mapping of 5,000 keys take seconds.
 */
export function keysInDocumentOrder(doc: YamlDocument, at: DocPath, keys: readonly string[]): string[] {
  if (keys.length < 2) return [...keys];
  const wanted = new Set(keys);
  // The first key of a name is the one a record's entry is found by (as keyRange finds it).
  const ordered = doc.keyNamesInOrder(at).filter((k) => wanted.delete(k));
  return [...ordered, ...wanted];
}
