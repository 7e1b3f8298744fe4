import type { DocPath } from '../../documents/document';
import { emptyOwnRecord } from '../../documents/ownRecord';
import { serdeError, unexpected, type ProviderRuleError } from './serdeWords';
import { isMapping, untag } from './yamlValue';
import type { YamlDocument } from './yamlDocument';
import { parseU64 } from './yamlScalars';

/**
 * One field's value as serde_yaml hands it to the field's type in a raw struct
 * (rawManifestSerde.ts). A field of type `String` takes any scalar's text, tag or not (`5` is
 * "5", `~` is "~"); an `Option<String>` is `None` for `~`, `null` or nothing; a `Vec<String>` is
 * empty for nothing but refuses `~`. A `bool` (`enabled`) is a plain `true`/`false` word under
 * any tag, nothing else.
 */

/** `Option<String>`: null is `None`, any scalar is its text; a sequence or mapping is refused. */
export function optionalStringError(path: DocPath, v: unknown): ProviderRuleError | undefined {
  const inner = untag(v);
  return Array.isArray(inner) || isMapping(inner)
    ? serdeError(path, `invalid type: ${unexpected(inner)}, expected a string`)
    : undefined;
}

/** `#[serde(default)] Vec<String>` (readSeq, then readString per item); absent is empty. */
export function stringListError(doc: YamlDocument, path: DocPath, v: unknown): ProviderRuleError | undefined {
  if (v === undefined) return undefined;
  const list = readSeq(doc, path, v);
  if (!('ok' in list)) return list;
  for (let i = 0; i < list.ok.length; i++) {
    const e = refusal(readString(doc, [...path, i], list.ok[i]));
    if (e) return e;
  }
  return undefined;
}

/**
 * The text serde reads into an `Option<String>` field at `path` (readOptionString): null for
 * `None`, and for a sequence or mapping (refused where the field is read).
 */
export function serdeString(doc: YamlDocument, path: DocPath, v: unknown): string | null {
  const read = readOptionString(doc, path, v);
  return 'ok' in read ? read.ok : null;
}

/** A field's value as serde_yaml hands it to the field's type, or serde's words for it. */
export type SerdeRead<T> = { readonly ok: T } | ProviderRuleError;

/**
 * `Option<T>` (serde_yaml de.rs `deserialize_option`): absent, or a plain `~`/`null`/`Null`/
 * `NULL`/empty scalar with no tag, or under `!!null`, is `None`. A quoted `"~"` is `Some`, even
 * under `!!null`, and so is `!t ~` (any other tag).
 */
function isNone(doc: YamlDocument, path: DocPath, v: unknown): boolean {
  return v === undefined || (v === null && (doc.scalarAt(path)?.style ?? 'plain') === 'plain');
}

/**
 * `Option<String>`: `deserialize_str` takes any scalar's text, whatever its tag or type (`5` is
 * "5", `!t none` is "none", `!t ~` is "~"); a sequence or mapping is refused, under a tag or not.
 */
export function readOptionString(doc: YamlDocument, path: DocPath, v: unknown): SerdeRead<string | null> {
  return isNone(doc, path, v) ? { ok: null } : readString(doc, path, v);
}

/**
 * `String` (`deserialize_str`): any scalar's text, whatever its tag or type (`~` is "~", nothing
 * is ""); a sequence or mapping is refused, under a tag or not.
 */
export function readString(doc: YamlDocument, path: DocPath, v: unknown): SerdeRead<string> {
  const inner = untag(v);
  if (Array.isArray(inner) || isMapping(inner))
    return serdeError(path, `invalid type: ${unexpected(inner)}, expected a string`);
  return { ok: typeof inner === 'string' ? inner : (doc.scalarAt(path)?.text ?? String(inner)) };
}

/** serde's words when `read` failed. */
export function refusal<T>(read: SerdeRead<T>): ProviderRuleError | undefined {
  return 'ok' in read ? undefined : read;
}

/**
 * `Option<u64>`: `deserialize_u64` parses a plain scalar's text whatever its tag (`!t 3` and
 * `!!str 3` are 3), or a literal block under `!!int`; anything else is refused, named as
 * serde_yaml types it with no tag in the way (a quoted `"3"` is a string, `!t ~` a unit value).
 */
export function readOptionU64(doc: YamlDocument, path: DocPath, v: unknown): SerdeRead<bigint | null> {
  if (isNone(doc, path, v)) return { ok: null };
  const inner = untag(v);
  const scalar = doc.scalarAt(path);
  if (scalar && (scalar.style === 'plain' || (scalar.style === 'literal' && scalar.tag === TAG_INT))) {
    const n = parseU64(scalar.text);
    if (n !== undefined) return { ok: n };
  }
  return serdeError(path, `invalid type: ${unexpected(inner)}, expected u64`);
}

/**
 * `bool` (`deserialize_bool`): a plain scalar whatever its tag (`!t true`, `!!str false`), or a
 * literal block under `!!bool`, whose text is one of `parse_bool`'s words; anything else is
 * refused, named as serde_yaml types it (a quoted `"true"` and `yes` are strings, `~` and nothing
 * a unit value, `!!bool "true"` a boolean).
 */
export function readBool(doc: YamlDocument, path: DocPath, v: unknown): SerdeRead<boolean> {
  const scalar = doc.scalarAt(path);
  if (scalar && (scalar.style === 'plain' || (scalar.style === 'literal' && scalar.tag === TAG_BOOL))) {
    const word = BOOL_WORDS.get(scalar.text);
    if (word !== undefined) return { ok: word };
  }
  return serdeError(path, `invalid type: ${unexpected(untag(v))}, expected a boolean`);
}

/** serde_yaml de.rs `parse_bool`. */
const BOOL_WORDS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
]);

/**
 * A raw struct (`deserialize_map`): a mapping under any tag, or an empty plain scalar (an empty
 * mapping: every field `None` or empty); `Option<struct>` takes `None` first (isNone).
 */
export function readStruct(
  doc: YamlDocument,
  path: DocPath,
  v: unknown,
  name: string,
  optional: boolean,
): SerdeRead<Record<string, unknown> | null> {
  if (optional && isNone(doc, path, v)) return { ok: null };
  const inner = untag(v);
  if (isMapping(inner)) return { ok: inner };
  if (emptyPlain(doc, path, inner)) return { ok: emptyOwnRecord<unknown>() };
  return serdeError(path, `invalid type: ${unexpected(inner)}, expected struct ${name}`);
}

/** `#[serde(default)] Vec<T>` (`deserialize_seq`): a sequence under any tag, or an empty plain scalar. */
export function readSeq(doc: YamlDocument, path: DocPath, v: unknown): SerdeRead<readonly unknown[]> {
  const inner = untag(v);
  if (Array.isArray(inner)) return { ok: inner };
  if (emptyPlain(doc, path, inner)) return { ok: [] };
  return serdeError(path, `invalid type: ${unexpected(inner)}, expected a sequence`);
}

/** The empty plain scalar (`key:`, `key: !t`), which serde_yaml reads as an empty mapping or sequence. */
function emptyPlain(doc: YamlDocument, path: DocPath, inner: unknown): boolean {
  if (inner !== null) return false;
  const scalar = doc.scalarAt(path);
  return scalar?.style === 'plain' && scalar.text === '';
}

const TAG_INT = 'tag:yaml.org,2002:int';
const TAG_BOOL = 'tag:yaml.org,2002:bool';
