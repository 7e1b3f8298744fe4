import * as path from 'node:path';
import { z } from 'zod';
import { stringMap, text, textList } from './schemas';
import { schemaProblems } from './zodIssues';
import { mcpServerFromFields } from './mcpFields';
import { composeAuthor } from './pluginJson';
import { parseJsonDocument, jsonDuplicateKeys } from '../../documents/jsonDocument';
import { lstatEntry, statEntry } from '../../fs/safeFs';
import type { Findings } from '../../findings';
import { located, type ComponentKind, type Located, type Manifest, type ManifestLabel, type McpServerDecl, type PathSpecDecl } from '../manifest';
import { isAgentPluginsName, isKimiPluginName, AGENT_PLUGINS_PARSE_MESSAGE } from '../names';

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
  mcpServers: z.record(z.string(), kimiServer).optional(),
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
  const parsed = parseJsonDocument(file, source);
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
  const result = root.safeParse(claudeCompatible(doc.value, claude), { reportInput: true });
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
  const servers: McpServerDecl[] = [];
  for (const id of Object.keys(d.mcpServers ?? {}).sort()) {
    const s = (d.mcpServers ?? {})[id] as z.infer<typeof kimiServer>;
    const at = (...p: (string | number)[]) => ({ file, path: ['mcpServers', id, ...p] });
    const t = s.type?.toLowerCase();
    if (t !== undefined && t !== 'stdio' && t !== 'streamable-http' && t !== 'sse' && !(claude && t === 'http')) {
      findings.at('codewhale.mcp-json.transport', `${what} server \`${id}\` has unknown type \`${s.type}\`; expected \`stdio\`, \`streamable-http\`, or \`sse\``, at('type'));
      ok = false;
      continue;
    }
    servers.push(
      mcpServerFromFields(
        id,
        { file, path: ['mcpServers', id], key: true },
        { command: s.command, args: s.args, env: s.env, cwd: s.cwd, url: s.url, headers: s.headers, enabled_tools: s.enabledTools, ...(t === 'sse' ? { transport: 'sse' } : {}) },
        (field) => (field === 'enabled_tools' ? at('enabledTools') : field === 'transport' ? at('type') : at(field)),
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

/** Claude manifests omit fields the Kimi schema has; unknown Claude keys stay errors. */
function claudeCompatible(value: unknown, claude: boolean): unknown {
  if (!claude || typeof value !== 'object' || value === null) return value;
  return value;
}
