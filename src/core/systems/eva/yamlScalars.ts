import { rustDebugStr } from '../../text/rustText';

/**
 * Scalars typed exactly as serde_yaml 0.9 types them into a `Value` (de.rs
 * `visit_scalar`, `visit_untagged_scalar`, `visit_int`, `parse_unsigned_int`,
 * `parse_negative_int`, `parse_f64`, `digits_but_not_number`), not by the YAML 1.2 core
 * schema: `012` and `1e400` stay strings, `0b11`, `-0x10` and `+0x1` are integers, and an
 * integer is never the same number as a float (`0` and `0.0` differ, as serde_yaml's
 * `Number` keeps them apart).
 */

/** A float (serde_yaml's `Number::Float`); integers stay plain JS numbers, so the two never mix. */
export class YamlFloat {
  constructor(readonly value: number) {}
}

/** A scalar as serde_yaml types it; an integer keeps every digit, for telling keys apart. */
export type YamlScalar =
  | { readonly kind: 'null' }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'int'; readonly value: bigint }
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'str'; readonly value: string };

/** A scalar, or the message serde_yaml refuses it with (the document then fails to parse). */
export type ScalarResolution = YamlScalar | { readonly kind: 'error'; readonly message: string };

const TAG_BOOL = 'tag:yaml.org,2002:bool';
const TAG_INT = 'tag:yaml.org,2002:int';
const TAG_FLOAT = 'tag:yaml.org,2002:float';
const TAG_NULL = 'tag:yaml.org,2002:null';

const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);
const U128_MAX = (1n << 128n) - 1n;
const I128_MIN = -(1n << 127n);

type Radix = 2 | 8 | 10 | 16;
const RADIX_DIGITS: Record<Radix, RegExp> = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ };
const RADIX_PREFIX: Record<Radix, string> = { 2: '0b', 8: '0o', 10: '', 16: '0x' };
/** Significant digits past which a number cannot fit 128 bits: refused before BigInt reads a 1 MiB run of digits. */
const MAX_DIGITS: Record<Radix, number> = { 2: 128, 8: 43, 10: 39, 16: 32 };
/** The radix prefixes in the order serde_yaml tries them. */
const PREFIXES: readonly (readonly [string, Radix])[] = [
  ['0x', 16],
  ['0o', 8],
  ['0b', 2],
];

/** A scalar with no tag: plain ones are typed, quoted and block ones are strings. */
export function resolveUntagged(text: string, plain: boolean): ScalarResolution {
  return plain ? resolvePlain(text) : { kind: 'str', value: text };
}

/**
 * A scalar under a core tag (`!!bool`, `!!int`, `!!float`, `!!null`), whatever its style;
 * text that does not fit the tag is an error. Any other tag that is not local (`!!str`,
 * `!!seq`, `!!js/x`, `!<tag:x>`) reads as a string of the scalar's text.
 */
export function resolveCoreTagged(tag: string, text: string): ScalarResolution {
  switch (tag) {
    case TAG_BOOL: {
      const b = parseBool(text);
      return b === undefined ? invalidValue(text, 'a boolean') : { kind: 'bool', value: b };
    }
    case TAG_INT:
      return resolveInt(text) ?? invalidValue(text, 'an integer');
    case TAG_FLOAT: {
      // The tag skips the leading-zero rule: `!!float 012` is 12.0.
      const f = parseF64(text);
      return f === undefined ? invalidValue(text, 'a float') : { kind: 'float', value: f };
    }
    case TAG_NULL:
      // Unlike a plain scalar, an empty one is not null under the tag.
      return NULL_WORDS.has(text) ? { kind: 'null' } : invalidValue(text, 'null');
    default:
      return { kind: 'str', value: text };
  }
}

/** The plain JS value: integers as numbers, floats as YamlFloat. */
export function scalarValue(s: YamlScalar): null | boolean | number | string | YamlFloat {
  switch (s.kind) {
    case 'null':
      return null;
    case 'int':
      return Number(s.value);
    case 'float':
      return new YamlFloat(s.value);
    default:
      return s.value;
  }
}

/**
 * Equal for two keys iff serde_yaml's `Value` equality holds: a string never equals a number,
 * an integer never a float, and one NaN equals another (its `N::eq`).
 */
export function scalarIdentity(s: YamlScalar): string {
  switch (s.kind) {
    case 'null':
      return 'n';
    case 'bool':
      return s.value ? 'b1' : 'b0';
    case 'int':
      return `i${s.value}`;
    case 'float':
      // `${-0}` is "0": -0.0 and 0.0 are equal floats, as they are to serde_yaml.
      return Number.isNaN(s.value) ? 'fnan' : `f${s.value}`;
    case 'str':
      return `s${s.value}`;
  }
}

/** The name a key goes by in a plain record (only a string key is one upstream can look up). */
export function scalarKeyText(s: YamlScalar): string {
  return s.kind === 'null' ? 'null' : String(s.value);
}

/** serde_yaml's `visit_untagged_scalar`: null, bool, integer, float, else string, in that order. */
function resolvePlain(v: string): ScalarResolution {
  if (v === '' || NULL_WORDS.has(v)) return { kind: 'null' };
  const b = parseBool(v);
  if (b !== undefined) return { kind: 'bool', value: b };
  const int = resolveInt(v);
  if (int) return int;
  if (!digitsButNotNumber(v)) {
    const f = parseF64(v);
    if (f !== undefined) return { kind: 'float', value: f };
  }
  return { kind: 'str', value: v };
}

const NULL_WORDS = new Set(['null', 'Null', 'NULL', '~']);

