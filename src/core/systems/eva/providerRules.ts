import type { DocPath } from '../../documents/document';
import { rustTrim } from '../../text/rustText';
import { isMapping } from './yamlValue';
import { nonStringKeys, serdeKeys } from './yamlMappingKeys';
import type { YamlDocument } from './yamlDocument';
import { manifestString } from './rawManifestSerde';
import { readOptionString, readOptionU64, readSeq, readStruct } from './serdeRead';
import { entryValuesSerdeError, structField, structSerdeError } from './serdeStruct';
import { keysInDocumentOrder } from './serdeKeyOrder';
import type { ProviderRuleError } from './serdeWords';

/**
 * The adapter loader's provider rules (eva.md §2.2), ported from upstream
 * `crates/eva-config/src/manifest/adapter.rs` (`validated_credential_env`,
 * `parse_provider_config` and what it calls): `permissions.env`, `supervision.restart`,
 * `supervision.run_as` and `credentials.vault`. Upstream reads these with serde first
 * (`RawAdapterManifest`), then checks them after the id, name, version and capabilities, and
 * stops at the first error, so each function returns at most one, at the field upstream names.
 *
 * Not ported: `validate_for_environment`, whose plaintext-secret checks run only when
 * `runtime.env` is `prod`/`production` and which eva.md does not adopt, and the MCP
 * configuration rules (MCP adapters are out of scope, eva.md §1.4).
 */

const U32_MAX = 4_294_967_295n;

/**
 * serde's reading of `supervision` and `credentials` into `RawProviderSupervision` /
 * `RawProviderCredentials` (counts `Option<u64>`, names `Option<String>`), which fails
 * before any loader rule. The schema (when it is upstream's) has already refused every wrong
 * type except a negative count; the rest stands for a key the schema does not find
 * (`!t supervision`) or a project schema that leaves them open.
 */
export function providerSerdeError(
  doc: YamlDocument,
  manifest: Record<string, unknown>,
): ProviderRuleError | undefined {
  // Known fields are deserialized as the mapping is read, so the first in document order fails first.
  for (const key of inDocumentOrder(doc, [], manifest, ['supervision', 'credentials'])) {
    const v = structField(manifest, key);
    const e =
      key === 'supervision'
        ? structSerde(doc, [key], v, 'RawProviderSupervision', false, SUPERVISION_FIELDS)
        : structSerde(doc, [key], v, 'RawProviderCredentials', false, CREDENTIALS_FIELDS);
    if (e) return e;
  }
  return undefined;
}

/** A raw struct's own fields and the type serde reads each into. */
type Fields = ReadonlyMap<string, 'u64' | 'string' | Struct | 'vault'>;
interface Struct {
  readonly name: string;
  readonly fields: Fields;
}

const RESTART: Struct = {
  name: 'RawProviderRestart',
  fields: new Map([
    ['mode', 'string'],
    ['max_attempts', 'u64'],
    ['backoff_ms', 'u64'],
  ]),
};
const RUN_AS: Struct = {
  name: 'RawProviderRunAs',
  fields: new Map([
    ['kind', 'string'],
    ['uid', 'u64'],
    ['gid', 'u64'],
    ['account', 'string'],
  ]),
};
const VAULT_SECRET_REF: Struct = {
  name: 'RawProviderVaultSecretRef',
  fields: new Map([
    ['env', 'string'],
    ['ref', 'string'],
  ]),
};
const SUPERVISION_FIELDS: Fields = new Map([
  ['restart', RESTART],
  ['run_as', RUN_AS],
]);
const CREDENTIALS_FIELDS: Fields = new Map([['vault', 'vault']]);

/**
 * One raw struct at `at` (`Option<…>` where `optional`): its mapping, then each entry in
 * document order, a field's value read by its type and a buffered entry's tags (serde reads
 * them all before the loader's rules run).
 */
function structSerde(
  doc: YamlDocument,
  at: DocPath,
  v: unknown,
  name: string,
  optional: boolean,
  fields: Fields,
): ProviderRuleError | undefined {
  const read = readStruct(doc, at, v, name, optional);
  if (!('ok' in read)) return read;
  const record = read.ok;
  if (record === null) return undefined; // `Option::None`
  const names = [...fields.keys()];
  const valueError = entryValuesSerdeError(doc, at, record, names, (key) =>
    fieldSerde(doc, [...at, key], structField(record, key), fields.get(key)!),
  );
  return structSerdeError(doc, at, record, names, valueError);
}

