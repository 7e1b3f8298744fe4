import * as z from 'zod';
import {
  capabilities,
  isIntegerLiteral,
  oauth,
  pathSpec,
  stringMap,
  text,
  textList,
  TIMEOUT_FIELDS,
  u64,
  when,
} from './schemas';
import { schemaProblems } from './zodIssues';
import { parseTomlDocument } from '../../../documents/tomlDocument';
import type { DocPath, ParsedDocument } from '../../../documents/document';
import type { Findings } from '../../../diagnostics/findings';
import { located, type ComponentKind, type Manifest, type McpServerDecl, type PathSpecDecl } from '../manifest';
import { mcpServerFromFields } from './mcpFields';
import { TOML_MAX_DEPTH } from './nestingLimits';
import { ownRecord } from '../../../documents/ownRecord';
import { byteOrder } from '../../../fs/rawNames';
import { isJsonObject } from '../../../documents/jsonObject';
import { REPORT_INPUT } from '../../../documents/parseContext';
import {
  CAPABILITIES_FIELDS,
  documentPath,
  PATH_SPEC_FIELDS,
  PLUGIN_TOML_LAYOUT,
  TOML_PLUGIN_FIELDS,
  tomlSequenceAsStruct,
  WHEN_FIELDS,
} from './serdeSequence';

/** Server keys upstream allows in TOML; `disabled` and `allow_private_network` are not among them. */
const TOML_SERVER_KEYS = new Set([
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'transport',
  'connect_timeout',
  'execute_timeout',
  'read_timeout',
  'enabled',
  'required',
  'enabled_tools',
  'disabled_tools',
  'headers',
  'env_headers',
  'env_http_headers',
  'bearer_token_env_var',
  'scopes',
  'oauth',
  'oauth_resource',
]);

const server = z.strictObject({
  command: text.optional(),
  args: textList.optional(),
  env: stringMap.optional(),
  cwd: text.optional(),
  url: text.optional(),
  transport: text.optional(),
  connect_timeout: u64.optional(),
  execute_timeout: u64.optional(),
  read_timeout: u64.optional(),
  enabled: z.boolean().optional(),
  required: z.boolean().optional(),
  enabled_tools: textList.optional(),
  disabled_tools: textList.optional(),
  headers: stringMap.optional(),
  env_headers: stringMap.optional(),
  env_http_headers: stringMap.optional(),
  bearer_token_env_var: text.optional(),
  scopes: textList.optional(),
  oauth: oauth.optional(),
  oauth_resource: text.optional(),
});

// The structs serde reads below the root may be written as arrays (serdeSequence.ts); the
// servers may not, as the pre-checks refuse them first.
const tomlPathSpec = tomlSequenceAsStruct(PATH_SPEC_FIELDS, pathSpec);

// `[providers]` is absent on purpose: outside policy v3 it is an unknown field [Skillgate].
const root = z.strictObject({
  schema_version: u64.max(0xffffffff).optional(),
  plugin: tomlSequenceAsStruct(
    TOML_PLUGIN_FIELDS,
    z.strictObject({
      name: text,
      description: text.optional(),
      version: text.optional(),
      author: text.optional(),
      display_name: text.optional(),
      icon: text.optional(),
      homepage: text.optional(),
      repository: text.optional(),
      license: text.optional(),
      keywords: textList.optional(),
    }),
  ),
  skills: tomlPathSpec.optional(),
  commands: tomlPathSpec.optional(),
  agents: tomlPathSpec.optional(),
  profiles: tomlPathSpec.optional(),
  hooks: tomlPathSpec.optional(),
  lsp: tomlPathSpec.optional(),
  lsp_servers: tomlPathSpec.optional(),
  native: tomlPathSpec.optional(),
  native_extension: tomlPathSpec.optional(),
  mcp_servers: ownRecord(z.string(), server).optional(),
  capabilities: tomlSequenceAsStruct(CAPABILITIES_FIELDS, capabilities).optional(),
  when: tomlSequenceAsStruct(WHEN_FIELDS, when).optional(),
});

type Root = z.infer<typeof root>;

/** Component tables and their serde aliases. */
const COMPONENT_KEYS: readonly [ComponentKind, string, string?][] = [
  ['skills', 'skills'],
  ['commands', 'commands'],
  ['agents', 'agents', 'profiles'],
  ['hooks', 'hooks'],
  ['lsp', 'lsp', 'lsp_servers'],
  ['native', 'native', 'native_extension'],
];

