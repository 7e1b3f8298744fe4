import type { DocPath } from '../../documents/document';
import type { ProviderRuleError } from './serdeWords';
import { isMapping, untag } from './yamlValue';
import type { YamlDocument } from './yamlDocument';
import { missingField, structField } from './serdeStruct';
import { readBool, readOptionString, readOptionU64, readString, readStruct } from './serdeRead';
import { ADAPTER_REQUIRED } from './rawAdapterManifest';
import { CAPABILITY_REQUIRED } from './rawCapabilityManifest';

/**
 * What serde derive makes of an Eva manifest after the schema passed it (eva.md §2.1: the
 * typed loader reads the file again with `serde_yaml::from_str` into the raw structs of
 * upstream `manifest/adapter.rs` and `manifest/capability.rs`), where the schema does not
 * decide. Every raw struct there has a `#[serde(flatten)] extra: Mapping`, so serde reads it
 * as a map (a sequence is refused, never read as fields in order) and buffers each entry it
 * has no field for as its private `Content`, through serde_yaml's `deserialize_any`. That
 * hands a value under a local tag (`!x …`, not `!!binary`) to `visit_enum`, which `Content`
 * refuses: the whole manifest fails, wherever the tag stands below such an entry.
 * A field with neither `Option` nor a default is `missing field` when absent. How serde_yaml hands
 * one value to a field's type is serdeRead.ts; a struct level, serdeStruct.ts; each raw struct,
 * rawAdapterManifest.ts and rawCapabilityManifest.ts. Here: the manifest's root, and the fields
 * the loader's rules read (at the top level, in a raw struct, in a mapping kept as a value).
 */

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

/**
 * A raw struct as serde read it (its errors came first): the mapping under any tag, an empty
 * one for an empty plain scalar; undefined for absent or `None`.
 */
export function rawStruct(doc: YamlDocument, path: DocPath, v: unknown): Record<string, unknown> | undefined {
  if (v === undefined) return undefined;
  const read = readStruct(doc, path, v, '', true);
  return 'ok' in read ? (read.ok ?? undefined) : undefined;
}

/** An `Option<String>` field of a raw struct as serde read it: absent or `None` is undefined. */
export function stringField(
  doc: YamlDocument,
  at: DocPath,
  record: Record<string, unknown>,
  key: string,
): string | undefined {
  const read = readOptionString(doc, [...at, key], structField(record, key));
  return 'ok' in read ? (read.ok ?? undefined) : undefined;
}

/** An `Option<u64>` field of a raw struct as serde read it: absent or `None` is undefined. */
export function u64Field(
  doc: YamlDocument,
  at: DocPath,
  record: Record<string, unknown>,
  key: string,
): bigint | undefined {
  const read = readOptionU64(doc, [...at, key], structField(record, key));
  return 'ok' in read ? (read.ok ?? undefined) : undefined;
}

/** The largest `u32`, which the loader's rules hold some `u64` fields to (`u32::try_from`). */
export const U32_MAX = 4_294_967_295n;
