import { rustTrim } from '../../text/rustText';

/**
 * pydantic's lax str → float, which Rivumi's `timeout_seconds` goes through (rivumi.md
 * §4.3). pydantic-core's `str_as_float` (src/input/shared.rs) is Rust, not Python's
 * `float()`: it parses `str.trim()` with Rust's `f64::from_str`, and only when that fails
 * parses the **untrimmed** text with its underscores removed, provided none is at either
 * end and none is doubled. So `"1_0"` is 10 and `"1._5"` is 1.5 (which `float()` refuses),
 * `" 1_0"` is refused (which `float()` reads), and `"١"` is refused (Rust reads ASCII digits only).
 */

/**
 * The grammar of Rust's `f64::from_str`: a sign, then `inf`, `infinity` or `nan` in any
 * case, or ASCII digits with an optional point (`5.` and `.5`, not `.`) and exponent.
 * The digits after the point are inside the optional group: `\d+\.?\d*` let both runs
 * share a run of digits every way, quadratic when the text is no number (4 s for one
 * 65,000-digit `timeout_seconds`).
 */
const RUST_FLOAT = /^([+-]?)(?:(inf(?:inity)?)|(nan)|((?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?))$/i;

function rustParseF64(text: string): number | undefined {
  const m = RUST_FLOAT.exec(text);
  if (!m) return undefined;
  const [, sign, inf, nan, digits] = m;
  if (nan) return NaN;
  const magnitude = inf ? Infinity : Number(digits);
  // Both round correctly to the nearest double; out of range is ±Infinity or ±0 in both.
  return sign === '-' ? -magnitude : magnitude;
}

/** The float pydantic reads from `text`, or undefined for its `float_parsing` error. */
export function pydanticStrAsFloat(text: string): number | undefined {
  const trimmed = rustParseF64(rustTrim(text));
  if (trimmed !== undefined) return trimmed;
  if (!text.includes('_') || text.startsWith('_') || text.endsWith('_') || text.includes('__')) return undefined;
  return rustParseF64(text.replace(/_/g, ''));
}
