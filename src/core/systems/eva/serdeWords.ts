import type { DocPath } from '../../documents/document';
import { rustDebugStr } from '../../text/rustText';
import { YamlFloat } from './yamlScalars';
import { YamlTagged, isYamlInteger } from './yamlValue';
import type { YamlDocument } from './yamlDocument';
import { serdePathText, type SerdePath } from './yamlDuplicateKey';

/**
 * serde's words for a manifest Eva's typed loader refuses (serde_yaml 0.9 over serde's
 * derived structs): the error's shape, its `failed to parse YAML: {field}: {detail}`
 * sentence, and serde's `Unexpected` naming of a value. Shared by the provider rules and
 * the raw-manifest reading (rawManifestSerde.ts).
 */

export interface ProviderRuleError {
  readonly message: string;
  /** The field upstream names (`supervision.restart.mode`), as a document path. */
  readonly path: DocPath;
  /** Where the error stands when that is no field's key (a key serde refuses): offsets into the file. */
  readonly span?: readonly [number, number];
}

/**
 * serde's error at `path`. `doc` names each key as libyaml wrote it (`m.0x10`, `m.~`, `m.?` under
 * a collection key, `: …` for an empty key at the root); without it each key is its record name,
 * which is its text for a raw struct's own fields: only a path into what serde buffers needs it.
 */
export function serdeError(path: DocPath, detail: string, doc?: YamlDocument): ProviderRuleError {
  const field = serdePathText(doc ? doc.serdePath(path) : namedPath(path));
  // serde_yaml names no path at the document's root (error.rs: a path of "." is left out).
  return { message: `failed to parse YAML: ${field === '.' ? '' : `${field}: `}${detail}`, path };
}

/** serde's `Unexpected` for a YAML value (`invalid type: <this>, expected …`). */
export function unexpected(v: unknown): string {
  if (v === null || v === undefined) return 'unit value';
  if (typeof v === 'boolean') return `boolean \`${v}\``;
  if (v instanceof YamlFloat) return `floating point \`${floatText(v.value)}\``;
  if (isYamlInteger(v)) return `integer \`${integerText(v)}\``;
  if (typeof v === 'string') return `string ${rustDebugStr(v)}`;
  if (Array.isArray(v)) return 'sequence';
  if (v instanceof YamlTagged) return 'enum';
  return 'map';
}

function integerText(v: unknown): string {
  return typeof v === 'bigint' ? v.toString() : BigInt(v as number).toString();
}

/** serde's float display: always with a decimal point (`1.0`, `inf`, `NaN`). */
function floatText(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'inf' : '-inf';
  const s = String(n);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

/** serde_yaml's path of record names (`credentials.vault[0].env`). */
function namedPath(path: DocPath): SerdePath {
  return path.reduce<SerdePath>(
    (parent, seg) => (typeof seg === 'number' ? { parent, index: seg } : { parent, key: seg }),
    null,
  );
}
