import * as path from 'node:path';
import { deserialized } from './deserialized';
import { mcpServerFromFields } from './mcpFields';
import { standardServerToFields } from './mcpJson';
import { composeAuthor } from './pluginJson';
import { parseJsonDocument } from '../../../documents/jsonDocument';
import { refusedRepeatedKeys } from './repeatedKeys';
import { statEntry } from '../../../fs/safeFs';
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
import type { DiagnosticCode } from '../../../diagnostics/diagnosticCodes';
import { asciiLower, rustTrim } from '../../../text/rustText';
import { SERDE_JSON_MAX_DEPTH } from './nestingLimits';
import { byteOrder } from '../../../fs/rawNames';
import { typeInBundle, type BundleTree } from '../bundleTree';
import { documentPath, KIMI_JSON_LAYOUT, KIMI_SERVER_LAYOUT } from './serdeSequence';
import { kimiJsonShape, kimiManifest, type KimiServer, type KimiServerSource } from './kimiJsonSchema';
import {
  addClaudeDefaultDirectories,
  claudeFormRefused,
  readClaudeMcpJson,
  translateClaudeHeaders,
} from './claudePluginJson';

/** `parse_kimi_plugin_json`'s name message; the metadata rule's own words follow only for a name that passes it. */
const KIMI_PARSE_MESSAGE = (n: string) =>
  `kimi.plugin.json name \`${n}\` is invalid (1-64 lowercase ASCII letters, digits, hyphens, or underscores; must start with a letter or digit)`;

const OS_LIST = ['windows', 'linux', 'macos', 'freebsd', 'openbsd', 'netbsd', 'android', 'ios'];

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
  if (claude && claudeFormRefused(doc.value, file, bundleRoot, findings, tree)) return undefined;
  const d = deserialized(doc, kimiManifest, findings, 'codewhale.manifest.parse', what, KIMI_JSON_LAYOUT);
  if (d === undefined) return undefined;
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
    if (claude && !translateClaudeHeaders(id, fields, where, findings)) ok = false;
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
  if (claude) addClaudeDefaultDirectories(components, statType, file);
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
