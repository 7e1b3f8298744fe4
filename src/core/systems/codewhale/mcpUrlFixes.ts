import type { Findings } from '../../diagnostics/findings';
import type { FixDraft } from '../../diagnostics/fixBasis';
import type { DocPath } from '../../documents/document';
import type { Located } from '../../documents/located';
import { quotedString } from '../../documents/quotedString';
import { parseUrl } from './networkHosts';

/**
 * Quick fixes for a remote MCP URL Codewhale refuses (codewhale.md §4.7), where one edit
 * keeps the endpoint: the same host, port and path, less the part the rule forbids. Each
 * result is parsed again and compared part by part, so a fix that would reach another host
 * (or keep the problem) is never offered; no fix adds a network host.
 */

type UrlPart = 'protocol' | 'username' | 'password' | 'hostname' | 'port' | 'pathname' | 'search' | 'hash';
const PARTS: readonly UrlPart[] = [
  'protocol',
  'username',
  'password',
  'hostname',
  'port',
  'pathname',
  'search',
  'hash',
];

/** Everything from the first raw `?` or `#` goes: the rule reads the raw text, which holds even an empty one. */
export function urlQueryFix(findings: Findings, url: Located<string>): FixDraft | undefined {
  const cut = url.value.search(/[?#]/);
  if (cut < 0) return undefined;
  return urlFix(findings, url, 'Remove the query and fragment from the URL', url.value.slice(0, cut), {
    search: '',
    hash: '',
  });
}

/** The user information goes: the authority up to its last `@`, as a WHATWG parser splits it. */
export function urlCredentialsFix(findings: Findings, url: Located<string>): FixDraft | undefined {
  const raw = url.value;
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]*/.exec(raw);
  if (!scheme) return undefined;
  const start = scheme[0].length;
  const rest = raw.slice(start).search(/[/\\?#]/);
  const at = raw.lastIndexOf('@', rest < 0 ? raw.length : start + rest);
  if (at < start) return undefined;
  return urlFix(findings, url, 'Remove the credentials from the URL', raw.slice(0, start) + raw.slice(at + 1), {
    username: '',
    password: '',
  });
}

/**
 * `http` becomes `https`, only where the URL names no port: its default port changes with the
 * scheme, while TLS on a port the author chose for plain HTTP would be a guess.
 */
export function urlHttpsFix(findings: Findings, url: Located<string>): FixDraft | undefined {
  if (!/^http:/i.test(url.value)) return undefined;
  const before = parseUrl(url.value);
  if (!before.ok || before.url.port !== '') return undefined;
  return urlFix(findings, url, 'Use https:// in the URL', `https${url.value.slice(4)}`, { protocol: 'https:' });
}

function urlFix(
  findings: Findings,
  url: Located<string>,
  title: string,
  fixed: string,
  changed: Partial<Record<UrlPart, string>>,
): FixDraft | undefined {
  const before = parseUrl(url.value);
  const after = parseUrl(fixed);
  if (!before.ok || !after.ok || fixed === url.value) return undefined;
  if (PARTS.some((p) => after.url[p] !== (changed[p] ?? before.url[p]))) return undefined;
  // The edit replaces the string the value was read from, which must be exactly the value
  // (replaceFix refuses a place the document does not hold, where an ancestor would stand in).
  const doc = findings.document(url.at.file);
  if (!doc || valueAt(doc.value, url.at.path) !== url.value) return undefined;
  return findings.replaceFix(title, url.at, quotedString(fixed));
}

function valueAt(value: unknown, path: DocPath): unknown {
  let node = value;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, key)) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}
