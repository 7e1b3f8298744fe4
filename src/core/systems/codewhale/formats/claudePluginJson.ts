import * as path from 'node:path';
import * as z from 'zod';
import { deserialized } from './deserialized';
import { MAX_MANIFEST_BYTES } from './mcpJson';
import type { McpFields } from './mcpFields';
import { kimiServer, type KimiServerSource } from './kimiJsonSchema';
import { parseJsonDocument } from '../../../documents/jsonDocument';
import { decodeUtf8, lstatEntry, readRegularFile, statEntry, type EntryType } from '../../../fs/safeFs';
import { fileReadErrorText } from '../fileReadError';
import type { Findings } from '../../../diagnostics/findings';
import { located, type ComponentKind, type PathSpecDecl, type Where } from '../manifest';
import { asciiLower } from '../../../text/rustText';
import { SERDE_JSON_MAX_DEPTH } from './nestingLimits';
import { ownRecord } from '../../../documents/ownRecord';
import { typeInBundle, type BundleTree } from '../bundleTree';
import { CLAUDE_MCP_LAYOUT, CLAUDE_WRAPPED_MCP_LAYOUT } from './serdeSequence';

/*
 * The Claude form of a plugin, `.claude-plugin/plugin.json` (codewhale.md §3.6): what
 * Codewhale's importer checks and converts around the Kimi parser that then reads it
 * (kimiJson.ts).
 */

/**
 * The Claude form's own refusals before the Kimi parser sees it (`parse_claude_plugin_json`,
 * codewhale.md §3.6). True when it is refused (the findings say why).
 */
export function claudeFormRefused(
  value: unknown,
  file: string,
  bundleRoot: string,
  findings: Findings,
  tree?: BundleTree,
): boolean {
  // The Claude form is edited as a `Value` object before the Kimi parser sees it: an array
  // is no struct there (`parse_claude_plugin_json`).
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    findings.inFile('codewhale.manifest.parse', 'Claude plugin.json must be an object', file);
    return true;
  }
  for (const component of ['hooks/hooks.json', '.lsp.json']) {
    if (typeInBundle(tree, component, () => lstatEntry(path.join(bundleRoot, component)).type) !== 'missing') {
      findings.inFile(
        'codewhale.claude-unsupported',
        `Claude component ${component} is not supported by this importer; no partial plugin will be installed`,
        file,
      );
      return true;
    }
  }
  // The declared list of a component whose directory exists is read apart, into a string or a
  // list, before the Kimi parser: there `null` is refused, where the parser takes it as none.
  const declared = value as Record<string, unknown> | null;
  for (const kind of ['skills', 'commands', 'agents'] as const) {
    if (
      typeof declared === 'object' &&
      declared?.[kind] === null &&
      typeInBundle(tree, kind, () => statEntry(path.join(bundleRoot, kind)).type) === 'directory'
    ) {
      findings.at('codewhale.manifest.parse', `invalid Claude ${kind} paths: expected a string or a list of strings`, {
        file,
        path: [kind],
      });
      return true;
    }
  }
  return false;
}

/** A Claude bundle's `.mcp.json`: `{ id: server }` or `{ mcpServers: {...}, $schema? }`. Undefined when invalid. */
export function readClaudeMcpJson(file: string, findings: Findings, tree?: BundleTree): KimiServerSource[] | undefined {
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
  const doc = parsed.document;
  const root = doc.value as Record<string, unknown>;
  const wrapped = typeof root === 'object' && root !== null && 'mcpServers' in root;
  const servers = ownRecord(z.string(), kimiServer);
  const map = wrapped
    ? deserialized(
        doc,
        // A wrapper's `$schema` is removed unread, whatever its value (`parse_claude_plugin_json`).
        z.strictObject({ $schema: z.unknown().optional(), mcpServers: servers }),
        findings,
        'codewhale.mcp-json.parse',
        '.mcp.json',
        CLAUDE_WRAPPED_MCP_LAYOUT,
      )?.mcpServers
    : deserialized(doc, servers, findings, 'codewhale.mcp-json.parse', '.mcp.json', CLAUDE_MCP_LAYOUT);
  if (map === undefined) return undefined;
  return Object.entries(map).map(([id, s]) => ({ id, s, doc, base: wrapped ? ['mcpServers', id] : [id] }));
}

/**
 * A Claude server's headers translate to environment-backed authentication, or the bundle is
 * refused (codewhale.md §3.6): false when a header is refused (the findings say why).
 */
export function translateClaudeHeaders(
  id: string,
  fields: McpFields,
  where: (...p: (string | number)[]) => Where,
  findings: Findings,
): boolean {
  let ok = true;
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
  return ok;
}

/** Existing default directories join the declared paths (codewhale.md §3.6). */
export function addClaudeDefaultDirectories(
  components: Partial<Record<ComponentKind, PathSpecDecl>>,
  statType: (rel: string) => EntryType,
  file: string,
): void {
  for (const kind of ['skills', 'commands', 'agents'] as const) {
    if (statType(kind) !== 'directory') continue;
    const existing = components[kind];
    // A declared `./skills` or `skills/` already names the default directory (`parse_claude_plugin_json`).
    if (
      existing?.paths.some((p) => (p.value.startsWith('./') ? p.value.slice(2) : p.value).replace(/\/+$/, '') === kind)
    )
      continue;
    components[kind] = {
      at: existing?.at ?? { file, path: [] },
      paths: [...(existing?.paths ?? []), located(kind, file, [])],
    };
  }
}
