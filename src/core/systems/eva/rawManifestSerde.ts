import type { DocPath } from '../../documents/document';
import { rustDebugStr } from '../../text/rustText';
import { serdeError, unexpected, type ProviderRuleError } from './serdeWords';
import { YamlTagged, isMapping, serdeKeys, type YamlDocument } from './yamlDocument';

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
 * but refuses `~`.
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
    if (tagged) return serdeError(tagged, TAG_REFUSED);
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
      const found = firstTag(doc, [...path, key.name], value[key.name]);
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
 */
export function structSerdeError(
  doc: YamlDocument,
  at: DocPath,
  record: Record<string, unknown>,
  fields: readonly string[],
  valueError: ProviderRuleError | undefined,
): ProviderRuleError | undefined {
  const keys = serdeKeys(record);
  if (!keys) return valueError;
  const key = structKeyError(at, keys, fields);
  if (key && (!valueError || startsBefore(doc, key, valueError, at))) return key;
  return valueError ?? flattenedDuplicate(at, keys, fields);
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
  let first: ProviderRuleError | undefined;
  for (const key of keysInDocumentOrder(doc, [], Object.keys(manifest))) {
    const v = manifest[key];
    if (key === 'default_provider' || key === 'provider') first = optionalStringError([key], v);
    else if (key === 'permissions') first = isMapping(v) ? permissionsError(doc, v) : undefined;
    else if (!CAPABILITY_FIELDS.includes(key)) first = bufferedTagError(doc, [], { [key]: v }, []);
    if (first) break;
  }
  return structSerdeError(doc, [], manifest, CAPABILITY_FIELDS, first);
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

/** `#[serde(default)] Vec<String>`: a sequence of scalars, or nothing at all (not `~`). */
function stringListError(doc: YamlDocument, path: DocPath, v: unknown): ProviderRuleError | undefined {
  const list = untag(v);
  if (list === null && doc.literalAt(path) === '') return undefined;
  if (!Array.isArray(list)) return serdeError(path, `invalid type: ${unexpected(list)}, expected a sequence`);
  for (let i = 0; i < list.length; i++) {
    const e = optionalStringError([...path, i], list[i] === null ? '' : list[i]);
    if (e) return e;
  }
  return undefined;
}

/**
 * The text serde reads into a `String` field at `path`: a string as is, any other scalar as
 * written (`5`, `0x1F`, `true`), under a tag or not; null (`None` for an `Option`) and
 * collections have none.
 */
export function serdeString(doc: YamlDocument, path: DocPath, v: unknown): string | null {
  if (v === undefined) return null;
  const inner = untag(v);
  if (typeof inner === 'string') return inner;
  // A tag makes even an empty or `~` scalar `Some` text.
  if (inner === null) return v instanceof YamlTagged ? (doc.literalAt(path) ?? '') : null;
  if (Array.isArray(inner) || isMapping(inner)) return null;
  const literal = doc.literalAt(path);
  // An alias names its anchor: the value read through it stands in.
  return literal === undefined || literal.startsWith('*') ? String(inner) : literal.replace(/^!\S*\s+/, '');
}

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

/** `permissions.adapters.<list>` as serde reads it (strings in order; empty when absent). */
export function adapterPermissionList(
  doc: YamlDocument,
  manifest: Record<string, unknown>,
  list: 'providers' | 'capabilities',
): { name: string; field: DocPath }[] {
  const permissions = manifest['permissions'];
  const adapters = isMapping(permissions) ? untag(permissions['adapters']) : undefined;
  const items = isMapping(adapters) ? untag(adapters[list]) : undefined;
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

function untag(v: unknown): unknown {
  return v instanceof YamlTagged ? v.value : v;
}

/** `keys` of the mapping at `at`, in the order the document writes them (serde reads a mapping in that order). */
export function keysInDocumentOrder(doc: YamlDocument, at: DocPath, keys: readonly string[]): string[] {
  const position = (k: string): [number, number] => {
    const r = doc.keyRange([...at, k]);
    return [r.start.line, r.start.character];
  };
  return [...keys].sort((a, b) => {
    const [la, ca] = position(a);
    const [lb, cb] = position(b);
    return la - lb || ca - cb;
  });
}
