/** Host normalization shared by `network_hosts` and MCP URLs (codewhale.md §4.4 step 7). */

import { urlParseErrorText } from './urlParseError';

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
  let url: URL;
  try {
    url = new URL(`https://${h}`);
  } catch {
    // `{e}` is the url crate's error, not Node's "Invalid URL".
    return { ok: false, message: `network host \`${h}\` is invalid: ${urlParseErrorText(`https://${h}`)}` };
  }
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
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'remote MCP URL is invalid' };
  }
  if (url.hostname === '') return { ok: false, message: 'remote MCP URL is missing a host' };
  return { ok: true, host: url.hostname.toLowerCase() };
}
