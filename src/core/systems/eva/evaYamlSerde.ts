import type { DocPath } from '../../documents/document';
import { rustTrim } from '../../text/rustText';
import { readString } from './serdeRead';
import { structField } from './serdeStruct';
import { unexpected } from './serdeWords';
import { isMapping, untag } from './yamlValue';
import type { YamlDocument } from './yamlDocument';

/**
 * The `String` and `PathBuf` fields of `config/eva.yaml` as Eva-CLI reads them (upstream
 * `load_project_config`, eva_yaml.rs, serde_yaml 0.9). It reads them twice, two ways:
 *
 * - `load_eva_config` reads the base file alone with `serde_yaml::from_str` (the event stream):
 *   a field takes any scalar's text, whatever its tag or type (`!t hidden` is "hidden", `0x10`
 *   is "0x10"). That reading gives the env naming the layers and the schema_dir whose
 *   eva.schema.json checks the layered value.
 * - After the layers merged as `serde_yaml::Value`s, `load_eva_config_value` deserializes the
 *   merged `Value` (value/de.rs): `deserialize_string` looks through a tag (`untag`) and takes
 *   only a `Value::String`. `0x10` was read as the number 16 and `!t 5` as a tagged number, so
 *   they are refused there, the whole project with them. The roots come from this reading.
 *
 * Both readings read a struct (`runtime`, `config`) from a mapping under any tag.
 */

/** The refusal of a field, in upstream's words. */
export interface EvaYamlRefusal {
  readonly message: string;
}

/** `require_non_empty_path` / `require_non_empty` (lib.rs): what follows each reading. */
const EMPTY_PATH = 'path field cannot be empty';

/** The raw struct serde reads at `key` of `record` (a mapping under any tag), or undefined. */
export function evaStruct(
  record: Record<string, unknown> | undefined,
  key: string,
): Record<string, unknown> | undefined {
  if (!record) return undefined;
  const v = structField(record, key);
  const inner = untag(v);
  return isMapping(inner) ? inner : undefined;
}

/**
 * The base file's `PathBuf` at `path` as `load_eva_config` reads it (event stream, then
 * `require_non_empty_path`): undefined when absent.
 */
export function basePathField(
  doc: YamlDocument,
  struct: Record<string, unknown>,
  path: DocPath,
): { ok: string } | EvaYamlRefusal | undefined {
  const v = structField(struct, String(path[path.length - 1]));
  if (v === undefined) return undefined;
  const read = readString(doc, path, v);
  if (!('ok' in read)) return { message: read.message.replace(/expected a string$/, 'expected path string') };
  return read.ok === '' ? { message: EMPTY_PATH } : read;
}

/**
 * The base file's `runtime.env` as `load_eva_config` reads it (event stream, then
 * `require_non_empty`): the env that names `config/profiles/<env>.yaml` and
 * `config/environments/<env>.yaml`; undefined when absent or refused (no layer is read then).
 */
export function baseEnv(doc: YamlDocument, root: Record<string, unknown>): string | undefined {
  const runtime = evaStruct(root, 'runtime');
  const v = runtime ? structField(runtime, 'env') : undefined;
  if (v === undefined) return undefined;
  const read = readString(doc, ['runtime', 'env'], v);
  if (!('ok' in read)) return undefined;
  const env = read.ok;
  return rustTrim(env) === '' || rustTrim(env) !== env ? undefined : env;
}

/**
 * A `PathBuf` of the merged `Value` (`load_eva_config_value`): a string under any tag, else
 * serde's `invalid type` (no path: the Value deserializer tracks none); then `require_non_empty_path`.
 */
export function layeredPathField(v: unknown): { ok: string } | EvaYamlRefusal {
  const read = layeredText(v, 'path string');
  return 'ok' in read && read.ok === '' ? { message: EMPTY_PATH } : read;
}

/** `runtime.env` of the merged `Value`: a string under any tag, then `require_non_empty`. */
export function layeredEnv(v: unknown): { ok: string } | EvaYamlRefusal {
  const read = layeredText(v, 'a string');
  if (!('ok' in read)) return read;
  if (rustTrim(read.ok) === '') return { message: 'required field cannot be empty' };
  return rustTrim(read.ok) !== read.ok ? { message: 'field cannot contain leading or trailing whitespace' } : read;
}

/** value/de.rs `deserialize_string`: `untag`, then only a `Value::String`. */
function layeredText(v: unknown, expected: string): { ok: string } | EvaYamlRefusal {
  const inner = untag(v);
  if (typeof inner === 'string') return { ok: inner };
  return { message: `failed to parse eva.yaml: invalid type: ${unexpected(inner)}, expected ${expected}` };
}
