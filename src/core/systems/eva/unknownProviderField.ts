import type { DocPath } from '../../documents/document';
import { serdeKeys } from './yamlMappingKeys';
import type { YamlDocument } from './yamlDocument';
import { keysInDocumentOrder } from './serdeKeyOrder';
import type { ProviderRuleError } from './serdeWords';

/**
 * `reject_unknown_fields`: the first entry (in document order) of the struct's flattened
 * `Mapping`, i.e. the first key whose text names no field of the raw struct (`!t mode` is the
 * field `mode`; `1` is the entry "1").
 */
export function unknownProviderField(
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
