import * as path from 'node:path';
import * as z from 'zod';
import { capabilities, option, pathSpec, text, textList, when } from './schemas';
import { schemaProblems } from './zodIssues';
import { deserialized } from './deserialized';
import { readMcpJson } from './mcpJson';
import { parseJsonDocument } from '../../../documents/jsonDocument';
import { ANY, refusedRepeatedKeys, STRUCT, type SerdeShape } from './repeatedKeys';
import { statEntry } from '../../../fs/safeFs';
import type { Findings } from '../../../diagnostics/findings';
import { typeInBundle, type BundleTree } from '../bundleTree';
import type { DocPath } from '../../../documents/document';
import { COMPONENT_KINDS, located, type ComponentKind, type Manifest, type PathSpecDecl } from '../manifest';
import { isAgentPluginsName, AGENT_PLUGINS_PARSE_MESSAGE, slugForName } from '../names';
import { SERDE_JSON_MAX_DEPTH } from './nestingLimits';
import { rustTrim } from '../../../text/rustText';
import { REPORT_INPUT } from '../../../documents/parseContext';
import {
  AUTHOR_FIELDS,
  CAPABILITIES_FIELDS,
  documentPath,
  PATH_SPEC_FIELDS,
  PLUGIN_EXTENSION_FIELDS,
  PLUGIN_FIELDS,
  PLUGIN_JSON_LAYOUT,
  sequenceAsStruct,
  WHEN_FIELDS,
} from './serdeSequence';

const EXT = 'net.codewhale';

// Each struct may be written as an array too, as serde reads it (serdeSequence.ts).
const jsonPathSpec = sequenceAsStruct(PATH_SPEC_FIELDS, pathSpec);

/** `extensions["net.codewhale"]`; no `providers` under policy v3 [Skillgate]. */
const codewhaleExtension = sequenceAsStruct(
  PLUGIN_EXTENSION_FIELDS,
  z.strictObject({
    display_name: option(text),
    icon: option(text),
    skills: option(jsonPathSpec),
    commands: option(jsonPathSpec),
    agents: option(jsonPathSpec),
    hooks: option(jsonPathSpec),
    lsp: option(jsonPathSpec),
    native: option(jsonPathSpec),
    capabilities: option(sequenceAsStruct(CAPABILITIES_FIELDS, capabilities)),
    when: option(sequenceAsStruct(WHEN_FIELDS, when)),
  }),
);

const root = sequenceAsStruct(
  PLUGIN_FIELDS,
  z.strictObject({
    $schema: text,
    name: text,
    version: option(text),
    description: option(text),
    author: option(
      sequenceAsStruct(AUTHOR_FIELDS, z.strictObject({ name: text, email: option(text), url: option(text) })),
    ),
    homepage: option(text),
    repository: option(text),
    license: option(text),
    keywords: textList.optional(),
    extensions: z.record(z.string(), z.unknown()).optional(),
  }),
);

/**
 * Upstream's `StandardPluginManifest` and its author are structs; `extensions` is a map of
 * `serde_json::Value`, and `extensions["net.codewhale"]` is read from that value, so a key
 * repeated anywhere under `extensions` keeps its last value.
 */
function pluginJsonShape(path: DocPath): SerdeShape {
  return path.length === 1 && path[0] === 'extensions' ? ANY : STRUCT;
}

