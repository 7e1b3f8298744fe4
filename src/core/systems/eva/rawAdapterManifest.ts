import type { DocPath } from '../../documents/document';
import type { ProviderRuleError } from './serdeWords';
import type { YamlDocument } from './yamlDocument';
import { entryValuesSerdeError, structField, structSerdeError } from './serdeStruct';
import { readBool, readSeq, readString, refusal, stringListError } from './serdeRead';

/** `RawAdapterManifest`'s own fields (supervision and credentials: rawProviderConfig.ts). */
const ADAPTER_FIELDS: readonly string[] = [
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
export const ADAPTER_REQUIRED: readonly string[] = ['id', 'name', 'version', 'enabled', 'transport'];

/**
 * serde's reading of an adapter manifest's own entries past the schema, in document order:
 * its `String` fields (readString), `enabled` (readBool), `capabilities` (a
 * `#[serde(default)] Vec<String>`) and the tags in what it buffers. `supervision` and
 * `credentials` are rawProviderConfig.ts's (`providerSerdeError`).
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
