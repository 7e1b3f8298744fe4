import type { DocPath } from '../../documents/document';
import { isMapping, untag } from './yamlValue';
import type { YamlDocument } from './yamlDocument';
import { structField } from './serdeStruct';
import { serdeString } from './serdeRead';

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