/** Agent Plugins v1.0.0 `plugin.json` with its sibling `mcp.json` (codewhale.md §3.2, §3.3). */
export function readPluginJson(
  file: string,
  source: string,
  bundleRoot: string,
  findings: Findings,
  tree?: BundleTree,
): Manifest | undefined {
  const parsed = parseJsonDocument(file, source, { maxDepth: SERDE_JSON_MAX_DEPTH });
  if (!parsed.ok) {
    findings.inFile('codewhale.manifest.parse', `failed to parse plugin.json: ${parsed.message}`, file, parsed.range);
    return undefined;
  }
  const doc = parsed.document;
  findings.addDocument(doc);
  if (
    refusedRepeatedKeys(doc, pluginJsonShape, findings, 'codewhale.manifest.parse', 'plugin.json', PLUGIN_JSON_LAYOUT)
  )
    return undefined;
  // Paths by field names; where a struct is written as an array, the document's path holds its index.
  const docPath = (p: readonly (string | number)[]) => documentPath(doc.value, p, PLUGIN_JSON_LAYOUT);
  const d = deserialized(doc, root, findings, 'codewhale.manifest.parse', 'plugin.json', PLUGIN_JSON_LAYOUT);
  if (d === undefined) return undefined;
  let ok = true;
  if (rustTrim(d.$schema) === '') {
    findings.at('codewhale.manifest.parse', 'plugin.json `$schema` must be a non-empty string', {
      file,
      path: docPath(['$schema']),
    });
    ok = false;
  }
  if (!isAgentPluginsName(d.name)) {
    const slug = slugForName(d.name);
    const fix = isAgentPluginsName(slug)
      ? findings.replaceFix(`Rename the plugin to \`${slug}\``, { file, path: docPath(['name']) }, JSON.stringify(slug))
      : undefined;
    findings.at(
      'codewhale.manifest.name',
      AGENT_PLUGINS_PARSE_MESSAGE('plugin.json', d.name),
      { file, path: docPath(['name']) },
      fix ? { fix } : undefined,
    );
    ok = false;
  }
  // Upstream's order, which decides the first error: parse_plugin_json ($schema, name), the sibling
  // mcp.json, then standard_to_manifest (the extension, then compose_author's author.name).
  const mcp = readMcpJson(path.join(bundleRoot, 'mcp.json'), findings, tree);
  const extRaw = d.extensions?.[EXT];
  let ext: z.infer<typeof codewhaleExtension> = {};
  if (extRaw !== undefined) {
    const e = codewhaleExtension.safeParse(extRaw, REPORT_INPUT);
    if (!e.success) {
      for (const p of schemaProblems(e.error)) {
        findings.at('codewhale.manifest.parse', `plugin.json extensions["net.codewhale"] is invalid: ${p.detail}`, {
          file,
          path: docPath(['extensions', EXT, ...p.path]),
          key: p.key,
        });
      }
      ok = false;
    } else ext = e.data;
  }
  if (d.author && rustTrim(d.author.name) === '') {
    findings.at('codewhale.manifest.text', 'plugin.json author.name must be a non-empty string', {
      file,
      path: docPath(['author', 'name']),
    });
    ok = false;
  }
  if (!ok || mcp === undefined) return undefined;

  // Paths by `concat`: exact-length arrays, where a spread leaves the slack of an array grown by push (docs/memory.md).
  const extRoot: DocPath = ['extensions', EXT];
  const extPath = (...p: (string | number)[]) => docPath(extRoot.concat(p));
  const components: Partial<Record<ComponentKind, PathSpecDecl>> = {};
  for (const kind of COMPONENT_KINDS) {
    const spec = ext[kind];
    if (!spec) continue;
    const paths = [
      ...(spec.path !== undefined ? [located(spec.path, file, extPath(kind, 'path'))] : []),
      ...(spec.paths ?? []).map((p, i) => located(p, file, extPath(kind, 'paths', i))),
    ];
    // `"skills": {}` means the default `skills` path, in every manifest format (codewhale.md §4.5).
    if (kind === 'skills' && paths.length === 0) paths.push(located('skills', file, extPath(kind)));
    components[kind] = { at: { file, path: extPath(kind) }, paths };
  }
  // Skills default: a `skills/` directory, when the extension declares none (is_dir follows links).
  // A name the walk did not hold goes to the disk, which on a case-insensitive file system finds `Skills/`.
  if (
    !ext.skills &&
    typeInBundle(tree, 'skills', () => statEntry(path.join(bundleRoot, 'skills')).type) === 'directory'
  ) {
    components.skills = { at: { file, path: [] }, paths: [located('skills', file, [])] };
  }
  const author = d.author ? composeAuthor(d.author) : undefined;
  const list = (values: readonly string[] | undefined, ...p: (string | number)[]) =>
    (values ?? []).map((v, i) => located(v, file, docPath(p.concat(i))));
  return {
    label: 'plugin.json',
    file,
    schemaVersion: located(1, file, []),
    nameRule: 'agent-plugins',
    name: located(d.name, file, docPath(['name'])),
    version: located(d.version ?? '0.0.0', file, d.version === undefined ? [] : docPath(['version'])),
    ...(d.description !== undefined ? { description: located(d.description, file, docPath(['description'])) } : {}),
    ...(author !== undefined ? { author: located(author, file, docPath(['author'])) } : {}),
    ...(ext.display_name !== undefined
      ? { displayName: located(ext.display_name, file, extPath('display_name')) }
      : {}),
    ...(ext.icon !== undefined ? { icon: located(ext.icon, file, extPath('icon')) } : {}),
    ...(d.homepage !== undefined ? { homepage: located(d.homepage, file, docPath(['homepage'])) } : {}),
    ...(d.repository !== undefined ? { repository: located(d.repository, file, docPath(['repository'])) } : {}),
    ...(d.license !== undefined ? { license: located(d.license, file, docPath(['license'])) } : {}),
    keywords: list(d.keywords, 'keywords'),
    components,
    mcpServers: mcp,
    filesystemRoots: list(ext.capabilities?.filesystem_roots, ...extRoot, 'capabilities', 'filesystem_roots'),
    networkHosts: list(ext.capabilities?.network_hosts, ...extRoot, 'capabilities', 'network_hosts'),
    networkHostsDerived: false,
    lifecycleMutation: ext.capabilities?.lifecycle_mutation ?? false,
    ...(ext.when
      ? {
          when: {
            at: { file, path: extPath('when') },
            ...(ext.when.os ? { os: list(ext.when.os, ...extRoot, 'when', 'os') } : {}),
            ...(ext.when.binaries ? { binaries: list(ext.when.binaries, ...extRoot, 'when', 'binaries') } : {}),
          },
        }
      : {}),
  };
}

/** `name`, then ` <email>`, then ` (url)`, each trimmed, a blank email or url left out (codewhale.md §3.2, `compose_author`). */
export function composeAuthor(a: { name: string; email?: string | undefined; url?: string | undefined }): string {
  let s = rustTrim(a.name);
  const email = rustTrim(a.email ?? '');
  const url = rustTrim(a.url ?? '');
  if (email !== '') s += ` <${email}>`;
  if (url !== '') s += ` (${url})`;
  return s;
}
