/**
 * SARIF `artifactLocation.uri` for a path (SARIF 2.1.0 §3.4.3: a valid RFC 3986 URI
 * reference). Every byte outside RFC 3986 `pchar` and `/` is percent-encoded from the
 * name's UTF-8 bytes, so a directory `a#b` or `a?b` stays one path segment instead of
 * ending the path at a fragment or a query, and `%20` in a name is the name's own
 * three characters (`%2520`), not a space.
 */
const PCHAR = /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/;

export function artifactUri(path: string, relative: boolean): string {
  const bytes: number[] = [];
  for (const ch of path) {
    const cp = ch.codePointAt(0) ?? 0;
    // A lone surrogate U+DC80–U+DCFF is a byte that is not UTF-8 (Rivumi's surrogateescape):
    // the URI names the file's real byte. Any other lone surrogate has no bytes; U+FFFD stands in.
    if (cp >= 0xdc80 && cp <= 0xdcff) bytes.push(cp - 0xdc00);
    else bytes.push(...Buffer.from(cp >= 0xd800 && cp <= 0xdfff ? '\ufffd' : ch, 'utf8'));
  }
  let uri = '';
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    uri += b < 0x80 && PCHAR.test(c) ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  // A relative reference whose first segment holds ':' would read as a scheme (RFC 3986 §4.2).
  if (relative) {
    const slash = uri.indexOf('/');
    const first = slash === -1 ? uri : uri.slice(0, slash);
    uri = first.replace(/:/g, '%3A') + uri.slice(first.length);
  }
  return uri;
}
