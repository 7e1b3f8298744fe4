import * as path from 'node:path';
import { z } from 'zod';
import { stringMap, text, textList } from './schemas';
import { schemaProblems } from './zodIssues';
import { mcpServerFromFields, type McpFields } from './mcpFields';
import { MAX_MANIFEST_BYTES } from './mcpJson';
import { composeAuthor } from './pluginJson';
import { parseJsonDocument, jsonDuplicateKeys } from '../../documents/jsonDocument';
import { decodeUtf8, lstatEntry, readRegularFile, statEntry } from '../../fs/safeFs';
import type { Findings } from '../../findings';
import { located, type ComponentKind, type Located, type Manifest, type ManifestLabel, type McpServerDecl, type PathSpecDecl } from '../manifest';
import { isAgentPluginsName, isKimiPluginName, AGENT_PLUGINS_PARSE_MESSAGE } from '../names';
import { SERDE_JSON_MAX_DEPTH } from './nestingLimits';
import { ownRecord } from '../../documents/ownRecord';
import { byteOrder } from '../../fs/rawNames';

const pathList = z.union([text, z.array(text).min(1)]);

const kimiServer = z.strictObject({
  type: text.optional(),
  command: text.optional(),
  args: textList.optional(),
  env: stringMap.optional(),
  cwd: text.optional(),
  url: text.optional(),
  headers: stringMap.optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
  enabledTools: textList.optional(),
});

const OS_LIST = ['windows', 'linux', 'macos', 'freebsd', 'openbsd', 'netbsd', 'android', 'ios'];

const root = z.strictObject({
  $schema: text.optional(),
  name: text,
  version: text.optional(),
  description: text.optional(),
  keywords: textList.optional(),
  author: z.union([text, z.strictObject({ name: text, email: text.optional(), url: text.optional() })]).optional(),
  homepage: text.optional(),
  repository: text.optional(),
  license: text.optional(),
  skills: pathList.optional(),
  commands: pathList.optional(),
  agents: pathList.optional(),
  mcpServers: ownRecord(z.string(), kimiServer).optional(),
  interface: z
    .strictObject({
      displayName: text.optional(),
      shortDescription: text.optional(),
      longDescription: text.optional(),
      developerName: text.optional(),
      websiteURL: text.optional(),
      iconUrl: text.optional(),
      category: text.optional(),
      hostKind: z.literal('local').optional(),
      platforms: textList.optional(),
      mcpOverrides: z.record(z.string().min(1), z.unknown()).optional(),
    })
    .optional(),
});

/**
 * `kimi.plugin.json` (codewhale.md §3.5), and the Claude form that Codewhale converts
 * and then reads with the same parser (§3.6).
 */
