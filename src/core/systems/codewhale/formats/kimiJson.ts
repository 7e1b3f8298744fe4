import * as path from 'node:path';
import * as z from 'zod';
import { option, text, textList } from './schemas';
import { schemaProblems } from './zodIssues';
import { mcpServerFromFields } from './mcpFields';
import { MAX_MANIFEST_BYTES, STANDARD_SERVER_FIELDS, standardServersShape, standardServerToFields } from './mcpJson';
import { composeAuthor } from './pluginJson';
import { parseJsonDocument } from '../../../documents/jsonDocument';
import { refusedRepeatedKeys, type SerdeShape } from './repeatedKeys';
import { decodeUtf8, lstatEntry, readRegularFile, statEntry } from '../../../fs/safeFs';
import { fileReadErrorText } from '../fileReadError';
import type { Findings } from '../../../diagnostics/findings';
import {
  located,
  type ComponentKind,
  type Located,
  type Manifest,
  type ManifestLabel,
  type McpServerDecl,
  type PathSpecDecl,
  type Where,
} from '../manifest';
import { isKimiPluginName } from '../names';
import type { DocPath, ParsedDocument } from '../../../documents/document';
import type { DiagnosticCode } from '../../../diagnostics/diagnosticCodes';
import { asciiLower, rustTrim } from '../../../text/rustText';
import { SERDE_JSON_MAX_DEPTH } from './nestingLimits';
import { ownRecord } from '../../../documents/ownRecord';
import { byteOrder } from '../../../fs/rawNames';
import { REPORT_INPUT } from '../../../documents/parseContext';
import { typeInBundle, type BundleTree } from '../bundleTree';
import {
  AUTHOR_FIELDS,
  CLAUDE_MCP_LAYOUT,
  CLAUDE_WRAPPED_MCP_LAYOUT,
  documentPath,
  KIMI_FIELDS,
  KIMI_INTERFACE_FIELDS,
  KIMI_JSON_LAYOUT,
  KIMI_OVERRIDE_FIELDS,
  KIMI_SERVER_FIELDS,
  KIMI_SERVER_LAYOUT,
  sequenceAsStruct,
} from './serdeSequence';

const pathList = z.union([text, z.array(text)]);

// Each struct may be written as an array too, as serde reads it (serdeSequence.ts).
const kimiServer = sequenceAsStruct(
  KIMI_SERVER_FIELDS,
  z.strictObject({ ...STANDARD_SERVER_FIELDS, enabledTools: textList.optional() }),
);

type KimiServer = z.infer<typeof kimiServer>;
interface KimiServerSource {
  readonly id: string;
  readonly s: KimiServer;
  readonly doc: ParsedDocument;
  readonly base: DocPath;
}

/** `parse_kimi_plugin_json`'s name message; the metadata rule's own words follow only for a name that passes it. */
const KIMI_PARSE_MESSAGE = (n: string) =>
  `kimi.plugin.json name \`${n}\` is invalid (1-64 lowercase ASCII letters, digits, hyphens, or underscores; must start with a letter or digit)`;

const OS_LIST = ['windows', 'linux', 'macos', 'freebsd', 'openbsd', 'netbsd', 'android', 'ios'];

const mcpOverride = sequenceAsStruct(
  KIMI_OVERRIDE_FIELDS,
  z.strictObject({ displayName: option(text), iconUrl: option(text) }),
);

const root = sequenceAsStruct(
  KIMI_FIELDS,
  z.strictObject({
    $schema: option(text),
    name: text,
    version: option(text),
    description: option(text),
    keywords: textList.optional(),
    author: option(
      z.union([
        text,
        sequenceAsStruct(AUTHOR_FIELDS, z.strictObject({ name: text, email: option(text), url: option(text) })),
      ]),
    ),
    homepage: option(text),
    repository: option(text),
    license: option(text),
    skills: option(pathList),
    commands: option(pathList),
    agents: option(pathList),
    mcpServers: ownRecord(z.string(), kimiServer).optional(),
    interface: option(
      sequenceAsStruct(
        KIMI_INTERFACE_FIELDS,
        z.strictObject({
          displayName: option(text),
          shortDescription: option(text),
          longDescription: option(text),
          developerName: option(text),
          websiteURL: option(text),
          iconUrl: option(text),
          category: option(text),
          hostKind: option(text),
          platforms: textList.optional(),
          mcpOverrides: ownRecord(z.string(), mcpOverride).optional(),
        }),
      ),
    ),
  }),
);

