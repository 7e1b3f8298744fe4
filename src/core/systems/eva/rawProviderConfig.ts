import type { DocPath } from '../../documents/document';
import type { YamlDocument } from './yamlDocument';
import { readOptionString, readOptionU64, readSeq, readStruct } from './serdeRead';
import { entryValuesSerdeError, structField, structSerdeError } from './serdeStruct';
import { keysInDocumentOrder } from './serdeKeyOrder';
import type { ProviderRuleError } from './serdeWords';

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