export function readKimiJson(file: string, source: string, bundleRoot: string, findings: Findings, label: ManifestLabel = 'kimi.plugin.json'): Manifest | undefined {
  const claude = label === '.claude-plugin/plugin.json';
  const what = claude ? 'Claude plugin.json' : 'kimi.plugin.json';
  const parsed = parseJsonDocument(file, source, { maxDepth: SERDE_JSON_MAX_DEPTH });
  if (!parsed.ok) {
    findings.inFile('codewhale.manifest.parse', `failed to parse ${what}: ${parsed.message}`, file, parsed.range);
    return undefined;
  }
  const doc = parsed.document;
  findings.addDocument(doc);
  for (const dup of jsonDuplicateKeys(doc)) {
    findings.at('codewhale.manifest.parse', `failed to parse ${what}: duplicate field \`${String(dup[dup.length - 1])}\``, { file, path: dup, key: true });
    return undefined;
  }
  if (claude) {
    for (const component of ['hooks/hooks.json', '.lsp.json']) {
      if (lstatEntry(path.join(bundleRoot, component)).type !== 'missing') {
        findings.inFile('codewhale.claude-unsupported', `Claude component ${component} is not supported by this importer; no partial plugin will be installed`, file);
        return undefined;
      }
    }
  }
  const result = root.safeParse(doc.value, { reportInput: true });
  if (!result.success) {
    for (const p of schemaProblems(result.error)) findings.at('codewhale.manifest.parse', `failed to parse ${what}: ${p.detail}`, { file, path: p.path, key: p.key });
    return undefined;
  }
  const d = result.data;
  let ok = true;
  if (d.$schema !== undefined && d.$schema.trim() === '') {
    findings.at('codewhale.manifest.parse', `failed to parse ${what}: \`$schema\` must be non-blank when present`, { file, path: ['$schema'] });
    ok = false;
  }
  if (!isKimiPluginName(d.name) || (claude && !isAgentPluginsName(d.name))) {
    findings.at('codewhale.manifest.name', claude && isKimiPluginName(d.name) ? AGENT_PLUGINS_PARSE_MESSAGE('Claude plugin.json', d.name) : `plugin name \`${d.name}\` violates the Kimi plugin name rule`, { file, path: ['name'] });
    ok = false;
  }
  const platforms = d.interface?.platforms;
  if (platforms) {
    const seen = new Set<string>();
    platforms.forEach((p, i) => {
      if (!OS_LIST.includes(p.toLowerCase()) || seen.has(p.toLowerCase())) {
        findings.at('codewhale.when.os', seen.has(p.toLowerCase()) ? `duplicate OS value \`${p}\`` : `unsupported OS selector \`${p}\``, { file, path: ['interface', 'platforms', i] });
        ok = false;
      }
      seen.add(p.toLowerCase());
    });
  }
  // Claude bundles: inline `mcpServers` plus a sibling `.mcp.json`, flat or wrapped (codewhale.md §3.6).
  const sources: { id: string; s: z.infer<typeof kimiServer>; file: string; base: (string | number)[] }[] = Object.keys(d.mcpServers ?? {}).map((id) => ({ id, s: (d.mcpServers ?? {})[id] as z.infer<typeof kimiServer>, file, base: ['mcpServers', id] }));
  if (claude) {
    const extra = readClaudeMcpJson(path.join(bundleRoot, '.mcp.json'), findings);
    if (extra === undefined) ok = false;
    for (const e of extra ?? []) {
      if (sources.some((x) => x.id === e.id)) {
        findings.at('codewhale.mcp-json.parse', `Claude plugin declares MCP server \`${e.id}\` more than once`, { file: e.file, path: e.base, key: true });
        ok = false;
      } else sources.push(e);
    }
  }
  const servers: McpServerDecl[] = [];
  for (const { id, s, file: srcFile, base } of sources.sort((a, b) => byteOrder(a.id, b.id))) {
    const at = (...p: (string | number)[]) => ({ file: srcFile, path: [...base, ...p] });
    const t = s.type?.toLowerCase();
    if (t !== undefined && t !== 'stdio' && t !== 'streamable-http' && t !== 'sse' && !(claude && t === 'http')) {
      findings.at('codewhale.mcp-json.transport', `${what} server \`${id}\` has unknown type \`${s.type}\`; expected \`stdio\`, \`streamable-http\`, or \`sse\``, at('type'));
      ok = false;
      continue;
    }
    const fields: McpFields = { command: s.command, args: s.args, env: s.env, cwd: s.cwd, url: s.url, headers: s.headers, enabled_tools: s.enabledTools, ...(t === 'sse' ? { transport: 'sse' } : {}) };
    if (claude) {
      if (JSON.stringify(s).includes('${CLAUDE_PLUGIN_ROOT}')) {
        findings.at('codewhale.mcp-json.parse', `Claude MCP server \`${id}\` uses \${CLAUDE_PLUGIN_ROOT}, which Codewhale does not support`, { file: srcFile, path: base, key: true });
        ok = false;
        continue;
      }
      // Headers translate to environment-backed authentication, or the bundle is refused.
      const headers = Object.entries(s.headers ?? {});
      fields.headers = undefined;
      for (const [h, value] of headers) {
        const bearer = /^Bearer \$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value);
        const plain = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value);
        if (h.toLowerCase() === 'authorization' && bearer) fields.bearer_token_env_var = bearer[1];
        else if (plain) fields.env_headers = { ...(fields.env_headers ?? {}), [h]: plain[1] as string };
        else {
          findings.at('codewhale.mcp.literal-headers', `Claude MCP server \`${id}\` header \`${h}\` must be \`Bearer \${VAR}\` or \`\${VAR}\``, at('headers', h));
          ok = false;
        }
      }
    }
    servers.push(
      mcpServerFromFields(id, { file: srcFile, path: base, key: true }, fields, (field) =>
        field === 'enabled_tools' ? at('enabledTools') : field === 'transport' ? at('type') : field === 'bearer_token_env_var' || field === 'env_headers' ? at('headers') : at(field),
      ),
    );
  }
  if (!ok) return undefined;

  const components: Partial<Record<ComponentKind, PathSpecDecl>> = {};
  const spec = (kind: 'skills' | 'commands' | 'agents') => {
    const v = d[kind];
    if (v === undefined) return;
    const paths: Located<string>[] = typeof v === 'string' ? [located(v, file, [kind])] : v.map((p, i) => located(p, file, [kind, i]));
    components[kind] = { paths, at: { file, path: [kind] } };
  };
  spec('skills');
  spec('commands');
  spec('agents');
  if (!d.skills && !claude && statEntry(path.join(bundleRoot, 'SKILL.md')).type === 'file') {
    components.skills = { paths: [located('.', file, [])], at: { file, path: [] } };
  }
  if (claude) {
    // Existing default directories join the declared paths (codewhale.md §3.6).
    for (const kind of ['skills', 'commands', 'agents'] as const) {
      if (statEntry(path.join(bundleRoot, kind)).type !== 'directory') continue;
      const existing = components[kind];
      if (existing?.paths.some((p) => p.value === kind)) continue;
      components[kind] = { at: existing?.at ?? { file, path: [] }, paths: [...(existing?.paths ?? []), located(kind, file, [])] };
    }
  }
  const author = d.author === undefined ? undefined : typeof d.author === 'string' ? d.author : composeAuthor(d.author);
  const opt = (key: keyof Manifest, v: string | undefined, p: (string | number)[]) => (v === undefined ? {} : { [key]: located(v, file, p) });
  return {
    label,
    file,
    schemaVersion: located(1, file, []),
    nameRule: 'kimi',
    name: located(d.name, file, ['name']),
    version: located(d.version ?? '0.0.0', file, d.version === undefined ? [] : ['version']),
    ...opt('description', d.description, ['description']),
    ...opt('author', author, ['author']),
    ...opt('displayName', d.interface?.displayName, ['interface', 'displayName']),
    ...opt('homepage', d.homepage, ['homepage']),
    ...opt('repository', d.repository, ['repository']),
    ...opt('license', d.license, ['license']),
    keywords: (d.keywords ?? []).map((k, i) => located(k, file, ['keywords', i])),
    components,
    mcpServers: servers,
    filesystemRoots: [],
    networkHosts: [],
    networkHostsDerived: true,
    lifecycleMutation: false,
    ...(platforms ? { when: { at: { file, path: ['interface', 'platforms'] }, os: platforms.map((p, i) => located(p, file, ['interface', 'platforms', i])) } } : {}),
  };
}

