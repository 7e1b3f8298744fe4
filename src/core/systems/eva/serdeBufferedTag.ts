import type { DocPath } from '../../documents/document';
import { serdeError, type ProviderRuleError } from './serdeWords';
import { YamlTagged, isMapping } from './yamlValue';
import { serdeKeys } from './yamlMappingKeys';
import type { YamlDocument } from './yamlDocument';
import { keysInDocumentOrder } from './serdeKeyOrder';

/**
 * The local tag serde refuses in what a raw struct buffers (rawManifestSerde.ts): each entry it
 * has no field for goes through `deserialize_any` into its private `Content`, which refuses the
 * enum serde_yaml makes of a tagged value.
 */

const TAG_REFUSED = 'untagged and internally tagged enums do not support enum input';

/** The first entry of `record` (at `at`) that serde buffers and whose value holds a local tag. */
export function bufferedTagError(
  doc: YamlDocument,
  at: DocPath,
  record: Record<string, unknown>,
  fields: readonly string[],
): ProviderRuleError | undefined {
  for (const key of keysInDocumentOrder(doc, at, Object.keys(record))) {
    if (fields.includes(key)) continue;
    const tagged = firstTag(doc, [...at, key], record[key]);
    if (tagged) return serdeError(tagged, TAG_REFUSED, doc);
  }
  return undefined;
}

/**
 * A tagged value at or below `path`, depth first in document order (a bounded tree: the reader
 * expanded aliases). `Content` reads each key before its value, and a key through
 * `deserialize_any` too: a tagged key is refused where it stands, under its mapping's path.
 */
function firstTag(doc: YamlDocument, path: DocPath, value: unknown): DocPath | undefined {
  if (isLocalTag(value)) return path;
  if (value instanceof YamlTagged) return firstTag(doc, path, value.value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstTag(doc, [...path, i], value[i]);
      if (found) return found;
    }
    return undefined;
  }
  if (!isMapping(value)) return undefined;
  const keys = serdeKeys(value);
  if (keys) {
    for (const key of keys) {
      if (key.tagged) return path;
      // The pair's own value: a string key may have taken this name in the record.
      const found = firstTag(doc, [...path, key.name], key.value);
      if (found) return found;
    }
    return undefined;
  }
  for (const key of keysInDocumentOrder(doc, path, Object.keys(value))) {
    const found = firstTag(doc, [...path, key], value[key]);
    if (found) return found;
  }
  return undefined;
}

/**
 * A value under a local tag (`!x`, `!<!x>`): serde_yaml makes an enum only of a tag that still
 * starts with `!` once libyaml resolved it, so `!!binary` (`tag:yaml.org,2002:binary`) and a
 * `%TAG` handle's tags are read as their plain value.
 */
function isLocalTag(v: unknown): boolean {
  return v instanceof YamlTagged && v.tag.startsWith('!');
}
