import { rustDebugChar } from '../../text/rustText';

/**
 * The `semver` crate's `Version::parse`, for its error text only: Codewhale reports
 * ``plugin version `{v}` is not valid semantic versioning: {err}`` with the crate's
 * own `{err}` (codewhale.md §4.4 step 3), e.g. "unexpected character 'l' while
 * parsing major version number". Undefined when the version parses.
 */
type Position =
  | 'major version number'
  | 'minor version number'
  | 'patch version number'
  | 'pre-release identifier'
  | 'build metadata';

class SemverError {
  constructor(readonly message: string) {}
}

export function semverError(text: string): string | undefined {
  try {
    parseVersion(text);
    return undefined;
  } catch (e) {
    if (e instanceof SemverError) return e.message;
    throw e;
  }
}

function parseVersion(input: string): void {
  if (input === '') throw new SemverError('empty string, expected a semver version');
  let pos: Position = 'major version number';
  let text = numeric(input, pos);
  text = dot(text, pos);
  pos = 'minor version number';
  text = dot(numeric(text, pos), pos);
  pos = 'patch version number';
  text = numeric(text, pos);
  if (text === '') return;
  if (text.startsWith('-')) {
    pos = 'pre-release identifier';
    const [pre, rest] = identifier(text.slice(1), pos);
    if (pre === '') throw new SemverError(`empty identifier segment in ${pos}`);
    text = rest;
  }
  if (text.startsWith('+')) {
    pos = 'build metadata';
    const [build, rest] = identifier(text.slice(1), pos);
    if (build === '') throw new SemverError(`empty identifier segment in ${pos}`);
    text = rest;
  }
  const unexpected = firstChar(text);
  if (unexpected !== undefined) throw new SemverError(`unexpected character ${rustDebugChar(unexpected)} after ${pos}`);
}

const MAX_U64 = 18446744073709551615n;

function numeric(input: string, pos: Position): string {
  let len = 0;
  let value = 0n;
  while (len < input.length) {
    const c = input.charCodeAt(len);
    if (c < 0x30 || c > 0x39) break;
    if (value === 0n && len > 0) throw new SemverError(`invalid leading zero in ${pos}`);
    value = value * 10n + BigInt(c - 0x30);
    if (value > MAX_U64) throw new SemverError(`value of ${pos} exceeds u64::MAX`);
    len++;
  }
  if (len > 0) return input.slice(len);
  const unexpected = firstChar(input);
  if (unexpected !== undefined)
    throw new SemverError(`unexpected character ${rustDebugChar(unexpected)} while parsing ${pos}`);
  throw new SemverError(`unexpected end of input while parsing ${pos}`);
}

function dot(input: string, pos: Position): string {
  if (input.startsWith('.')) return input.slice(1);
  const unexpected = firstChar(input);
  if (unexpected !== undefined) throw new SemverError(`unexpected character ${rustDebugChar(unexpected)} after ${pos}`);
  throw new SemverError(`unexpected end of input while parsing ${pos}`);
}

/** Dot-separated `[0-9A-Za-z-]+` segments; returns the identifier and the rest. */
function identifier(input: string, pos: Position): [string, string] {
  let accumulated = 0;
  let segment = 0;
  let nondigit = false;
  for (;;) {
    const c = input[accumulated + segment];
    if (c !== undefined && /[A-Za-z-]/.test(c)) {
      segment++;
      nondigit = true;
    } else if (c !== undefined && /[0-9]/.test(c)) segment++;
    else {
      if (segment === 0) {
        if (accumulated === 0 && c !== '.') return ['', input];
        throw new SemverError(`empty identifier segment in ${pos}`);
      }
      if (pos === 'pre-release identifier' && segment > 1 && !nondigit && input[accumulated] === '0')
        throw new SemverError(`invalid leading zero in ${pos}`);
      accumulated += segment;
      if (c === '.') {
        accumulated++;
        segment = 0;
        nondigit = false;
      } else return [input.slice(0, accumulated), input.slice(accumulated)];
    }
  }
}

function firstChar(text: string): string | undefined {
  const cp = text.codePointAt(0);
  return cp === undefined ? undefined : String.fromCodePoint(cp);
}
