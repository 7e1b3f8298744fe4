import type { DocPath } from '../../documents/document';
import { isMapping } from './yamlValue';
import { structField } from './serdeStruct';
import { mappingGet } from './yamlMappingKeys';
import type { ProviderRuleError } from './serdeWords';

/** `validated_credential_env`: the names `permissions.env` lets the provider receive. */
export function credentialEnv(manifest: Record<string, unknown>): { names: readonly string[] } | ProviderRuleError {
  // A top-level key is read by its text (the flattened `Mapping`), `env` inside it as a value's key.
  const permissions = structField(manifest, 'permissions');
  if (permissions === undefined) return { names: [] };
  if (!isMapping(permissions)) return { message: 'permissions must be an object', path: ['permissions'] };
  const env = mappingGet(permissions, 'env');
  if (env === undefined) return { names: [] };
  if (!Array.isArray(env)) return { message: 'permissions.env must be a string list', path: ['permissions', 'env'] };
  const seen = new Set<string>();
  for (let i = 0; i < env.length; i++) {
    const path: DocPath = ['permissions', 'env', i];
    const name: unknown = env[i];
    if (typeof name !== 'string') return { message: 'credential env target must be a string', path };
    const invalid = envNameError(name, path);
    if (invalid) return invalid;
    if (seen.has(name)) return { message: 'credential env target is duplicated', path };
    seen.add(name);
  }
  return { names: env as string[] };
}

/**
 * `validate_env_name`: at most 128 bytes, an ASCII letter or `_` then ASCII letters, digits
 * and `_`, and not a name the supervisor reserves.
 */
export function envNameError(name: string, path: DocPath): ProviderRuleError | undefined {
  // Only ASCII passes, so UTF-16 length is the byte length whenever the rest holds.
  const valid = name.length <= 128 && /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);
  return valid && !isReservedEnv(name)
    ? undefined
    : { message: 'credential env target is invalid or reserved by the provider supervisor', path };
}

/**
 * `is_dangerous_credential_env`: names that change executable lookup, dynamic loading,
 * interpreter start-up, shell parsing or the supervisor's own session, compared without
 * ASCII case (Windows ignores it).
 */
function isReservedEnv(name: string): boolean {
  const upper = name.toUpperCase(); // ASCII only here (envNameError), so this is `to_ascii_uppercase`
  return (
    RESERVED_ENV.has(upper) ||
    upper.startsWith('LD_') ||
    upper.startsWith('DYLD_') ||
    upper.startsWith('EVA_PROVIDER_SESSION_')
  );
}

const RESERVED_ENV: ReadonlySet<string> = new Set([
  'PATH',
  'PATHEXT',
  'COMSPEC',
  'PYTHONPATH',
  'NODE_OPTIONS',
  'BASH_ENV',
  'ENV',
  'IFS',
  'EVA_PROVIDER_SESSION_ID',
  'EVA_PROVIDER_SESSION_TOKEN',
]);