function fieldSerde(
  doc: YamlDocument,
  path: DocPath,
  value: unknown,
  type: 'u64' | 'string' | Struct | 'vault',
): ProviderRuleError | undefined {
  if (type === 'vault') {
    // `Vec<RawProviderVaultSecretRef>`: each entry a struct (no `Option`).
    const read = readSeq(doc, path, value);
    if (!('ok' in read)) return read;
    for (let i = 0; i < read.ok.length; i++) {
      const e = structSerde(doc, [...path, i], read.ok[i], VAULT_SECRET_REF.name, false, VAULT_SECRET_REF.fields);
      if (e) return e;
    }
    return undefined;
  }
  if (typeof type === 'object') return structSerde(doc, path, value, type.name, true, type.fields);
  const read = type === 'string' ? readOptionString(doc, path, value) : readOptionU64(doc, path, value);
  return 'ok' in read ? undefined : read;
}

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
    unknownField(doc, ['supervision'], supervision, ['restart', 'run_as']) ??
    unknownField(doc, ['credentials'], credentials, ['vault']);
  if (unknown) return unknown;
  const processBacked = transportSupportsProcess(doc, manifest);
  return (
    restartError(doc, rawStruct(doc, ['supervision', 'restart'], structField(supervision, 'restart')), processBacked) ??
    runAsError(doc, rawStruct(doc, ['supervision', 'run_as'], structField(supervision, 'run_as')), processBacked) ??
    vaultError(doc, structField(credentials, 'vault'), env.names)
  );
}