/** A Claude bundle's `.mcp.json`: `{ id: server }` or `{ mcpServers: {...}, $schema? }`. Undefined when invalid. */
function readClaudeMcpJson(file: string, findings: Findings): { id: string; s: z.infer<typeof kimiServer>; file: string; base: (string | number)[] }[] | undefined {
  const read = readRegularFile(file, MAX_MANIFEST_BYTES);
  if (!read.ok) {
    if (read.reason === 'missing') return [];
    findings.inFile('codewhale.mcp-json.file', read.reason === 'too-large' ? `.mcp.json exceeds the ${MAX_MANIFEST_BYTES}-byte review limit` : '.mcp.json must be a regular file, not a symbolic link', file);
    return undefined;
  }
  const source = decodeUtf8(read.bytes);
  const parsed = source === undefined ? undefined : parseJsonDocument(file, source, { maxDepth: SERDE_JSON_MAX_DEPTH });
  if (!parsed || !parsed.ok) {
    findings.inFile('codewhale.mcp-json.parse', `failed to parse .mcp.json: ${parsed && !parsed.ok ? parsed.message : 'not UTF-8'}`, file, parsed && !parsed.ok ? parsed.range : undefined);
    return undefined;
  }
  findings.addDocument(parsed.document);
  const root = parsed.document.value as Record<string, unknown>;
  const wrapped = typeof root === 'object' && root !== null && 'mcpServers' in root;
  const servers = wrapped ? z.strictObject({ $schema: text.optional(), mcpServers: ownRecord(z.string(), kimiServer) }).safeParse(root, { reportInput: true }) : ownRecord(z.string(), kimiServer).safeParse(root, { reportInput: true });
  if (!servers.success) {
    for (const p of schemaProblems(servers.error)) findings.at('codewhale.mcp-json.parse', `failed to parse .mcp.json: ${p.detail}`, { file, path: p.path, key: p.key });
    return undefined;
  }
  const map = (wrapped ? (servers.data as { mcpServers: Record<string, z.infer<typeof kimiServer>> }).mcpServers : servers.data) as Record<string, z.infer<typeof kimiServer>>;
  return Object.entries(map).map(([id, s]) => ({ id, s, file, base: wrapped ? ['mcpServers', id] : [id] }));
}
