import { structField } from './serdeStruct';
import { rawStruct } from './rawManifestSerde';
import type { YamlDocument } from './yamlDocument';
import type { ProviderRuleError } from './serdeWords';
import { credentialEnv } from './credentialEnv';
import { unknownProviderField } from './unknownProviderField';
import { transportSupportsProcess } from './providerTransport';
import { restartError } from './providerRestart';
import { runAsError } from './providerRunAs';
import { vaultError } from './vaultRefs';

/**
 * The adapter loader's provider rules (eva.md §2.2), ported from upstream
 * `crates/eva-config/src/manifest/adapter.rs` (`validated_credential_env`,
 * `parse_provider_config` and what it calls): `permissions.env`, `supervision.restart`,
 * `supervision.run_as` and `credentials.vault`. Upstream reads these with serde first
 * (`RawAdapterManifest`), then checks them after the id, name, version and capabilities, and
 * stops at the first error, so each function returns at most one, at the field upstream names.
 * serde's reading is rawProviderConfig.ts; each rule has its file (credentialEnv.ts,
 * providerRestart.ts, providerRunAs.ts, vaultRefs.ts), and this one runs them in order.
 *
 * Not ported: `validate_for_environment`, whose plaintext-secret checks run only when
 * `runtime.env` is `prod`/`production` and which eva.md does not adopt, and the MCP
 * configuration rules (MCP adapters are out of scope, eva.md §1.4).
 */

export { providerSerdeError } from './rawProviderConfig';

/**
 * The loader's provider rules, in upstream order: `validated_credential_env`, then
 * `parse_provider_config` (unknown fields of `supervision` and `credentials`, restart,
 * run-as, vault references). Called after the id, name, version and capability rules.
 */
export function providerRuleError(doc: YamlDocument, manifest: Record<string, unknown>): ProviderRuleError | undefined {
  const env = credentialEnv(manifest);
  if ('message' in env) return env;
  // The values as serde read them (providerSerdeError passed): a struct under a tag is its mapping.
  const supervision = rawStruct(doc, ['supervision'], structField(manifest, 'supervision')) ?? {};
  const credentials = rawStruct(doc, ['credentials'], structField(manifest, 'credentials')) ?? {};
  const unknown =
    unknownProviderField(doc, ['supervision'], supervision, ['restart', 'run_as']) ??
    unknownProviderField(doc, ['credentials'], credentials, ['vault']);
  if (unknown) return unknown;
  const processBacked = transportSupportsProcess(doc, manifest);
  return (
    restartError(doc, rawStruct(doc, ['supervision', 'restart'], structField(supervision, 'restart')), processBacked) ??
    runAsError(doc, rawStruct(doc, ['supervision', 'run_as'], structField(supervision, 'run_as')), processBacked) ??
    vaultError(doc, structField(credentials, 'vault'), env.names)
  );
}
