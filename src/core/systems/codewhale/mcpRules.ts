import { bundleRelative, resolveContainedPath } from './containedPath';
import type { BundleTree } from './bundleTree';
import { isMcpServerName } from './names';
import { environmentNameProblem, looksAbsolute, textProblem } from './textRules';
import type { Findings } from '../../diagnostics/findings';
import type { Located, McpServerDecl } from './manifest';
import { asciiLower, rustTrim } from '../../text/rustText';
import { keyOf } from '../../documents/located';
import { parseUrl } from './networkHosts';
import { urlCredentialsFix, urlHttpsFix, urlQueryFix } from './mcpUrlFixes';
import { removeRepeatFix } from './removeRepeatFix';
import type { FixDraft } from '../../diagnostics/fixBasis';
import { transportFieldsFix } from './transportFieldsFix';

const SENSITIVE_KEYS = [
  'token',
  'api-key',
  'apikey',
  'password',
  'passwd',
  'secret',
  'client-secret',
  'authorization',
  'auth-token',
  'access-key',
  'private-key',
  'credential',
  'credentials',
];
const LITERAL_PREFIXES = ['sk-', 'ghp_', 'github_pat_', 'xoxb-', 'xoxp-'];
const HTTP_TOKEN = /^[A-Za-z0-9!#$%&'*+\-.^_`|~]+$/;
const CREDENTIAL_HINT = 'pass credentials through a reviewed environment mapping instead';

/** Every rule of codewhale.md §4.7 for one server; reports each problem at its field. */
export function validateMcpServer(
  root: string,
  s: McpServerDecl,
  findings: Findings,
  tree?: BundleTree,
  urlReported = false,
): void {
  const n = s.id;
  if (!isMcpServerName(n)) findings.at('codewhale.mcp.server-name', `MCP server name \`${n}\` is invalid`, s.at);
  const counts: [number, number, string, Located<unknown> | undefined][] = [
    [s.args.length, 64, `MCP server \`${n}\` declares too many arguments; maximum is 64`, s.args[64]],
    [s.env.length, 64, `MCP server \`${n}\` declares too many environment mappings; maximum is 64`, s.env[64]],
    [
      s.envHeaders.length,
      64,
      `MCP server \`${n}\` declares too many environment-backed headers; maximum is 64`,
      s.envHeaders[64],
    ],
    [s.scopes?.value.length ?? 0, 64, `MCP server \`${n}\` declares too many OAuth scopes; maximum is 64`, s.scopes],
    [
      Math.max(s.enabledTools.length, s.disabledTools.length),
      256,
      `MCP server \`${n}\` declares too many tool filters; maximum is 256 per list`,
      s.enabledTools[256] ?? s.disabledTools[256],
    ],
  ];
  for (const [count, max, message, where] of counts)
    if (count > max) findings.at('codewhale.mcp.too-many', message, where?.at ?? s.at);
  for (const t of s.timeouts) {
    if (t.value < 1 || t.value > 3600)
      findings.at('codewhale.mcp.timeout', `MCP server \`${n}\` ${t.label} must be 1-3600 seconds`, t.at);
  }
  if (s.required?.value && !s.enabled)
    findings.at(
      'codewhale.mcp.required-disabled',
      `MCP server \`${n}\` cannot be required while disabled`,
      s.required.at,
    );
  for (const a of s.args) {
    const p = textProblem('MCP argument', a.value, 4096);
    if (p) findings.at('codewhale.mcp.argument', p, a.at);
  }
  toolList('enabled MCP tool', s.enabledTools, findings);
  toolList('disabled MCP tool', s.disabledTools, findings);
  const enabled = new Set(s.enabledTools.map((t) => t.value));
  const both = s.disabledTools.find((t) => enabled.has(t.value));
  if (both)
    findings.at(
      'codewhale.mcp.tool-filter',
      `MCP server \`${n}\` declares a tool in both enabled_tools and disabled_tools`,
      both.at,
    );

  if ((s.command === undefined) === (s.url === undefined)) {
    findings.at(
      'codewhale.mcp.command-or-url',
      `MCP server \`${n}\` must declare exactly one of command or url`,
      s.command?.at ?? s.url?.at ?? s.at,
    );
    return;
  }
  if (s.command) validateStdio(root, s, s.command, findings, tree);
  else if (s.url) validateRemote(s, s.url, findings, urlReported);
}

function toolList(field: string, tools: readonly Located<string>[], findings: Findings): void {
  if (tools.length > 64)
    findings.at('codewhale.mcp.too-many', `too many ${field} values; maximum is 64`, (tools[64] as Located<string>).at);
  const seen = new Set<string>();
  for (const [i, t] of tools.entries()) {
    const p = textProblem(field, t.value, 256);
    if (p) findings.at('codewhale.mcp.tool-filter', p, t.at);
    const key = asciiLower(t.value);
    if (seen.has(key)) {
      // Only an exact repeat goes: a tool filter may match names by case, and one that differs
      // only in case, removed from disabled_tools, could enable a tool.
      const fix = tools.slice(0, i).some((x) => x.value === t.value)
        ? removeRepeatFix(findings, tools[i - 1], t)
        : undefined;
      findings.at('codewhale.mcp.tool-filter', `duplicate ${field} value \`${t.value}\``, t.at, withFix(fix));
    }
    seen.add(key);
  }
}

function validateStdio(
  root: string,
  s: McpServerDecl,
  command: Located<string>,
  findings: Findings,
  tree: BundleTree | undefined,
): void {
  const n = s.id;
  const t = textProblem('MCP command', command.value, 512);
  if (t) findings.at('codewhale.mcp.command', t, command.at);
  const remoteField =
    s.transport ??
    (s.headers.length ? s.headers[0] : undefined) ??
    s.envHeaders[0] ??
    s.bearerTokenEnvVar ??
    s.scopes ??
    s.oauth ??
    s.oauthResource;
  if (remoteField) {
    findings.at(
      'codewhale.mcp.stdio-remote-fields',
      `stdio MCP server \`${n}\` may not declare remote transport or authentication fields`,
      keyOf(remoteField.at),
      withFix(transportFieldsFix(findings, s, 'remote')),
    );
  }
  const cmd = command.value;
  if (!t) {
    if (cmd.includes('/') || cmd.includes('\\')) {
      const r = resolveContainedPath(root, cmd, 'MCP command', tree);
      if (!r.ok) findings.at('codewhale.mcp.command', r.message, command.at);
      else if (r.type !== 'file')
        findings.at('codewhale.mcp.command', `MCP server \`${n}\` command is not a regular file`, command.at);
    } else if (Buffer.byteLength(cmd) > 128 || !/^[A-Za-z0-9_.+-]+$/.test(cmd) || cmd === '.' || cmd === '..') {
      findings.at(
        'codewhale.mcp.command',
        'MCP command must be a bare executable name or a contained plugin path',
        command.at,
      );
    }
  }
  if (s.cwd) {
    const r = resolveContainedPath(root, s.cwd.value, 'MCP cwd', tree);
    if (!r.ok) findings.at('codewhale.mcp.cwd', r.message, s.cwd.at);
    else if (r.type !== 'directory')
      findings.at(
        'codewhale.mcp.cwd',
        `MCP server \`${n}\` cwd is not a directory: ${bundleRelative(root, r.absolute)}`,
        s.cwd.at,
      );
  }
  // Two passes, as upstream runs them: every argument's credential checks, then every argument's
  // path checks, so its first error (the one a refusal names) is a credential before a path.
  s.args.forEach((arg, idx) => {
    const i = idx + 1;
    const a = arg.value;
    if (embedsCredential(a, idx < s.args.length - 1)) {
      findings.at(
        'codewhale.mcp.credential-argument',
        `MCP server \`${n}\` argument #${i} embeds a credential-bearing value; ${CREDENTIAL_HINT}`,
        arg.at,
      );
    }
    // Rust's `trim`: a leading byte-order mark stays, so `\uFEFFsk-…` is not a literal credential (codewhale.md §4.7).
    const trimmed = rustTrim(a);
    if (
      LITERAL_PREFIXES.some((p) => trimmed.startsWith(p)) ||
      (trimmed.startsWith('AKIA') && Buffer.byteLength(trimmed) >= 16)
    ) {
      findings.at(
        'codewhale.mcp.literal-credential',
        `MCP server \`${n}\` argument #${i} looks like a literal credential; ${CREDENTIAL_HINT}`,
        arg.at,
      );
    }
  });
  s.args.forEach((arg, idx) => {
    const i = idx + 1;
    const a = arg.value;
    if (looksAbsolute(a))
      findings.at(
        'codewhale.mcp.absolute-argument',
        `MCP server \`${n}\` argument #${i} must not use an absolute path`,
        arg.at,
      );
    // Components split at the host's separators: on Unix `\\` is part of a name, so `a\\..\\x` stays inside (codewhale.md §4.6).
    else if (looksRelativePath(a) && a.split(process.platform === 'win32' ? /[\\/]/ : '/').includes('..')) {
      findings.at(
        'codewhale.mcp.argument-escapes',
        `MCP server \`${n}\` argument #${i} escapes the plugin root`,
        arg.at,
      );
    }
  });
  for (const e of s.env) {
    const dest = environmentNameProblem('MCP environment destination', e.name);
    if (dest) findings.at('codewhale.mcp.env-name', dest, keyOf(e.at));
    // `exact_environment_placeholder`: strip `${` and `}`; whatever is left must be a name, so `${A}${B}` fails as a source.
    const source =
      e.value.startsWith('${') && e.value.endsWith('}') && e.value.length >= 3 ? e.value.slice(2, -1) : undefined;
    if (source === undefined) {
      // The literal value is replaced by a reference to a variable of the same name, which the user then sets.
      const fix = /^[A-Za-z_][A-Za-z0-9_]*$/.test(e.name)
        ? findings.replaceFix(`Use \${${e.name}} instead of a literal value`, e.at, JSON.stringify(`\${${e.name}}`))
        : undefined;
      findings.at(
        'codewhale.mcp.env-value',
        `MCP server \`${n}\` environment values must be exact \`\${SOURCE_ENV}\` references`,
        e.at,
        fix ? { fix } : undefined,
      );
    } else {
      const src = environmentNameProblem('MCP environment source', source);
      if (src) findings.at('codewhale.mcp.env-name', src, e.at);
    }
  }
}

/** The key/value credential heuristic (codewhale.md §4.7). */
function embedsCredential(arg: string, followed: boolean): boolean {
  const eq = arg.indexOf('=');
  const rawKey = eq >= 0 ? arg.slice(0, eq) : arg;
  const key = asciiLower(rawKey.replace(/^-+/, '').replace(/_/g, '-'));
  const sensitive = SENSITIVE_KEYS.some((k) => key === k || key.endsWith(`-${k}`));
  if (!sensitive) return false;
  return eq >= 0 ? arg.slice(eq + 1) !== '' : followed;
}

/**
 * `is_relative_stdio_path_arg`: its Windows-absolute test is looser than the one for
 * absolute arguments, any second byte `:` before a separator (`1:/x`), so such an
 * argument is neither absolute nor a relative path, and is not checked for `..`.
 */
function looksRelativePath(a: string): boolean {
  const driveLike = a.length >= 3 && a.charCodeAt(0) < 0x80 && a[1] === ':' && (a[2] === '\\' || a[2] === '/');
  return (
    a !== '' &&
    !a.startsWith('-') &&
    !a.startsWith('~') &&
    !a.includes('://') &&
    (a.includes('/') || a.includes('\\')) &&
    !a.startsWith('/') &&
    !a.startsWith('\\\\') &&
    !driveLike
  );
}

/** `urlReported`: the metadata step already said "remote MCP URL is invalid" for this URL (codewhale.md §4.4 step 7). */
function validateRemote(s: McpServerDecl, url: Located<string>, findings: Findings, urlReported: boolean): void {
  const n = s.id;
  const oauthField = s.scopes ?? s.oauth ?? s.oauthResource;
  if (oauthField) {
    findings.at(
      'codewhale.mcp.oauth-disabled',
      `remote MCP server \`${n}\` may not declare OAuth fields because plugin OAuth is disabled; use env_headers or bearer_token_env_var`,
      keyOf(oauthField.at),
    );
  }
  const result = parseUrl(url.value);
  if (!result.ok && !urlReported)
    findings.at('codewhale.mcp.url-invalid', `MCP server \`${n}\` URL is invalid: ${result.error}`, url.at);
  if (result.ok) {
    const parsed = result.url;
    const scheme = parsed.protocol.replace(/:$/, '');
    if ((scheme !== 'http' && scheme !== 'https') || parsed.hostname === '') {
      findings.at(
        'codewhale.mcp.url-invalid',
        `MCP server \`${n}\` URL must use http or https and include a host`,
        url.at,
      );
    } else if (scheme === 'http' && !isLoopbackHost(parsed.hostname)) {
      findings.at(
        'codewhale.mcp.url-https',
        `MCP server \`${n}\` URL must use HTTPS unless it targets loopback`,
        url.at,
        withFix(urlHttpsFix(findings, url)),
      );
    }
    if (parsed.username !== '' || parsed.password !== '') {
      findings.at(
        'codewhale.mcp.url-credentials',
        `MCP server \`${n}\` URL must not embed credentials; use environment-backed authentication`,
        url.at,
        withFix(urlCredentialsFix(findings, url)),
      );
    }
    // The raw text decides: WHATWG drops an empty `?` or `#` (codewhale.md §4.7 notes).
    if (url.value.includes('?') || url.value.includes('#')) {
      findings.at(
        'codewhale.mcp.url-query',
        `MCP server \`${n}\` URL may not contain a query or fragment`,
        url.at,
        withFix(urlQueryFix(findings, url)),
      );
    }
  }
  const stdioField = s.cwd ?? s.args[0] ?? s.env[0];
  if (stdioField)
    findings.at(
      'codewhale.mcp.remote-stdio-fields',
      `remote MCP server \`${n}\` may not declare stdio cwd, args, or env`,
      stdioField.at,
      withFix(transportFieldsFix(findings, s, 'stdio')),
    );
  if (s.headers.length > 0) {
    findings.at(
      'codewhale.mcp.literal-headers',
      `remote MCP server \`${n}\` may not contain literal headers; use env_headers or bearer_token_env_var`,
      (s.headers[0] as { at: Located<string>['at'] }).at,
    );
  }
  if (s.transport) {
    const t = textProblem('MCP transport', s.transport.value, 32);
    if (t) findings.at('codewhale.mcp.transport', t, s.transport.at);
    else if (asciiLower(s.transport.value) !== 'sse')
      findings.at(
        'codewhale.mcp.transport',
        `MCP server \`${n}\` transport must be \`sse\` when explicitly set`,
        s.transport.at,
      );
  }
  for (const h of s.envHeaders) {
    const t = textProblem('MCP HTTP header name', h.name, 128);
    if (t || !HTTP_TOKEN.test(h.name))
      findings.at('codewhale.mcp.header-name', t ?? 'MCP HTTP header name is invalid', keyOf(h.at));
    const src = environmentNameProblem('MCP header environment source', h.value);
    if (src) findings.at('codewhale.mcp.env-name', src, h.at);
  }
  if (s.bearerTokenEnvVar) {
    const src = environmentNameProblem('MCP bearer environment source', s.bearerTokenEnvVar.value);
    if (src) findings.at('codewhale.mcp.env-name', src, s.bearerTokenEnvVar.at);
  }
}

/** Codewhale compares the URL's host string, which keeps IPv6 brackets: `[::1]` is not loopback. */
function isLoopbackHost(host: string): boolean {
  if (asciiLower(host) === 'localhost') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function withFix(fix: FixDraft | undefined): { fix: FixDraft } | undefined {
  return fix ? { fix } : undefined;
}