export function readPluginToml(file: string, source: string, findings: Findings): Manifest | undefined {
  // The toml crate skips a leading byte-order mark (codewhale.md §4.2); so does parseTomlDocument.
  const parsed = parseTomlDocument(file, source, TOML_MAX_DEPTH);
  const prefix = (span: readonly [number, number] | undefined) =>
    span
      ? `failed to parse plugin.toml near bytes ${byteOffset(source, span[0])}..${byteOffset(source, span[1])}; check the v1 schema and field types`
      : 'failed to parse plugin.toml; check the v1 schema and field types';
  if (!parsed.ok) {
    findings.inFile('codewhale.manifest.parse', `${prefix(undefined)} (${parsed.message})`, file, parsed.range);
    return undefined;
  }
  const doc = parsed.document;
  findings.addDocument(doc);
  const raw = doc.value as Record<string, unknown>;
  if (!precheckServers(raw, doc, findings)) return undefined;
  const result = root.safeParse(raw, REPORT_INPUT);
  if (!result.success) {
    for (const p of schemaProblems(result.error)) {
      // Where a struct is written as an array, the element (or, for a missing field, the array).
      const path = documentPath(raw, p.path, PLUGIN_TOML_LAYOUT);
      findings.at('codewhale.manifest.parse', `${prefix(doc.valueSpan(path))} (${p.detail})`, {
        file,
        path,
        key: p.key,
      });
    }
    return undefined;
  }
  const data = result.data;
  const integers: DocPath[] = [
    ['schema_version'],
    ...Object.keys(data.mcp_servers ?? {}).flatMap((id) => TIMEOUT_FIELDS.map((t) => ['mcp_servers', id, t])),
  ];
  let integral = true;
  for (const p of integers) {
    const literal = doc.literalAt(p);
    if (literal === undefined || isIntegerLiteral(literal, 'toml')) continue;
    findings.at(
      'codewhale.manifest.parse',
      `${prefix(doc.valueSpan(p))} (expected an unsigned integer at \`${p.join('.')}\`)`,
      { file, path: p },
    );
    integral = false;
  }
  if (!integral) return undefined;
  // serde reads an alias as its field, so a table that has both names has that field twice:
  // the component aliases, and a server's `env_http_headers` beside `env_headers` (codewhale.md §3.4, §4.2).
  type Aliased = [table: DocPath, values: Partial<Record<string, unknown>>, field: string, alias: string];
  const aliased: Aliased[] = COMPONENT_KEYS.flatMap(([kind, , alias]): Aliased[] =>
    alias ? [[[], data, kind, alias]] : [],
  );
  for (const id of Object.keys(data.mcp_servers ?? {}).sort(byteOrder))
    aliased.push([['mcp_servers', id], data.mcp_servers?.[id] ?? {}, 'env_headers', 'env_http_headers']);
  for (const [table, values, field, alias] of aliased) {
    if (values[field] !== undefined && values[alias] !== undefined) {
      const at = table.concat(alias);
      findings.at('codewhale.manifest.parse', `${prefix(doc.valueSpan(at))} (duplicate field \`${field}\`)`, {
        file,
        path: at,
        key: true,
      });
      return undefined;
    }
  }
  return toManifest(file, data, doc);
}

/** Upstream checks MCP server keys before its (open) server struct sees them (codewhale.md §3.1). */
function precheckServers(raw: Record<string, unknown>, doc: ParsedDocument, findings: Findings): boolean {
  const servers = raw.mcp_servers;
  if (servers === undefined) return true;
  const file = doc.file;
  if (!isJsonObject(servers)) {
    findings.at('codewhale.manifest.parse', 'mcp_servers must be a table', { file, path: ['mcp_servers'] });
    return false;
  }
  let ok = true;
  for (const [id, value] of Object.entries(servers)) {
    if (!isJsonObject(value)) {
      findings.at('codewhale.manifest.parse', 'each MCP server must be a table', { file, path: ['mcp_servers', id] });
      ok = false;
      continue;
    }
    for (const key of Object.keys(value)) {
      if (!TOML_SERVER_KEYS.has(key)) {
        findings.at('codewhale.manifest.parse', 'plugin MCP server contains an unsupported field', {
          file,
          path: ['mcp_servers', id, key],
          key: true,
        });
        ok = false;
      }
    }
    const o = value.oauth;
    if (o !== undefined) {
      if (!isJsonObject(o)) {
        findings.at('codewhale.manifest.parse', 'plugin MCP oauth must be a table', {
          file,
          path: ['mcp_servers', id, 'oauth'],
        });
        ok = false;
      } else {
        for (const key of Object.keys(o)) {
          if (key !== 'client_id') {
            findings.at('codewhale.manifest.parse', 'plugin MCP oauth contains an unsupported field', {
              file,
              path: ['mcp_servers', id, 'oauth', key],
              key: true,
            });
            ok = false;
          }
        }
      }
    }
  }
  return ok;
}

