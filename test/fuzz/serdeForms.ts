import {
  CLAUDE_MCP_LAYOUT,
  innerLayout,
  KIMI_JSON_LAYOUT,
  MCP_JSON_LAYOUT,
  PLUGIN_JSON_LAYOUT,
  PLUGIN_TOML_LAYOUT,
  type SerdeLayout,
} from '../../src/core/systems/codewhale/formats/serdeSequence';

/**
 * Codewhale's manifests written the other ways serde derive reads them (codewhale.md §4.2):
 * a struct as an array of its fields in declaration order, and `null` for an `Option` field
 * (JSON only). Both forms load as the object form does, so every face must show the same
 * items, decisions and capabilities; only the bytes (the content hash) differ.
 */
export type SerdeFormat = 'json' | 'toml';

/** One choice per struct met, in document order: convert it, and pad it with trailing nulls. */
export interface SerdeChoices {
  readonly convert: () => boolean;
  readonly trailingNulls: () => boolean;
}

/**
 * Fields that are not `Option` yet have a default (`Vec`, map, `bool`): a gap before a later
 * field is written as that default, since serde refuses `null` there. Every other field a
 * valid manifest may leave out is an `Option`, whose gap is `null` (JSON) or cannot be
 * written (TOML, which has no null: such a struct stays a table).
 */
const DEFAULTS: Readonly<Record<string, unknown>> = {
  keywords: [],
  extensions: {},
  paths: [],
  filesystem_roots: [],
  network_hosts: [],
  lifecycle_mutation: false,
  args: [],
  env: {},
  headers: {},
  env_headers: {},
  enabled_tools: [],
  disabled_tools: [],
  scopes: [],
  enabledTools: [],
  platforms: [],
  mcpOverrides: {},
};

/** Fields no manifest may leave out: a struct missing one is left as it is. */
const REQUIRED = new Set(['name', 'mcpServers']);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

/** The struct `value` as an array, or undefined where its fields cannot be written in order. */
function structAsArray(
  value: Record<string, unknown>,
  fields: readonly string[],
  format: SerdeFormat,
  trailingNulls: boolean,
): unknown[] | undefined {
  const keys = Object.keys(value);
  if (keys.some((k) => !fields.includes(k))) return undefined;
  const present = (f: string) => Object.hasOwn(value, f) && (format === 'toml' || value[f] !== null);
  let last = -1;
  fields.forEach((f, i) => present(f) && (last = i));
  const out: unknown[] = [];
  for (let i = 0; i <= last; i++) {
    const f = fields[i] as string;
    if (present(f)) out.push(value[f]);
    else if (Object.hasOwn(DEFAULTS, f)) out.push(structuredClone(DEFAULTS[f]));
    else if (format === 'json' && !REQUIRED.has(f)) out.push(null);
    else return undefined;
  }
  // Trailing Option fields written as null: serde reads them as None, as it reads them left out.
  if (format === 'json' && trailingNulls)
    for (let i = last + 1; i < fields.length; i++) {
      const f = fields[i] as string;
      if (Object.hasOwn(DEFAULTS, f) || REQUIRED.has(f)) break;
      out.push(null);
    }
  return out;
}

/** `value` with the structs `choices` picks (where `layout` places them) written as arrays. */
export function asSerdeArrays(
  value: unknown,
  layout: SerdeLayout,
  format: SerdeFormat,
  choices: SerdeChoices,
): unknown {
  if (!isPlainObject(value)) return value;
  const inner: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const at = innerLayout(layout, k);
    inner[k] = at ? asSerdeArrays(v, at, format, choices) : v;
  }
  // The root of plugin.toml is always a table (upstream reads it as one first).
  if (!('struct' in layout) || (format === 'toml' && layout === PLUGIN_TOML_LAYOUT)) return inner;
  if (!choices.convert()) return inner;
  return structAsArray(inner, layout.struct, format, choices.trailingNulls()) ?? inner;
}

/** `value` with `null` written for Option fields left out, where `pick` says so (JSON only). */
export function withNullOptions(value: unknown, layout: SerdeLayout, pick: () => boolean): unknown {
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const at = innerLayout(layout, k);
    out[k] = at ? withNullOptions(v, at, pick) : v;
  }
  if ('struct' in layout)
    for (const f of layout.struct)
      if (!Object.hasOwn(out, f) && !Object.hasOwn(DEFAULTS, f) && !REQUIRED.has(f) && f !== '$schema' && pick())
        out[f] = null;
  return out;
}

/** The layout of a Codewhale JSON manifest by its bundle-relative place, if it is one. */
export function jsonLayoutOf(relPath: string): SerdeLayout | undefined {
  const parts = relPath.split('/');
  const base = parts[parts.length - 1];
  const dir = parts[parts.length - 2];
  if (base === 'plugin.json') return dir === '.claude-plugin' ? KIMI_JSON_LAYOUT : PLUGIN_JSON_LAYOUT;
  if (base === 'kimi.plugin.json') return KIMI_JSON_LAYOUT;
  if (base === 'mcp.json') return MCP_JSON_LAYOUT;
  if (base === '.mcp.json') return CLAUDE_MCP_LAYOUT;
  return undefined;
}

/** A TOML text for a plain value (strings, integers, booleans, lists and tables; tables of tables as sections). */
export function tomlText(root: Record<string, unknown>): string {
  const lines: string[] = [];
  const section = (prefix: string[], table: Record<string, unknown>) => {
    const entries = Object.entries(table);
    const plain = entries.filter(([, v]) => !isPlainObject(v));
    const tables = entries.filter(([, v]) => isPlainObject(v)) as [string, Record<string, unknown>][];
    if (prefix.length && (plain.length || !tables.length)) lines.push(`[${prefix.map(tomlKey).join('.')}]`);
    for (const [k, v] of plain) lines.push(`${tomlKey(k)} = ${tomlValue(v)}`);
    for (const [k, v] of tables) section([...prefix, k], v);
  };
  section([], root);
  return `${lines.join('\n')}\n`;
}

function tomlKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k);
}

function tomlValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(', ')}]`;
  if (isPlainObject(v))
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${tomlKey(k)} = ${tomlValue(x)}`)
      .join(', ')} }`;
  throw new Error(`no TOML for ${String(v)}`);
}
