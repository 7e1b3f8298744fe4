/**
 * serde_json (Codewhale) reads every number of a document, in a `Value` as in a typed
 * field, and refuses one whose magnitude does not fit an `f64` ("number out of range"):
 * the whole document fails to parse. JSON.parse reads `1e400` as Infinity, so a manifest
 * Codewhale refuses would read as valid. serde_json (without `float_roundtrip`) does not
 * round as JavaScript does: it keeps at most the digits that fit a `u64` and scales them
 * by one power of ten, so near `f64::MAX` it overflows where JavaScript does not
 * (`1.7976931348623158e308`). This follows its `parse_integer`, `parse_decimal`,
 * `parse_exponent` and `f64_from_parts` step by step. Python's json (Rivumi) reads such
 * numbers as inf: this is for serde's readers only.
 */

export interface SerdeNumberError {
  readonly message: 'number out of range';
  /** The number's first character. */
  readonly start: number;
  /** The last character serde_json read before refusing (where it reports the error). */
  readonly at: number;
}

const U64_MAX = 18446744073709551615n;
const I32_MAX = 2147483647;
/** Rust's `1e0` … `1e308`, each the nearest double, as JavaScript's literals are. */
const POW10: readonly number[] = Array.from({ length: 309 }, (_, i) => Number(`1e${i}`));

/** The first number of a text that parses as JSON that serde_json refuses as out of range; undefined when there is none. */
export function outOfRangeNumber(text: string): SerdeNumberError | undefined {
  // Only a number of many digits or an exponent can overflow: nearly every manifest has neither.
  if (!/[0-9][eE]|[0-9]{20}/.test(text)) return undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
      continue;
    }
    if (c !== MINUS && !isDigit(c)) continue;
    const end = numberEnd(text, i);
    const refused = refusal(text, i, end);
    if (refused !== undefined) return { message: 'number out of range', start: i, at: refused };
    i = end - 1;
  }
  return undefined;
}

/** Where serde_json reports the number at [start, end) out of range, or undefined when it reads it. */
function refusal(text: string, start: number, end: number): number | undefined {
  let i = start;
  if (text.charCodeAt(i) === MINUS) i++;
  let significand = 0n;
  let exponent = 0;
  let overflowed = false;
  // Integer digits: kept while they fit a u64; past that each one only scales (`parse_long_integer`).
  for (; i < end && isDigit(text.charCodeAt(i)); i++) {
    if (overflowed) exponent++;
    else {
      const next = significand * 10n + BigInt(text.charCodeAt(i) - ZERO);
      if (next > U64_MAX) {
        overflowed = true;
        exponent++;
      } else significand = next;
    }
  }
  // Fraction digits: kept while they fit (after integer digits that did not, too); the rest
  // are skipped (`parse_decimal_overflow`).
  if (text.charCodeAt(i) === DOT) {
    let full = false;
    for (i++; i < end && isDigit(text.charCodeAt(i)); i++) {
      if (full) continue;
      const next = significand * 10n + BigInt(text.charCodeAt(i) - ZERO);
      if (next > U64_MAX) full = true;
      else {
        significand = next;
        exponent--;
      }
    }
  }
  if (i < end) {
    // `e`, a sign, digits (`parse_exponent`).
    i++;
    const positive = text.charCodeAt(i) !== MINUS;
    if (text.charCodeAt(i) === MINUS || text.charCodeAt(i) === PLUS) i++;
    let exp = 0;
    for (; i < end; i++) {
      const digit = text.charCodeAt(i) - ZERO;
      if (exp >= Math.floor(I32_MAX / 10) && (exp > Math.floor(I32_MAX / 10) || digit > I32_MAX % 10)) {
        // An exponent past i32: zero for a zero significand or a negative exponent, else refused at this digit.
        return significand !== 0n && positive ? i : undefined;
      }
      exp = exp * 10 + digit;
    }
    exponent = positive ? saturatingI32(exponent + exp) : saturatingI32(exponent - exp);
  }
  return fitsF64(significand, exponent) ? undefined : end - 1;
}

/** serde_json's `f64_from_parts`: false where it fails with "number out of range". */
function fitsF64(significand: bigint, exponent: number): boolean {
  let f = Number(significand); // Rust's `as f64`: to nearest, ties to even
  for (;;) {
    const pow = POW10[Math.abs(exponent)];
    if (pow !== undefined) {
      if (exponent >= 0) return Number.isFinite(f * pow);
      return true;
    }
    if (f === 0) return true;
    if (exponent >= 0) return false;
    f /= 1e308;
    exponent += 308;
  }
}

function saturatingI32(n: number): number {
  return Math.max(-I32_MAX - 1, Math.min(I32_MAX, n));
}

/** The end of the number token at `i` in valid JSON. */
function numberEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length) {
    const c = text.charCodeAt(j);
    if (isDigit(c) || c === DOT || c === PLUS || c === MINUS || c === LOWER_E || c === UPPER_E) j++;
    else break;
  }
  return j;
}

function isDigit(c: number): boolean {
  return c >= ZERO && c <= ZERO + 9;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