function toManifest(file: string, d: Root, doc: ParsedDocument): Manifest {
  // Paths by field names; where a struct is written as an array, the document's path holds its index.
  const docPath = (path: readonly (string | number)[]) => documentPath(doc.value, path, PLUGIN_TOML_LAYOUT);
  const at = (...path: (string | number)[]) => ({ file, path: docPath(path) });
  const opt = (v: string | undefined, ...path: string[]) =>
    v === undefined ? undefined : located(v, file, docPath(path));
  const list = (values: readonly string[] | undefined, ...path: (string | number)[]) =>
    (values ?? []).map((v, i) => located(v, file, docPath(path.concat(i))));
  const components: Partial<Record<ComponentKind, PathSpecDecl>> = {};
  for (const [kind, key, alias] of COMPONENT_KEYS) {
    const used =
      d[key as keyof Root] !== undefined ? key : alias && d[alias as keyof Root] !== undefined ? alias : undefined;
    if (!used) continue;
    const spec = d[used as keyof Root] as z.infer<typeof pathSpec>;
    const paths = [
      ...(spec.path !== undefined ? [located(spec.path, file, docPath([used, 'path']))] : []),
      ...list(spec.paths, used, 'paths'),
    ];
    // An empty `[skills]` table means the default `skills` path (codewhale.md §3.1).
    if (kind === 'skills' && paths.length === 0) paths.push(located('skills', file, [used]));
    components[kind] = { paths, at: at(used) };
  }
  const servers: McpServerDecl[] = Object.entries(d.mcp_servers ?? {})
    .sort(([a], [b]) => byteOrder(a, b))
    .map(([id, s]) => {
      const p = (field: string) => ({ file, path: ['mcp_servers', id, field] });
      return mcpServerFromFields(
        id,
        { file, path: ['mcp_servers', id], key: true },
        s,
        p,
        s.env_headers !== undefined ? 'env_headers' : 'env_http_headers',
      );
    });
  return {
    label: 'plugin.toml',
    file,
    schemaVersion: located(d.schema_version ?? 0, file, ['schema_version']),
    nameRule: 'toml',
    name: located(d.plugin.name, file, docPath(['plugin', 'name'])),
    version: located(
      d.plugin.version ?? '',
      file,
      d.plugin.version === undefined ? ['plugin'] : docPath(['plugin', 'version']),
    ),
    description: opt(d.plugin.description, 'plugin', 'description'),
    author: opt(d.plugin.author, 'plugin', 'author'),
    displayName: opt(d.plugin.display_name, 'plugin', 'display_name'),
    icon: opt(d.plugin.icon, 'plugin', 'icon'),
    homepage: opt(d.plugin.homepage, 'plugin', 'homepage'),
    repository: opt(d.plugin.repository, 'plugin', 'repository'),
    license: opt(d.plugin.license, 'plugin', 'license'),
    keywords: list(d.plugin.keywords, 'plugin', 'keywords'),
    components,
    mcpServers: servers,
    filesystemRoots: list(d.capabilities?.filesystem_roots, 'capabilities', 'filesystem_roots'),
    networkHosts: list(d.capabilities?.network_hosts, 'capabilities', 'network_hosts'),
    networkHostsDerived: false,
    lifecycleMutation: d.capabilities?.lifecycle_mutation ?? false,
    ...(d.when
      ? {
          when: {
            at: at('when'),
            ...(d.when.os ? { os: list(d.when.os, 'when', 'os') } : {}),
            ...(d.when.binaries ? { binaries: list(d.when.binaries, 'when', 'binaries') } : {}),
          },
        }
      : {}),
  };
}

function byteOffset(text: string, offset: number): number {
  return Buffer.byteLength(text.slice(0, offset), 'utf8');
}
