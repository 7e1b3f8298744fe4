/** Host normalization shared by `network_hosts` and MCP URLs (codewhale.md §4.4 step 7). */

import { domainToUnicode } from 'node:url';
import { SPECIAL_SCHEMES, urlParseErrorText } from './urlParseError';
import type { Located, Manifest } from './manifest';
import { byteOrder } from '../../fs/rawNames';

/**
 * `Url::parse` as Codewhale's url crate has it (url 2.5 with idna 1.x, its Cargo.lock): a
 * WHATWG parse, and an `xn--` label whose Punycode decodes to ASCII alone, or to nothing, is
 * an invalid international domain name (UTS #46 since Unicode 15.1). Node's parser still
 * takes `xn--abc-.com` as it is; url 2.3 read it as `abc.com`.
 */
export function parseUrl(
  raw: string,
): { readonly ok: true; readonly url: URL } | { readonly ok: false; readonly error: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, error: urlParseErrorText(raw) };
  }
  // Only a special scheme's host is a domain run through IDNA; another's is opaque.
  if (
    SPECIAL_SCHEMES.has(url.protocol.slice(0, -1)) &&
    url.hostname.includes('xn--') &&
    url.hostname.split('.').some(asciiPunycodeLabel)
  )
    return { ok: false, error: 'invalid international domain name' };
  return { ok: true, url };
}

function asciiPunycodeLabel(label: string): boolean {
  // The hostname is lowercased already; decoding fails (empty) or yields ASCII only.
  return label.startsWith('xn--') && /^[\0-\x7f]*$/.test(domainToUnicode(label));
}

export type HostResult =
  { readonly ok: true; readonly host: string } | { readonly ok: false; readonly message: string };

/**
 * A declared `network_hosts` entry, normalized as `https://{h}` would parse (WHATWG: IDNA → punycode).
 * The raw `?` and `#` count because WHATWG drops an empty query or fragment; an empty
 * userinfo (`@h`) is none at all, for the url crate as for WHATWG.
 */
export function normalizeDeclaredHost(h: string): HostResult {
  if (h.includes('://') || h.includes('/') || h.includes('\\'))
    return { ok: false, message: `network host \`${h}\` must be a host name, not a URL or path` };
  const parsed = parseUrl(`https://${h}`);
  // `{e}` is the url crate's error, not Node's "Invalid URL".
  if (!parsed.ok) return { ok: false, message: `network host \`${h}\` is invalid: ${parsed.error}` };
  const url = parsed.url;
  if (
    url.port !== '' ||
    url.username !== '' ||
    url.password !== '' ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== '' ||
    h.includes('?') ||
    h.includes('#')
  ) {
    return { ok: false, message: `network host \`${h}\` must contain only a normalized host name` };
  }
  return { ok: true, host: url.hostname.toLowerCase() };
}

/** The host of an MCP URL, lowercased, as it enters the inventory. */
export function urlHost(raw: string): HostResult {
  const parsed = parseUrl(raw);
  if (!parsed.ok) return { ok: false, message: 'remote MCP URL is invalid' };
  const url = parsed.url;
  if (url.hostname === '') return { ok: false, message: 'remote MCP URL is missing a host' };
  return { ok: true, host: url.hostname.toLowerCase() };
}

/**
 * The `network_hosts` a Kimi or Claude manifest derives from its MCP URLs (codewhale.md
 * §3.5): the host of each URL that parses, ASCII-lowercased, sorted and deduplicated, each
 * placed at the first URL that names it. Codewhale then holds them to the rules of declared
 * hosts (§4.4 steps 6-7), so a URL host longer than a network host refuses the bundle.
 */
export function derivedNetworkHosts(m: Manifest): Located<string>[] {
  const first = new Map<string, Located<string>>();
  for (const s of m.mcpServers) {
    if (!s.url) continue;
    const r = urlHost(s.url.value);
    if (r.ok && !first.has(r.host)) first.set(r.host, { value: r.host, at: s.url.at });
  }
  return [...first.values()].sort((a, b) => byteOrder(a.value, b.value));
}