/** `KimiPluginManifest`: the servers as in mcp.json, and `interface.mcpOverrides` a map of structs. */
function kimiJsonShape(path: DocPath): SerdeShape {
  if (path.length === 2 && path[0] === 'interface' && path[1] === 'mcpOverrides')
    return { kind: 'map', values: mcpOverride };
  return standardServersShape(path, kimiServer);
}

/**
 * `kimi.plugin.json` (codewhale.md §3.5), and the Claude form that Codewhale converts
 * and then reads with the same parser (§3.6).
 */
export function readKimiJson(
  file: string,
  source: string,
  bundleRoot: string,
  findings: Findings,
  label: ManifestLabel = 'kimi.plugin.json',
  tree?: BundleTree,
): Manifest | undefined {
  const claude = label === '.claude-plugin/plugin.json';
  const what = claude ? 'Claude plugin.json' : 'kimi.plugin.json';
  const parsed = parseJsonDocument(file, source, { maxDepth: SERDE_JSON_MAX_DEPTH });
  if (!parsed.ok) {
    findings.inFile('codewhale.manifest.parse', `failed to parse ${what}: ${parsed.message}`, file, parsed.range);
    return undefined;
  }
  const doc = parsed.document;
  findings.addDocument(doc);
  // Upstream reads the Claude form into a `serde_json::Value` first, where every repeated key
  // keeps its last value; `kimi.plugin.json` goes straight into its structs and maps.
  if (!claude && refusedRepeatedKeys(doc, kimiJsonShape, findings, 'codewhale.manifest.parse', what, KIMI_JSON_LAYOUT))
    return undefined;
  // Paths by field names; where a struct is written as an array, the document's path holds its index.
  const docPath = (p: readonly (string | number)[]) => documentPath(doc.value, p, KIMI_JSON_LAYOUT);
  if (claude) {
    // The Claude form is edited as a `Value` object before the Kimi parser sees it: an array
    // is no struct there (`parse_claude_plugin_json`).
    if (typeof doc.value !== 'object' || doc.value === null || Array.isArray(doc.value)) {
      findings.inFile('codewhale.manifest.parse', 'Claude plugin.json must be an object', file);
      return undefined;
    }
    for (const component of ['hooks/hooks.json', '.lsp.json']) {
      if (typeInBundle(tree, component, () => lstatEntry(path.join(bundleRoot, component)).type) !== 'missing') {
        findings.inFile(
          'codewhale.claude-unsupported',
          `Claude component ${component} is not supported by this importer; no partial plugin will be installed`,
          file,
        );
        return undefined;
      }
    }
    // The declared list of a component whose directory exists is read apart, into a string or a
    // list, before the Kimi parser: there `null` is refused, where the parser takes it as none.
    const declared = doc.value as Record<string, unknown> | null;
    for (const kind of ['skills', 'commands', 'agents'] as const) {
      if (
        typeof declared === 'object' &&
        declared?.[kind] === null &&
        typeInBundle(tree, kind, () => statEntry(path.join(bundleRoot, kind)).type) === 'directory'
      ) {
        findings.at(
          'codewhale.manifest.parse',
          `invalid Claude ${kind} paths: expected a string or a list of strings`,
          {
            file,
            path: [kind],
          },
        );
        return undefined;
      }
    }
  }
  const result = root.safeParse(doc.value, REPORT_INPUT);
  if (!result.success) {
    for (const p of schemaProblems(result.error))
      findings.at('codewhale.manifest.parse', `failed to parse ${what}: ${p.detail}`, {
        file,
        path: docPath(p.path),
        key: p.key,
      });
    return undefined;
  }
  const d = result.data;
  let ok = true;
  // Upstream's own words at parse time; the Claude form says "Claude plugin.json" instead (codewhale.md §3.5, §3.6).
  const fail = (code: DiagnosticCode, message: string, where: Where) => {
    findings.at(code, message.replace('kimi.plugin.json', what), where);
    ok = false;
  };
  const at = (...p: (string | number)[]): Where => ({ file, path: docPath(p) });
  if (d.$schema !== undefined && rustTrim(d.$schema) === '')
    fail('codewhale.manifest.parse', 'kimi.plugin.json `$schema` must be a non-empty string', at('$schema'));
  if (!isKimiPluginName(d.name)) fail('codewhale.manifest.name', KIMI_PARSE_MESSAGE(d.name), at('name'));
  for (const kind of ['skills', 'commands', 'agents'] as const) {
    const v = d[kind];
    if (Array.isArray(v) && v.length === 0)
      fail('codewhale.component.path', 'Kimi plugin component path list must not be empty', at(kind));
  }
  // Claude bundles: inline `mcpServers` plus a sibling `.mcp.json`, flat or wrapped (codewhale.md §3.6).
  const sources: KimiServerSource[] = Object.keys(d.mcpServers ?? {}).map((id) => ({
    id,
    s: (d.mcpServers ?? {})[id] as KimiServer,
    doc,
    base: docPath(['mcpServers', id]),
  }));
  if (claude) {
    const extra = readClaudeMcpJson(path.join(bundleRoot, '.mcp.json'), findings, tree);
    if (extra === undefined) ok = false;
    for (const e of extra ?? []) {
      if (sources.some((x) => x.id === e.id)) {
        findings.at('codewhale.mcp-json.parse', `Claude plugin declares MCP server \`${e.id}\` more than once`, {
          file: e.doc.file,
          path: e.base,
          key: true,
        });
        ok = false;
      } else sources.push(e);
    }
  }
  const servers: McpServerDecl[] = [];
  for (const { id, s, doc: srcDoc, base } of sources.sort((a, b) => byteOrder(a.id, b.id))) {
    const srcFile = srcDoc.file;
    const node = base.reduce<unknown>((n, k) => (n as Record<string | number, unknown> | undefined)?.[k], srcDoc.value);
    const where = (...p: (string | number)[]) => ({
      file: srcFile,
      path: base.concat(documentPath(node, p, KIMI_SERVER_LAYOUT)),
    });
    if (claude && JSON.stringify(s).includes('${CLAUDE_PLUGIN_ROOT}')) {
      findings.at(
        'codewhale.mcp-json.parse',
        `Claude MCP server \`${id}\` uses \${CLAUDE_PLUGIN_ROOT}, which Codewhale does not support`,
        { file: srcFile, path: base, key: true },
      );
      ok = false;
      continue;
    }
    // Claude's `type: "http"` is renamed before the Kimi parser sees it, in a server object only
    // (`Value::get` finds no `type` in an array).
    const { enabledTools, ...standard } = s;
    const mapped = standardServerToFields(
      id,
      claude && standard.type === 'http' && !Array.isArray(node) ? { ...standard, type: 'streamable-http' } : standard,
      srcDoc,
      base,
      findings,
    );
    if (!mapped) {
      ok = false;
      continue;
    }
    const fields = mapped.fields;
    let toolsAt = mapped.where('enabled_tools');
    // `enabledTools` joins the extension's `enabled_tools` only when they agree (`KimiMcpServer::into_config`).
    if (enabledTools !== undefined && enabledTools.length > 0) {
      const ext = fields.enabled_tools ?? [];
      if (ext.length > 0 && (ext.length !== enabledTools.length || ext.some((t, i) => t !== enabledTools[i]))) {
        fail(
          'codewhale.mcp.tool-filter',
          `kimi.plugin.json MCP server \`${id}\` declares conflicting enabledTools filters`,
          where('enabledTools'),
        );
        continue;
      }
      fields.enabled_tools = enabledTools;
      toolsAt = where('enabledTools');
    }
    if (claude) {
      // Headers translate to environment-backed authentication, or the bundle is refused.
      const headers = Object.entries(fields.headers ?? {});
      fields.headers = undefined;
      for (const [h, value] of headers) {
        const authorization = asciiLower(h) === 'authorization';
        // One source per header, names compared as `eq_ignore_ascii_case` does: a header already
        // among env_headers (the extension's or an earlier header's), or a second bearer, fails
        // the bundle upstream, whatever order its HashMap visits them in (`parse_claude_plugin_json`).
        if (
          Object.keys(fields.env_headers ?? {}).some((k) => asciiLower(k) === asciiLower(h)) ||
          (authorization && fields.bearer_token_env_var !== undefined)
        ) {
          findings.at(
            'codewhale.mcp.literal-headers',
            `Claude MCP server \`${id}\` has duplicate credential sources for header \`${h}\``,
            where('headers', h),
          );
          ok = false;
          continue;
        }
        const bearer = /^Bearer \$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value);
        const plain = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value);
        if (authorization && bearer) fields.bearer_token_env_var = bearer[1];
        else if (plain) fields.env_headers = { ...(fields.env_headers ?? {}), [h]: plain[1] as string };
        else {
          findings.at(
            'codewhale.mcp.literal-headers',
            `Claude MCP server \`${id}\` header \`${h}\` must be \`Bearer \${VAR}\` or \`\${VAR}\``,
            where('headers', h),
          );
          ok = false;
        }
      }
    }
    const placed = (field: string) =>
      field === 'enabled_tools'
        ? toolsAt
        : claude && (field === 'bearer_token_env_var' || field === 'env_headers')
          ? where('headers')
          : mapped.where(field);
    servers.push(mcpServerFromFields(id, { file: srcFile, path: base, key: true }, fields, placed));
  }
  if (d.author !== undefined && typeof d.author !== 'string' && rustTrim(d.author.name) === '') {
    fail('codewhale.manifest.text', 'plugin.json author.name must be a non-empty string', at('author', 'name'));
  }
  const iface = d.interface;
  if (iface?.hostKind !== undefined && asciiLower(iface.hostKind) !== 'local') {
    fail(
      'codewhale.manifest.parse',
      `kimi.plugin.json interface hostKind \`${iface.hostKind}\` is unsupported; only \`local\` is understood`,
      at('interface', 'hostKind'),
    );
  }
  for (const key of Object.keys(iface?.mcpOverrides ?? {})) {
    if (rustTrim(key) === '')
      fail('codewhale.manifest.parse', 'kimi.plugin.json interface mcpOverrides keys must not be empty', {
        file,
        path: docPath(['interface', 'mcpOverrides', key]),
        key: true,
      });
  }
  // Platforms are trimmed and ASCII-lowercased before the OS list and the repeat check; none means no `[when]`.
  const platforms: Located<string>[] = [];
  const seen = new Set<string>();
  (iface?.platforms ?? []).forEach((raw, i) => {
    const p = asciiLower(rustTrim(raw));
    if (!OS_LIST.includes(p))
      fail(
        'codewhale.when.os',
        `kimi.plugin.json interface has unsupported platform \`${p}\``,
        at('interface', 'platforms', i),
      );
    else if (seen.has(p))
      fail(
        'codewhale.when.os',
        `kimi.plugin.json interface repeats platform \`${p}\``,
        at('interface', 'platforms', i),
      );
    seen.add(p);
    platforms.push(located(p, file, docPath(['interface', 'platforms', i])));
  });
  if (!ok) return undefined;

  const components: Partial<Record<ComponentKind, PathSpecDecl>> = {};
  const spec = (kind: 'skills' | 'commands' | 'agents') => {
    const v = d[kind];
    if (v === undefined) return;
    const paths: Located<string>[] =
      typeof v === 'string'
        ? [located(v, file, docPath([kind]))]
        : v.map((p, i) => located(p, file, docPath([kind, i])));
    components[kind] = { paths, at: { file, path: docPath([kind]) } };
  };
  spec('skills');
  spec('commands');
  spec('agents');
  const statType = (rel: string) => typeInBundle(tree, rel, () => statEntry(path.join(bundleRoot, rel)).type);
  if (d.skills === undefined && !claude && statType('SKILL.md') === 'file') {
    components.skills = { paths: [located('.', file, [])], at: { file, path: [] } };
  }
  if (claude) {
    // Existing default directories join the declared paths (codewhale.md §3.6).
    for (const kind of ['skills', 'commands', 'agents'] as const) {
      if (statType(kind) !== 'directory') continue;
      const existing = components[kind];
      // A declared `./skills` or `skills/` already names the default directory (`parse_claude_plugin_json`).
      if (
        existing?.paths.some(
          (p) => (p.value.startsWith('./') ? p.value.slice(2) : p.value).replace(/\/+$/, '') === kind,
        )
      )
        continue;
      components[kind] = {
        at: existing?.at ?? { file, path: [] },
        paths: [...(existing?.paths ?? []), located(kind, file, [])],
      };
    }
  }
  const author = d.author === undefined ? undefined : typeof d.author === 'string' ? d.author : composeAuthor(d.author);
  const opt = (key: keyof Manifest, v: string | undefined, p: (string | number)[]) =>
    v === undefined ? {} : { [key]: located(v, file, docPath(p)) };
  return {
    label,
    file,
    schemaVersion: located(1, file, []),
    // The Claude form must also pass the Agent Plugins rule, checked with the metadata (codewhale.md §3.6).
    nameRule: claude ? 'agent-plugins' : 'kimi',
    name: located(d.name, file, docPath(['name'])),
    version: located(d.version ?? '0.0.0', file, d.version === undefined ? [] : docPath(['version'])),
    ...opt('description', d.description, ['description']),
    ...opt('author', author, ['author']),
    ...opt('displayName', d.interface?.displayName, ['interface', 'displayName']),
    ...opt('homepage', d.homepage, ['homepage']),
    ...opt('repository', d.repository, ['repository']),
    ...opt('license', d.license, ['license']),
    keywords: (d.keywords ?? []).map((k, i) => located(k, file, docPath(['keywords', i]))),
    components,
    mcpServers: servers,
    filesystemRoots: [],
    networkHosts: [],
    networkHostsDerived: true,
    lifecycleMutation: false,
    ...(platforms.length > 0
      ? { when: { at: { file, path: docPath(['interface', 'platforms']) }, os: platforms } }
      : {}),
  };
}

