import type { DocPath } from '../../documents/document';
import { Checker, loaderIdentity, rootLoader, schemaStage, type ContractResult } from './contracts';
import { capabilityNameError } from './ids';
import { providerRuleError, providerSerdeError } from './providerRules';
import { adapterCapabilityList, adapterEntriesSerdeError, adapterStructSerdeError } from './rawAdapterManifest';
import { manifestString } from './rawManifestSerde';
import type { YamlDocument } from './yamlDocument';
import { isMapping, manifestRoot } from './yamlValue';

/**
 * The contract of an adapter manifest (eva.md §2.2): upstream's schema (adapter.schema.json),
 * then the typed loader, `AdapterManifest::try_from_raw` (upstream manifest/adapter.rs). A
 * `transport: skill` adapter passes the same loader before its skill contract
 * (skillAdapterContract.ts).
 */

/** Validation of a context adapter manifest (not a skill): schema, then loader rules. */
export function checkAdapterManifest(doc: YamlDocument, schema: unknown): ContractResult {
  const c = new Checker(doc);
  const value = manifestRoot(doc);
  if (schemaStage(c, schema, 'transport')) {
    if (isMapping(value)) adapterLoader(c, value);
    else rootLoader(c, 'adapter');
  }
  return { invalid: c.invalid, shippedError: c.shipped, contract: null, diagnostics: c.diagnostics };
}

/** The transports Eva-CLI's loader knows (`AdapterTransport::parse`, eva.md §2.2). */
const ADAPTER_TRANSPORTS: readonly string[] = [
  'builtin',
  'stdio',
  'http',
  'eventbus',
  'mcp',
  'skill',
  'hardware',
  'lua_capability',
];

/**
 * The typed loader (`AdapterManifest::try_from_raw`): serde's reading of the provider
 * fields, then id, name, version, transport and capability names, then the provider rules.
 */
export function adapterLoader(c: Checker, value: Record<string, unknown>): boolean {
  // serde reads the mapping in document order: the first entry it refuses is the error.
  const provider = providerSerdeError(c.doc, value);
  const own = adapterEntriesSerdeError(c.doc, value);
  const first = own && (!provider || before(c.doc, own.path, provider.path)) ? own : provider;
  const serde = adapterStructSerdeError(c.doc, value, first);
  if (serde) {
    const code = serde === provider ? 'eva.provider.invalid' : 'eva.yaml.parse';
    return (c.error(code, serde.message, serde.path, true, serde.span), false);
  }
  if (!loaderIdentity(c, value)) return false;
  // The loader's own check (§2.2), reached when a project's schema no longer lists the transports.
  const transport = manifestString(c.doc, value, 'transport');
  if (transport !== undefined && !ADAPTER_TRANSPORTS.includes(transport))
    return (c.error('eva.adapter.transport-unsupported', 'unsupported Adapter transport', ['transport'], true), false);
  // serde's text of each item (`[5]` is "5", `!t [a]` is ["a"]), as the loader parses it.
  for (const cap of adapterCapabilityList(c.doc, value)) {
    const e = capabilityNameError(cap.name);
    if (e) return (c.error('eva.capability.name-invalid', e, cap.field, true), false);
  }
  const rule = providerRuleError(c.doc, value);
  if (rule) return (c.error('eva.provider.invalid', rule.message, rule.path, true), false);
  return true;
}

/** True when the top-level entry of `a` comes before that of `b` in the document. */
function before(doc: YamlDocument, a: DocPath, b: DocPath): boolean {
  const [ra, rb] = [doc.keyRange(a.slice(0, 1)).start, doc.keyRange(b.slice(0, 1)).start];
  return ra.line < rb.line || (ra.line === rb.line && ra.character < rb.character);
}
