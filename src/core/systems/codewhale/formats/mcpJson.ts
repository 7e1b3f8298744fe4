import * as z from 'zod';
import { isIntegerLiteral, option, stringMap, text, textList, TIMEOUT_FIELDS, u64 } from './schemas';
import { schemaProblems } from './zodIssues';
import { deserialized } from './deserialized';
import { mcpServerFromFields, type McpFields } from './mcpFields';
import { parseJsonDocument } from '../../../documents/jsonDocument';
import { ANY, refusedRepeatedKeys, STRUCT, type SerdeShape } from './repeatedKeys';
import { decodeUtf8, readRegularFile } from '../../../fs/safeFs';
import { fileReadErrorText } from '../fileReadError';
import type { Findings } from '../../../diagnostics/findings';
import type { BundleTree } from '../bundleTree';
import type { McpServerDecl, Where } from '../manifest';
import type { DocPath, ParsedDocument } from '../../../documents/document';
import { SERDE_JSON_MAX_DEPTH } from './nestingLimits';
import { ownRecord } from '../../../documents/ownRecord';
import { byteOrder } from '../../../fs/rawNames';
import { asciiLower } from '../../../text/rustText';
import { REPORT_INPUT } from '../../../documents/parseContext';
import { keyOf } from '../../../documents/located';
import { jsonKeyRemoval } from '../../../documents/jsonKeyRemoval';
import type { FixDraft } from '../../../diagnostics/fixBasis';
import {
  documentPath,
  MCP_EXTENSION_FIELDS,
  MCP_FILE_FIELDS,
  MCP_JSON_LAYOUT,
  MCP_SERVER_FIELDS,
  MCP_SERVER_LAYOUT,
  OAUTH_FIELDS,
  sequenceAsStruct,
} from './serdeSequence';

export const MAX_MANIFEST_BYTES = 1048576;
const EXT = 'net.codewhale';
const RESERVED_ENV = new Set(['PLUGIN_ROOT', 'PLUGIN_DATA']);

// Each struct may be written as an array too, as serde reads it (serdeSequence.ts).
const serverExtension = sequenceAsStruct(
  MCP_EXTENSION_FIELDS,
  z.strictObject({
    env_headers: stringMap.optional(),
    bearer_token_env_var: option(text),
    connect_timeout: option(u64),
    execute_timeout: option(u64),
    read_timeout: option(u64),
    enabled: option(z.boolean()),
    disabled: option(z.boolean()),
    required: option(z.boolean()),
    enabled_tools: textList.optional(),
    disabled_tools: textList.optional(),
    scopes: textList.optional(),
    // Upstream's OAuth struct is not closed (only TOML checks its keys first): an extra
    // key reaches the remote rules, which refuse OAuth as disabled (codewhale.md §4.7).
    oauth: option(sequenceAsStruct(OAUTH_FIELDS, z.object({ client_id: option(text) }))),
    oauth_resource: option(text),
  }),
);

/** The fields of upstream's `StandardMcpServer`, which `KimiMcpServer` extends (kimiJson.ts). */
export const STANDARD_SERVER_FIELDS = {
  type: option(text),
  command: option(text),
  args: textList.optional(),
  env: stringMap.optional(),
  cwd: option(text),
  url: option(text),
  headers: stringMap.optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
};

const server = sequenceAsStruct(MCP_SERVER_FIELDS, z.strictObject(STANDARD_SERVER_FIELDS));

// Server ids parse into a prototype-free map: a server Codewhale runs under the id `__proto__` is not lost.
const root = sequenceAsStruct(
  MCP_FILE_FIELDS,
  z.strictObject({ $schema: option(text), mcpServers: ownRecord(z.string(), server) }),
);

const STRING_MAP: SerdeShape = { kind: 'map', values: text };

/**
 * Upstream's `StandardMcpFile` and each server are structs; `mcpServers`, `env` and
 * `headers` are maps, where a repeated id or name keeps its last value; a server's
 * `extensions` is a map of `serde_json::Value`, its `net.codewhale` read from that value.
 */
export function standardServersShape(path: DocPath, servers: z.ZodType): SerdeShape {
  if (path.length === 1 && path[0] === 'mcpServers') return { kind: 'map', values: servers };
  if (path.length === 3 && path[0] === 'mcpServers') {
    if (path[2] === 'env' || path[2] === 'headers') return STRING_MAP;
    if (path[2] === 'extensions') return ANY;
  }
  return STRUCT;
}

