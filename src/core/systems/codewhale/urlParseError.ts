import { domainToASCII } from 'node:url';

/**
 * The words of the Rust `url` crate's `ParseError` for a URL that a WHATWG parser refused
 * (codewhale.md §4.4 step 7, `network host `{h}` is invalid: {e}`, and §4.7). Node only
 * says "Invalid URL"; Codewhale prints the `Display` of the variant. The url crate and
 * WHATWG fail at the same steps, in the same order, so this walks those steps as
 * `Url::parse` does (url 2.x parser.rs and host.rs) and names the first one that fails.
 * The IDNA step itself is asked of Node, with the forbidden domain code points set aside,
 * because the url crate checks those only after IDNA.
 */

type ParseError =
  | 'empty host'
  | 'invalid international domain name'
  | 'invalid port number'
  | 'invalid IPv4 address'
  | 'invalid IPv6 address'
  | 'invalid domain character'
  | 'relative URL without a base';

/** The special schemes, whose host is a domain run through IDNA (`file` is read apart below). */
export const SPECIAL_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'ws', 'wss', 'ftp', 'file']);

/** `Host::parse`'s `is_invalid_domain_char` (url 2.x host.rs). */
const FORBIDDEN_DOMAIN = /[\0-\x1f #%/:<>?@[\\\]^\x7f|]/;
/** `Host::parse_opaque`'s `is_invalid_host_char`, for hosts of other schemes. */
const FORBIDDEN_OPAQUE = /[\0\t\n\r #/:<>?@[\\\]^|]/;

/** `input` is a URL text that `new URL(input)` refused; the url crate's message for it. */
export function urlParseErrorText(input: string): string {
  return firstFailure(input) ?? 'invalid international domain name';
}

function firstFailure(raw: string): ParseError | null {
  // `Input::new`: C0 controls and spaces trimmed at both ends, tabs and newlines ignored anywhere.
  const s = raw.replace(/^[\0- ]+|[\0- ]+$/g, '').replace(/[\t\n\r]/g, '');
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(s);
  if (!scheme) return 'relative URL without a base';
  const name = scheme[0].slice(0, -1).toLowerCase();
  let rest = s.slice(scheme[0].length);
  if (name === 'file') {
    if (!/^[/\\]{2}/.test(rest)) return null;
    const host = /^[^/\\?#]*/.exec(rest.slice(2))?.[0] ?? '';
    if (host === '' || /^[A-Za-z][:|]$/.test(host) || host.toLowerCase() === 'localhost') return null;
    return specialHostFailure(host);
  }
  const special = SPECIAL_SCHEMES.has(name);
  if (special) rest = rest.replace(/^[/\\]*/, '');
  else if (rest.startsWith('//')) rest = rest.slice(2);
  else return null;
  return authorityFailure(rest, special);
}

/** `after_double_slash`: userinfo, host, port. */
function authorityFailure(rest: string, special: boolean): ParseError | null {
  const chars = [...rest];
  const ends = (c: string | undefined) => c === '/' || c === '?' || c === '#' || (special && c === '\\');
  let lastAt = -1;
  for (let i = 0; i < chars.length && !ends(chars[i]); i++) if (chars[i] === '@') lastAt = i;
  if (lastAt === 0 && ends(chars[1])) return 'empty host';
  const hostStart = lastAt + 1;
  let i = hostStart;
  let inBrackets = false;
  for (; i < chars.length; i++) {
    const c = chars[i];
    if ((c === ':' && !inBrackets) || ends(c)) break;
    if (c === '[') inBrackets = true;
    if (c === ']') inBrackets = false;
  }
  const host = chars.slice(hostStart, i).join('');
  if (host === '') {
    if (special || chars[i] === ':' || lastAt > 0) return 'empty host';
  } else {
    const failure = special ? specialHostFailure(host) : opaqueHostFailure(host);
    if (failure) return failure;
  }
  if (chars[i] !== ':') return null;
  // `parse_port`: ASCII digits up to 65535, then only the end of the authority.
  let port = 0;
  for (i++; i < chars.length && !ends(chars[i]) && chars[i] !== '\\'; i++) {
    const c = chars[i] as string;
    if (c < '0' || c > '9') return 'invalid port number';
    port = port * 10 + Number(c);
    if (port > 65535) return 'invalid port number';
  }
  return null;
}

/** `Host::parse` for http(s), ws(s), ftp and file. */
function specialHostFailure(host: string): ParseError | null {
  if (host.startsWith('[')) return ipv6Failure(host);
  const decoded = percentDecodeLossy(host);
  // IDNA first: each forbidden code point (or one that maps to one, `％` → `%`) is replaced
  // by an allowed one of the same bidi class, so that only IDNA decides; `.a` keeps the
  // IPv4 parser out, and tells an empty result from a failure.
  let forbidden = false;
  let neutral = '';
  for (const c of decoded) {
    if (FORBIDDEN_DOMAIN.test(c) || (c > '\x7f' && FORBIDDEN_DOMAIN.test(c.normalize('NFKC')))) {
      forbidden = true;
      const ascii = c > '\x7f' ? c.normalize('NFKC') : c;
      neutral += ascii === '#' || ascii === '%' ? '$' : ascii === '/' || ascii === ':' ? ',' : '!';
    } else neutral += c;
  }
  const mapped = domainToASCII(`${neutral}.a`);
  if (mapped === '') return 'invalid international domain name';
  const ascii = mapped.slice(0, -2);
  if (ascii === '') return 'empty host';
  if (forbidden) return 'invalid domain character';
  if (endsInANumber(ascii) && !isIpv4(ascii)) return 'invalid IPv4 address';
  return null;
}

function opaqueHostFailure(host: string): ParseError | null {
  if (host.startsWith('[')) return ipv6Failure(host);
  return FORBIDDEN_OPAQUE.test(host) ? 'invalid domain character' : null;
}

function ipv6Failure(host: string): ParseError | null {
  if (!host.endsWith(']')) return 'invalid IPv6 address';
  try {
    new URL(`http://${host}/`);
    return null;
  } catch {
    return 'invalid IPv6 address';
  }
}

/** `percent_decode(..).decode_utf8_lossy()`: `%XX` to bytes, ill-formed UTF-8 to U+FFFD, a BOM kept. */
function percentDecodeLossy(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    const hex = b === 0x25 ? bytes.subarray(i + 1, i + 3).toString('latin1') : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else out.push(b);
  }
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(Uint8Array.from(out));
}

/** `ends_in_a_number` (url 2.x host.rs). */
function endsInANumber(domain: string): boolean {
  const parts = domain.split('.');
  if (parts[parts.length - 1] === '') {
    if (parts.length === 1) return false;
    parts.pop();
  }
  const last = parts[parts.length - 1] as string;
  return /^[0-9]+$/.test(last) || ipv4Number(last) !== 'invalid';
}

/** `parse_ipv4number`: a number, `overflow` past u32, or `invalid`. */
function ipv4Number(part: string): number | 'overflow' | 'invalid' {
  if (part === '') return 'invalid';
  let digits = part;
  let radix = 10;
  if (/^0[xX]/.test(part)) {
    digits = part.slice(2);
    radix = 16;
  } else if (part.length >= 2 && part.startsWith('0')) {
    digits = part.slice(1);
    radix = 8;
  }
  if (digits === '') return 0;
  const valid = radix === 8 ? /^[0-7]+$/ : radix === 10 ? /^[0-9]+$/ : /^[0-9A-Fa-f]+$/;
  if (!valid.test(digits)) return 'invalid';
  const n = parseInt(digits, radix);
  return n > 0xffffffff ? 'overflow' : n;
}

/** `parse_ipv4addr` succeeds. */
function isIpv4(domain: string): boolean {
  const parts = domain.split('.');
  if (parts[parts.length - 1] === '') parts.pop();
  if (parts.length > 4) return false;
  const numbers: number[] = [];
  for (const p of parts) {
    const n = ipv4Number(p);
    if (typeof n !== 'number') return false;
    numbers.push(n);
  }
  const last = numbers.pop() as number;
  if (last >= 256 ** (4 - numbers.length)) return false;
  return numbers.every((n) => n <= 255);
}
