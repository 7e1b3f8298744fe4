import { Checker, loaderIdentity, rootLoader, schemaStage, type ContractResult } from './contracts';
import { capabilityNameError, identifierError } from './ids';
import { adapterPermissionList } from './capabilityProviderRefs';
import { capabilitySerdeError } from './rawCapabilityManifest';
import { manifestString } from './rawManifestSerde';
import { serdeString } from './serdeRead';
import type { YamlDocument } from './yamlDocument';
import { isMapping, manifestRoot } from './yamlValue';

/**
 * The contract of a capability manifest (eva.md §2.4), a context capability or a `kind: skill`
 * binding (§2.6): upstream's schema (capability.schema.json), then the typed loader,
 * `CapabilityManifest::try_from_raw` (upstream manifest/capability.rs), first error only.
 */

/** The capability kinds Eva-CLI's loader knows (eva.md §2.4); `lua_skill` is not one (§2.5). */
const CAPABILITY_KINDS: readonly string[] = ['adapter_capability', 'lua_capability', 'mcp_tool', 'skill'];

/** A generic capability manifest (context or `kind: skill` binding): schema, then loader. */
export function checkCapabilityManifest(doc: YamlDocument, schema: unknown): ContractResult {
  const c = new Checker(doc);
  const value = manifestRoot(doc);
  if (schemaStage(c, schema, 'kind')) {
    if (isMapping(value)) capabilityLoader(c, value);
    else rootLoader(c, 'capability');
  }
  return { invalid: c.invalid, shippedError: c.shipped, contract: null, diagnostics: c.diagnostics };
}

/**
 * The typed loader (`CapabilityManifest::try_from_raw`): serde's reading, then id, name,
 * version, kind, capability, the provider ids and `permissions.adapters`, first error only.
 */
function capabilityLoader(c: Checker, value: Record<string, unknown>): void {
  const serde = capabilitySerdeError(c.doc, value);
  if (serde) return c.error('eva.yaml.parse', serde.message, serde.path, true, serde.span);
  if (!loaderIdentity(c, value)) return;
  // The loader's own check (§2.4), reached when a project's schema no longer lists the kinds.
  const kind = manifestString(c.doc, value, 'kind');
  if (kind !== undefined && !CAPABILITY_KINDS.includes(kind))
    return c.error('eva.capability.kind-unsupported', 'unsupported capability kind', ['kind'], true);
  const cap = manifestString(c.doc, value, 'capability');
  const e = cap !== undefined ? capabilityNameError(cap) : undefined;
  if (e) return c.error('eva.capability.name-invalid', e, ['capability'], true);
  for (const key of ['default_provider', 'provider']) {
    const id = serdeString(c.doc, [key], value[key]);
    const invalid = id === null ? undefined : identifierError(id);
    if (invalid) return c.error('eva.id.invalid', invalid, [key], true);
  }
  for (const cap of adapterPermissionList(c.doc, value, 'capabilities')) {
    const invalid = capabilityNameError(cap.name);
    if (invalid) return c.error('eva.capability.name-invalid', invalid, cap.field, true);
  }
  for (const provider of adapterPermissionList(c.doc, value, 'providers')) {
    const invalid = identifierError(provider.name);
    if (invalid) return c.error('eva.id.invalid', invalid, provider.field, true);
  }
}