const mcpJsonShape = (path: DocPath) => standardServersShape(path, server);

/**
 * The optional sibling `mcp.json` of a `plugin.json` (codewhale.md §3.3). Returns the
 * servers (sorted by id, [Skillgate] deterministic order), `[]` when absent, or
 * undefined when it is invalid (the findings say why).
 */
export function readMcpJson(file: string, findings: Findings, tree?: BundleTree): McpServerDecl[] | undefined {
  // The walk's bytes where it saw the name, else the disk's: Codewhale opens `mcp.json` through
  // the file system, which on a case-insensitive one finds the `MCP.json` the walk listed.
  const walked = tree?.typeOf('mcp.json') ? tree.read('mcp.json', MAX_MANIFEST_BYTES) : undefined;
  const read = walked ?? readRegularFile(file, MAX_MANIFEST_BYTES);
  if (tree && !tree.typeOf('mcp.json') && (read.ok || read.reason !== 'missing')) tree.foundBeyondWalk();
  if (!read.ok) {
    if (read.reason === 'missing') return [];
    const message =
      read.reason === 'too-large'
        ? `mcp.json exceeds the ${MAX_MANIFEST_BYTES}-byte review limit`
        : read.reason === 'io'
          ? fileReadErrorText('mcp.json', read)
          : 'mcp.json must be a regular file, not a symbolic link';
    findings.inFile('codewhale.mcp-json.file', message, file);
    return undefined;
  }
  const source = decodeUtf8(read.bytes);
  if (source === undefined) {
    findings.inFile('codewhale.mcp-json.file', 'mcp.json must be valid UTF-8', file);
    return undefined;
  }
  const parsed = parseJsonDocument(file, source, { maxDepth: SERDE_JSON_MAX_DEPTH });
  if (!parsed.ok) {
    findings.inFile('codewhale.mcp-json.parse', `failed to parse mcp.json: ${parsed.message}`, file, parsed.range);
    return undefined;
  }
  const doc = parsed.document;
  findings.addDocument(doc);
  if (refusedRepeatedKeys(doc, mcpJsonShape, findings, 'codewhale.mcp-json.parse', 'mcp.json', MCP_JSON_LAYOUT))
    return undefined;
  const data = deserialized(doc, root, findings, 'codewhale.mcp-json.parse', 'mcp.json', MCP_JSON_LAYOUT);
  if (data === undefined) return undefined;
  const servers: McpServerDecl[] = [];
  let ok = true;
  for (const id of Object.keys(data.mcpServers).sort(byteOrder)) {
    const s = data.mcpServers[id] as StandardServer;
    const base = documentPath(doc.value, ['mcpServers', id], MCP_JSON_LAYOUT);
    const mapped = standardServerToFields(id, s, doc, base, findings);
    if (!mapped) {
      ok = false;
      continue;
    }
    servers.push(mcpServerFromFields(id, { file, path: base, key: true }, mapped.fields, mapped.where));
  }
  return ok ? servers : undefined;
}

export type StandardServer = z.infer<typeof server>;

/**
 * `standard_server_to_config` (codewhale.md §3.3): the server's `extensions["net.codewhale"]`,
 * its transport and the shape rules of each transport. Kimi and Claude servers go through
 * it too, and upstream words its errors "mcp.json server …" whichever file holds them.
 * Undefined when the server is refused (the findings say why).
 */
