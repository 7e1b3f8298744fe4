/**
 * The URI of a tag as libyaml 0.2.5 (serde_yaml 0.9, Eva's parser; eva.md §2.1) scans it
 * (yaml_parser_scan_tag_uri): in a `%TAG` prefix, a verbatim tag `!<…>` and a tag's suffix.
 */

/** The characters of a URI in a `%TAG` prefix or a verbatim tag (a suffix's exclude `,[]`). */
const URI_CHARACTER = /[0-9A-Za-z_\-;/?:@&=+$.%!~*'()[\],]/;

/**
 * libyaml's yaml_parser_scan_uri_escapes: `%XX` octets forming one UTF-8 character. Where the
 * escapes end, or the problem at the `%` of the first wrong octet.
 */
function uriEscapes(line: string, at: number): number | { problem: string; at: number } {
  let width = 0;
  do {
    if (!/^%[0-9A-Fa-f]{2}/.test(line.slice(at, at + 3))) return { problem: 'did not find URI escaped octet', at };
    const octet = parseInt(line.slice(at + 1, at + 3), 16);
    if (width === 0) {
      width =
        (octet & 0x80) === 0
          ? 1
          : (octet & 0xe0) === 0xc0
            ? 2
            : (octet & 0xf0) === 0xe0
              ? 3
              : (octet & 0xf8) === 0xf0
                ? 4
                : 0;
      if (width === 0) return { problem: 'found an incorrect leading UTF-8 octet', at };
    } else if ((octet & 0xc0) !== 0x80) return { problem: 'found an incorrect trailing UTF-8 octet', at };
    at += 3;
  } while (--width > 0);
  return at;
}

/**
 * Where the URI characters from `at` end (a `%TAG` prefix's, a verbatim tag's), each escape
 * read as one UTF-8 character; or the problem with the first escape libyaml refuses.
 */
export function uriEnd(text: string, at: number): number | { problem: string; at: number } {
  while (at < text.length && URI_CHARACTER.test(text[at] as string)) {
    if (text[at] !== '%') at++;
    else {
      const escaped = uriEscapes(text, at);
      if (typeof escaped !== 'number') return escaped;
      at = escaped;
    }
  }
  return at;
}

/**
 * The first escape libyaml refuses among `uri`'s (standing at `offset` in the text): a `%` not
 * followed by two hex digits, or octets that are no UTF-8 character's.
 */
export function firstRefusedEscape(uri: string, offset: number): { problem: string; at: number } | undefined {
  for (let at = uri.indexOf('%'); at !== -1;) {
    const end = uriEscapes(uri, at);
    if (typeof end !== 'number') return { problem: end.problem, at: offset + end.at };
    at = uri.indexOf('%', end);
  }
  return undefined;
}

/**
 * Just past the `>` of the verbatim tag `!<…>` at `offset`, or libyaml's problem with it: its
 * URI holds URI characters only (the library's took any but white space), at least one, and
 * its escapes are UTF-8 characters'.
 */
export function verbatimTagEnd(text: string, offset: number): number | { problem: string; at: number } {
  const start = offset + 2;
  const at = uriEnd(text, start);
  if (typeof at !== 'number') return at;
  if (at === start) return { problem: 'did not find expected tag URI', at };
  if (text[at] !== '>') return { problem: "did not find the expected '>'", at };
  return at + 1;
}

/**
 * `uri` with its escapes decoded, as libyaml writes them into the tag: the octets, read as UTF-8
 * (their lead and trailing octets were checked by uriEscapes).
 */
export function decodeUriEscapes(uri: string): string {
  return uri.replace(/(?:%[0-9A-Fa-f]{2})+/g, (escapes) => {
    const octets = new Uint8Array(escapes.length / 3);
    for (let i = 0; i < octets.length; i++) octets[i] = parseInt(escapes.slice(i * 3 + 1, i * 3 + 3), 16);
    return new TextDecoder().decode(octets);
  });
}