/** `validated_credential_env`: the names `permissions.env` lets the provider receive. */
function credentialEnv(manifest: Record<string, unknown>): { names: readonly string[] } | ProviderRuleError {
  // A top-level key is read by its text (the flattened `Mapping`), `env` inside it as a value's key.
  const permissions = structField(manifest, 'permissions');
  if (permissions === undefined) return { names: [] };
  if (!isMapping(permissions)) return { message: 'permissions must be an object', path: ['permissions'] };
  const env = valueField(permissions, 'env');
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
function envNameError(name: string, path: DocPath): ProviderRuleError | undefined {
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

/**
 * `reject_unknown_fields`: the first entry (in document order) of the struct's flattened
 * `Mapping`, i.e. the first key whose text names no field of the raw struct (`!t mode` is the
 * field `mode`; `1` is the entry "1").
 */
function unknownField(
  doc: YamlDocument,
  at: DocPath,
  record: Record<string, unknown>,
  known: readonly string[],
): ProviderRuleError | undefined {
  const keys = serdeKeys(record);
  const first = keys
    ? keys.find((k) => k.text !== undefined && !known.includes(k.text))?.name
    : keysInDocumentOrder(
        doc,
        at,
        Object.keys(record).filter((k) => !known.includes(k)),
      )[0];
  return first === undefined
    ? undefined
    : { message: 'provider config contains an unsupported field', path: [...at, first] };
}

/** `provider_transport_supports_process`: stdio, a skill with a command, an MCP stdio server. */
function transportSupportsProcess(doc: YamlDocument, manifest: Record<string, unknown>): boolean {
  // `command`, `skill` and `mcp` are found in the flattened `Mapping` by their key's text; what
  // is inside them is a value, whose keys `Mapping::get` compares as values. The transport is
  // the `AdapterTransport` parsed from serde's `String`: `transport: !t skill` is a skill.
  switch (manifestString(doc, manifest, 'transport')) {
    case 'stdio':
      return true;
    case 'skill': {
      const runner = recordOf(valueField(recordOf(structField(manifest, 'skill')), 'runner'));
      return typeof structField(manifest, 'command') === 'string' || typeof valueField(runner, 'command') === 'string';
    }
    case 'mcp': {
      const serverTransport = valueField(recordOf(structField(manifest, 'mcp')), 'server_transport');
      return typeof serverTransport !== 'string' || serverTransport === 'stdio';
    }
    default:
      return false;
  }
}

const RESTART_MODES: readonly string[] = ['none', 'on_failure', 'always'];

/** `parse_provider_restart`. */
function restartError(
  doc: YamlDocument,
  r: Record<string, unknown> | undefined,
  processBacked: boolean,
): ProviderRuleError | undefined {
  if (r === undefined) return undefined;
  const at: DocPath = ['supervision', 'restart'];
  const unknown = unknownField(doc, at, r, ['mode', 'max_attempts', 'backoff_ms']);
  if (unknown) return unknown;
  const mode = stringField(doc, at, r, 'mode');
  if (mode === undefined) return { message: 'explicit provider restart config requires mode', path: [...at, 'mode'] };
  if (!RESTART_MODES.includes(mode)) return { message: 'unsupported provider restart mode', path: [...at, 'mode'] };
  const maxAttempts = u64Field(doc, at, r, 'max_attempts') ?? 0n;
  if (maxAttempts > U32_MAX)
    return { message: 'provider restart max_attempts exceeds u32', path: [...at, 'max_attempts'] };
  const backoff = u64Field(doc, at, r, 'backoff_ms') ?? 0n;
  if (mode === 'none' && (maxAttempts !== 0n || backoff !== 0n))
    return { message: 'restart mode none requires zero max_attempts and backoff_ms', path: at };
  if (mode !== 'none' && (maxAttempts === 0n || backoff === 0n))
    return { message: 'automatic restart requires positive max_attempts and backoff_ms', path: at };
  if (mode !== 'none' && !processBacked)
    return { message: 'automatic restart requires a process-backed Adapter transport', path: [...at, 'mode'] };
  return undefined;
}

/** `parse_provider_run_as`. */
function runAsError(
  doc: YamlDocument,
  r: Record<string, unknown> | undefined,
  processBacked: boolean,
): ProviderRuleError | undefined {
  if (r === undefined) return undefined;
  const at: DocPath = ['supervision', 'run_as'];
  const unknown = unknownField(doc, at, r, ['kind', 'uid', 'gid', 'account']);
  if (unknown) return unknown;
  const kind = stringField(doc, at, r, 'kind');
  if (kind === undefined) return { message: 'explicit run_as config requires kind', path: [...at, 'kind'] };
  const uid = u64Field(doc, at, r, 'uid');
  const gid = u64Field(doc, at, r, 'gid');
  const account = stringField(doc, at, r, 'account');
  switch (kind) {
    case 'current':
      if (uid !== undefined || gid !== undefined || account !== undefined)
        return { message: 'current identity cannot declare uid, gid, or account', path: at };
      return undefined;
    case 'unix':
      if (account !== undefined)
        return { message: 'Unix identity cannot declare a Windows account', path: [...at, 'account'] };
      for (const [key, id] of [
        ['uid', uid],
        ['gid', gid],
      ] as const)
        if (id === undefined || id > U32_MAX)
          return { message: 'run_as numeric identity is required and must fit u32', path: [...at, key] };
      break;
    case 'windows':
      if (uid !== undefined || gid !== undefined)
        return { message: 'Windows identity cannot declare Unix uid or gid', path: at };
      if (account === undefined) return { message: 'Windows identity requires an account', path: [...at, 'account'] };
      if (!windowsAccountValid(account))
        return {
          message: 'Windows account is empty, untrimmed, oversized, or contains controls',
          path: [...at, 'account'],
        };
      break;
    default:
      return { message: 'unsupported provider run_as kind', path: [...at, 'kind'] };
  }
  return processBacked
    ? undefined
    : { message: 'non-current identity requires a process-backed Adapter transport', path: [...at, 'kind'] };
}

/** Not blank or padded (Rust's `trim`), at most 256 UTF-8 bytes, no `char::is_control` (Cc). */
function windowsAccountValid(account: string): boolean {
  const trimmed = rustTrim(account);
  return trimmed !== '' && trimmed === account && Buffer.byteLength(account, 'utf8') <= 256 && !/\p{Cc}/u.test(account);
}

/** `parse_provider_vault_refs`: each entry's env target allowed and unique, its ref well formed. */
function vaultError(doc: YamlDocument, raw: unknown, allowed: readonly string[]): ProviderRuleError | undefined {
  if (raw === undefined) return undefined;
  const read = readSeq(doc, ['credentials', 'vault'], raw);
  const entries = 'ok' in read ? read.ok : [];
  const seen = new Set<string>();
  for (let i = 0; i < entries.length; i++) {
    const at: DocPath = ['credentials', 'vault', i];
    const entry = rawStruct(doc, at, entries[i]) ?? {};
    const unknown = unknownField(doc, at, entry, ['env', 'ref']);
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
export function vaultRefError(ref: string): string | undefined {
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

/**
 * A raw struct as serde read it (its errors came first): the mapping under any tag, an empty
 * one for an empty plain scalar; undefined for absent or `None`.
 */
function rawStruct(doc: YamlDocument, path: DocPath, v: unknown): Record<string, unknown> | undefined {
  if (v === undefined) return undefined;
  const read = readStruct(doc, path, v, '', true);
  return 'ok' in read ? (read.ok ?? undefined) : undefined;
}

/** An `Option<String>` field of a raw struct as serde read it: absent or `None` is undefined. */
function stringField(doc: YamlDocument, at: DocPath, record: Record<string, unknown>, key: string): string | undefined {
  const read = readOptionString(doc, [...at, key], structField(record, key));
  return 'ok' in read ? (read.ok ?? undefined) : undefined;
}

/** An `Option<u64>` field of a raw struct as serde read it: absent or `None` is undefined. */
function u64Field(doc: YamlDocument, at: DocPath, record: Record<string, unknown>, key: string): bigint | undefined {
  const read = readOptionU64(doc, [...at, key], structField(record, key));
  return 'ok' in read ? (read.ok ?? undefined) : undefined;
}

/**
 * `mapping.get(Value::String(key))` on a mapping serde kept as a value (inside an entry of a
 * flattened `Mapping`): a key written as a non-string (`1`, `!!binary env`) is not that key.
 */
function valueField(record: Record<string, unknown>, key: string): unknown {
  if (!Object.hasOwn(record, key) || nonStringKeys(record).names.has(key)) return undefined;
  return record[key];
}

function recordOf(v: unknown): Record<string, unknown> {
  return isMapping(v) ? v : {};
}

/** The keys of `record` among `keys` that are present, in the order the document writes them. */
function inDocumentOrder(
  doc: YamlDocument,
  at: DocPath,
  record: Record<string, unknown>,
  keys: readonly string[],
): string[] {
  return keysInDocumentOrder(
    doc,
    at,
    keys.filter((k) => structField(record, k) !== undefined),
  );
}