function parseBool(v: string): boolean | undefined {
  if (v === 'true' || v === 'True' || v === 'TRUE') return true;
  if (v === 'false' || v === 'False' || v === 'FALSE') return false;
  return undefined;
}

/**
 * serde_yaml's `visit_int`: an integer within u64 or i64 is a number; one that fits only
 * u128 or i128 is handed to `Value`'s visitor, which has no such number and refuses it.
 */
function resolveInt(v: string): ScalarResolution | undefined {
  const small = parseUnsigned(v, U64_MAX) ?? parseNegative(v, I64_MIN);
  if (small !== undefined) return { kind: 'int', value: small };
  const unsigned = parseUnsigned(v, U128_MAX);
  if (unsigned !== undefined) return { kind: 'error', message: tooWide(unsigned, 'u128') };
  const negative = parseNegative(v, I128_MIN);
  if (negative !== undefined) return { kind: 'error', message: tooWide(negative, 'i128') };
  return undefined;
}

function tooWide(value: bigint, width: string): string {
  return `invalid type: integer \`${value}\` as ${width}, expected any YAML value`;
}

/** serde_yaml's `deserialize_u64` reading of a scalar's text (`parse_unsigned_int` into a u64). */
export function parseU64(text: string): bigint | undefined {
  return parseUnsigned(text, U64_MAX);
}

/** `parse_unsigned_int`: one optional `+`, then `0x`/`0o`/`0b` digits or decimal digits. */
function parseUnsigned(scalar: string, max: bigint): bigint | undefined {
  const unpositive = scalar.startsWith('+') ? scalar.slice(1) : scalar;
  for (const [prefix, radix] of PREFIXES) {
    if (!unpositive.startsWith(prefix)) continue;
    const rest = unpositive.slice(prefix.length);
    if (startsWithSign(rest)) return undefined;
    const n = fromStrRadix(rest, radix, 0n, max);
    // A prefix whose digits do not parse falls through to the decimal reading (which fails too).
    if (n !== undefined) return n;
  }
  if (startsWithSign(unpositive) || digitsButNotNumber(scalar)) return undefined;
  return fromStrRadix(unpositive, 10, 0n, max);
}

/** `parse_negative_int`: `-0x`/`-0o`/`-0b` digits, or a signed decimal. */
function parseNegative(scalar: string, min: bigint): bigint | undefined {
  for (const [prefix, radix] of PREFIXES) {
    if (!scalar.startsWith(`-${prefix}`)) continue;
    const n = fromStrRadix(`-${scalar.slice(prefix.length + 1)}`, radix, min, -min - 1n);
    if (n !== undefined) return n;
  }
  if (digitsButNotNumber(scalar)) return undefined;
  return fromStrRadix(scalar, 10, min, -min - 1n);
}

/**
 * Rust's `from_str_radix` for an integer type of range [min, max]: one optional sign (`-`
 * only for a signed type), then at least one digit of the radix; no `_`, no spaces.
 */
function fromStrRadix(src: string, radix: Radix, min: bigint, max: bigint): bigint | undefined {
  let digits = src;
  let negative = false;
  if (src.length === 1 && startsWithSign(src)) return undefined;
  if (src.startsWith('+')) digits = src.slice(1);
  else if (src.startsWith('-') && min < 0n) {
    negative = true;
    digits = src.slice(1);
  }
  if (!RADIX_DIGITS[radix].test(digits)) return undefined;
  const significant = digits.replace(/^0+/, '');
  if (significant.length > MAX_DIGITS[radix]) return undefined;
  const magnitude = significant === '' ? 0n : BigInt(RADIX_PREFIX[radix] + significant);
  const n = negative ? -magnitude : magnitude;
  return n >= min && n <= max ? n : undefined;
}

/**
 * Rust's `f64::from_str` on decimal text (its `inf`/`nan` words parse to non-finite values,
 * which serde_yaml discards, so they are left out here).
 */
const RUST_DECIMAL_FLOAT = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** `parse_f64`: YAML's `.inf`/`.nan` spellings, or a finite Rust float; `1e400` is not one. */
function parseF64(scalar: string): number | undefined {
  let unpositive = scalar;
  if (scalar.startsWith('+')) {
    unpositive = scalar.slice(1);
    if (startsWithSign(unpositive)) return undefined;
  }
  if (unpositive === '.inf' || unpositive === '.Inf' || unpositive === '.INF') return Number.POSITIVE_INFINITY;
  if (scalar === '-.inf' || scalar === '-.Inf' || scalar === '-.INF') return Number.NEGATIVE_INFINITY;
  if (scalar === '.nan' || scalar === '.NaN' || scalar === '.NAN') return Number.NaN;
  if (!RUST_DECIMAL_FLOAT.test(unpositive)) return undefined;
  // Both JS and Rust round decimal text to the nearest double.
  const f = Number(unpositive);
  return Number.isFinite(f) ? f : undefined;
}

/** YAML 1.2 keeps a leading zero followed by digits (`012`, `-00`) a string. */
function digitsButNotNumber(scalar: string): boolean {
  const unsigned = startsWithSign(scalar) ? scalar.slice(1) : scalar;
  return unsigned.length > 1 && unsigned.startsWith('0') && /^[0-9]+$/.test(unsigned.slice(1));
}

function startsWithSign(s: string): boolean {
  return s.startsWith('+') || s.startsWith('-');
}

/** serde's `invalid_value(Unexpected::Str(v), exp)`: the text shown as Rust's `{:?}` does. */
function invalidValue(text: string, expected: string): ScalarResolution {
  return { kind: 'error', message: `invalid value: string ${rustDebugStr(text)}, expected ${expected}` };
}