export function standardServerToFields(
  id: string,
  s: StandardServer,
  doc: ParsedDocument,
  base: DocPath,
  findings: Findings,
): { fields: McpFields; where: (field: string) => Where } | undefined {
  const file = doc.file;
  // Paths by field names, each step an index where the server or its extension is written as an array.
  const node = base.reduce<unknown>((n, k) => (n as Record<string | number, unknown> | undefined)?.[k], doc.value);
  const inServer = (p: readonly (string | number)[]) => base.concat(documentPath(node, p, MCP_SERVER_LAYOUT));
  const at = (...p: (string | number)[]) => ({ file, path: inServer(p) });
  let ok = true;
  const fail = (
    code: 'codewhale.mcp-json.transport' | 'codewhale.mcp-json.reserved-env' | 'codewhale.mcp-json.parse',
    message: string,
    where: Where = at('type'),
    fix?: FixDraft,
  ) => {
    findings.at(code, message, where, fix ? { fix } : undefined);
    ok = false;
  };
  let ext: z.infer<typeof serverExtension> = {};
  const extRaw = s.extensions?.[EXT];
  if (extRaw !== undefined) {
    const e = serverExtension.safeParse(extRaw, REPORT_INPUT);
    if (!e.success) {
      for (const p of schemaProblems(e.error))
        fail('codewhale.mcp-json.parse', `mcp.json server extensions["net.codewhale"] is invalid: ${p.detail}`, {
          file,
          path: inServer(['extensions', EXT, ...p.path]),
          key: p.key,
        });
      return undefined;
    }
    for (const t of TIMEOUT_FIELDS) {
      const literal = doc.literalAt(inServer(['extensions', EXT, t]));
      // `null` is None (`Option<u64>`), as absent.
      if (literal !== undefined && literal !== 'null' && !isIntegerLiteral(literal, 'json'))
        fail(
          'codewhale.mcp-json.parse',
          `mcp.json server extensions["net.codewhale"] is invalid: expected an unsigned integer at \`${t}\``,
          at('extensions', EXT, t),
        );
    }
    if (!ok) return undefined;
    ext = e.data;
  }
  let transport: 'stdio' | 'http' | 'sse';
  const declared = s.type;
  if (declared !== undefined) {
    const t = asciiLower(declared);
    if (t !== 'stdio' && t !== 'streamable-http' && t !== 'sse') {
      fail(
        'codewhale.mcp-json.transport',
        `mcp.json server \`${id}\` has unknown type \`${declared}\`; expected \`stdio\`, \`streamable-http\`, or \`sse\``,
      );
      return undefined;
    }
    transport = t === 'stdio' ? 'stdio' : t === 'sse' ? 'sse' : 'http';
  } else if (s.command !== undefined && s.url === undefined) transport = 'stdio';
  else if (s.url !== undefined && s.command === undefined) transport = 'http';
  else {
    fail(
      'codewhale.mcp-json.transport',
      `mcp.json server \`${id}\` must declare exactly one of command or url, or set an explicit type`,
      { file, path: base, key: true },
    );
    return undefined;
  }
  // Upstream's lists and maps default to empty: an empty `args`, `env` or `headers` is as good as none.
  const filled = (k: 'args' | 'env' | 'headers') =>
    k === 'args' ? (s.args ?? []).length > 0 : Object.keys(s[k] ?? {}).length > 0;
  if (transport === 'stdio') {
    if (s.command === undefined)
      fail('codewhale.mcp-json.transport', `mcp.json server \`${id}\` declares stdio transport without a command`);
    else if (s.url !== undefined || filled('headers'))
      fail(
        'codewhale.mcp-json.transport',
        `mcp.json stdio server \`${id}\` may not declare url or headers`,
        at(s.url !== undefined ? 'url' : 'headers'),
      );
    for (const key of Object.keys(s.env ?? {})) {
      if (RESERVED_ENV.has(key)) {
        // Codewhale sets the name itself: without the mapping the server gets Codewhale's value.
        const removal = jsonKeyRemoval(doc, inServer(['env', key]));
        fail(
          'codewhale.mcp-json.reserved-env',
          `mcp.json server \`${id}\` env may not define reserved name \`${key}\``,
          { ...at('env', key), key: true },
          removal && { title: `Remove ${key} from env`, edits: removal.map((e) => ({ file, ...e })) },
        );
      }
    }
  } else {
    if (s.url === undefined)
      fail('codewhale.mcp-json.transport', `mcp.json server \`${id}\` declares an HTTP transport without a url`);
    const stdioField =
      s.command !== undefined
        ? 'command'
        : filled('args')
          ? 'args'
          : filled('env')
            ? 'env'
            : s.cwd !== undefined
              ? 'cwd'
              : undefined;
    if (stdioField)
      fail(
        'codewhale.mcp-json.transport',
        `mcp.json HTTP server \`${id}\` may not declare command, args, env, or cwd`,
        keyOf(at(stdioField)),
      );
  }
  if (!ok) return undefined;
  const fields: McpFields = {
    command: s.command,
    args: s.args,
    env: s.env,
    cwd: s.cwd,
    url: s.url,
    headers: s.headers,
    ...(transport === 'sse' ? { transport: 'sse' } : {}),
    ...ext,
  };
  const topLevel = new Set(['command', 'args', 'env', 'cwd', 'url', 'headers']);
  const where = (field: string) =>
    field === 'transport' ? at('type') : topLevel.has(field) ? at(field) : at('extensions', EXT, field);
  return { fields, where };
}
