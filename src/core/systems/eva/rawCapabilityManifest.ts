import type { DocPath } from '../../documents/document';
import { serdeError, unexpected, type ProviderRuleError } from './serdeWords';
import { isMapping, untag } from './yamlValue';
import type { YamlDocument } from './yamlDocument';
import { entryValuesSerdeError, structField, structSerdeError } from './serdeStruct';
import { bufferedTagError } from './serdeBufferedTag';
import { keysInDocumentOrder } from './serdeKeyOrder';
import { optionalStringError, readBool, readString, readStruct, refusal, stringListError } from './serdeRead';

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
export const CAPABILITY_REQUIRED: readonly string[] = ['id', 'name', 'version', 'enabled', 'kind', 'capability'];

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