/** A Claude bundle's `.mcp.json`: `{ id: server }` or `{ mcpServers: {...}, $schema? }`. Undefined when invalid. */
function readClaudeMcpJson(file: string, findings: Findings, tree?: BundleTree): KimiServerSource[] | undefined {
  // The walk's bytes where it saw the file (the bundle's content hash covers them), else the disk's.
  const walked = tree?.typeOf('.mcp.json') ? tree.read('.mcp.json', MAX_MANIFEST_BYTES) : undefined;
  const read = walked ?? readRegularFile(file, MAX_MANIFEST_BYTES);
  if (walked === undefined && (read.ok || read.reason !== 'missing')) tree?.foundBeyondWalk();
  if (!read.ok) {
    if (read.reason === 'missing') return [];
    // A file it may not open is no link: upstream's `read_sibling_mcp_json` says which call failed. Its words
    // name `mcp.json` for this file too; Skillgate names `.mcp.json`, as in every message of this file.
    findings.inFile(
      'codewhale.mcp-json.file',
      read.reason === 'too-large'
        ? `.mcp.json exceeds the ${MAX_MANIFEST_BYTES}-byte review limit`
        : read.reason === 'io'
          ? fileReadErrorText('.mcp.json', read)
          : '.mcp.json must be a regular file, not a symbolic link',
      file,
    );
    return undefined;
  }
  const source = decodeUtf8(read.bytes);
  const parsed = source === undefined ? undefined : parseJsonDocument(file, source, { maxDepth: SERDE_JSON_MAX_DEPTH });
  if (!parsed || !parsed.ok) {
    findings.inFile(
      'codewhale.mcp-json.parse',
      `failed to parse .mcp.json: ${parsed && !parsed.ok ? parsed.message : 'not UTF-8'}`,
      file,
      parsed && !parsed.ok ? parsed.range : undefined,
    );
    return undefined;
  }
  findings.addDocument(parsed.document);
  const root = parsed.document.value as Record<string, unknown>;
  const wrapped = typeof root === 'object' && root !== null && 'mcpServers' in root;
  // A wrapper's `$schema` is removed unread, whatever its value (`parse_claude_plugin_json`).
  const servers = wrapped
    ? z
        .strictObject({ $schema: z.unknown().optional(), mcpServers: ownRecord(z.string(), kimiServer) })
        .safeParse(root, REPORT_INPUT)
    : ownRecord(z.string(), kimiServer).safeParse(root, REPORT_INPUT);
  if (!servers.success) {
    for (const p of schemaProblems(servers.error))
      findings.at('codewhale.mcp-json.parse', `failed to parse .mcp.json: ${p.detail}`, {
        file,
        path: documentPath(root, p.path, wrapped ? CLAUDE_WRAPPED_MCP_LAYOUT : CLAUDE_MCP_LAYOUT),
        key: p.key,
      });
    return undefined;
  }
  const map = (
    wrapped ? (servers.data as { mcpServers: Record<string, z.infer<typeof kimiServer>> }).mcpServers : servers.data
  ) as Record<string, z.infer<typeof kimiServer>>;
  const doc = parsed.document;
  return Object.entries(map).map(([id, s]) => ({ id, s, doc, base: wrapped ? ['mcpServers', id] : [id] }));
}
