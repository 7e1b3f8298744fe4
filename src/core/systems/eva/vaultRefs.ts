import type { DocPath } from '../../documents/document';
import type { YamlDocument } from './yamlDocument';
import { readSeq } from './serdeRead';
import { rawStruct, stringField } from './rawManifestSerde';
import { envNameError } from './credentialEnv';
import { unknownProviderField } from './unknownProviderField';
import type { ProviderRuleError } from './serdeWords';

/** `parse_provider_vault_refs`: each entry's env target allowed and unique, its ref well formed. */
export function vaultError(doc: YamlDocument, raw: unknown, allowed: readonly string[]): ProviderRuleError | undefined {
  if (raw === undefined) return undefined;
  const read = readSeq(doc, ['credentials', 'vault'], raw);
  const entries = 'ok' in read ? read.ok : [];
  const seen = new Set<string>();
  for (let i = 0; i < entries.length; i++) {
    const at: DocPath = ['credentials', 'vault', i];
    const entry = rawStruct(doc, at, entries[i]) ?? {};
    const unknown = unknownProviderField(doc, at, entry, ['env', 'ref']);
    if (unknown) return unknown;
    const env = stringField(doc, at, entry, 'env');
    if (env === undefined) return { message: 'vault secret reference requires an env target', path: [...at, 'env'] };
    const invalid = envNameError(env, [...at, 'env']);
    if (invalid) return invalid;
    if (!allowed.includes(env))
      return { message: 'vault secret env target is not allowed by permissions.env', path: [...at, 'env'] };
    if (seen.has(env)) return { message: 'vault secret env target is duplicated', path: [...at, 'env'] };
    seen.add(env);
    const ref = stringField(doc, at, entry, 'ref');
    if (ref === undefined) return { message: 'vault secret reference requires ref', path: [...at, 'ref'] };
    const message = vaultRefError(ref);
    if (message) return { message, path: [...at, 'ref'] };
  }
  return undefined;
}

/** `validate_vault_secret_ref`: `vault://<segments>[#key]`, path ≤ 384 bytes, key ≤ 128, all ≤ 512. */
function vaultRefError(ref: string): string | undefined {
  if (!ref.startsWith('vault://')) return 'vault reference must start with vault://';
  const [path = '', key, ...more] = ref.slice('vault://'.length).split('#');
  const pathValid = path !== '' && bytes(path) <= 384 && path.split('/').every(vaultSegmentValid);
  const keyValid = key === undefined || (key !== '' && bytes(key) <= 128 && VAULT_CHARS.test(key));
  return bytes(ref) <= 512 && pathValid && keyValid && more.length === 0
    ? undefined
    : 'vault reference path or key is invalid';
}

const VAULT_CHARS = /^[A-Za-z0-9._-]*$/;

function vaultSegmentValid(segment: string): boolean {
  return segment !== '' && segment !== '.' && segment !== '..' && VAULT_CHARS.test(segment);
}

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
