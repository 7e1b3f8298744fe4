/**
 * Python's json reads an integer literal (no fraction, no exponent) with `int()`, which
 * refuses more than 4300 digits (`sys.int_info.default_max_str_digits`: Python 3.11 and
 * the 3.7-3.10 security releases of 2022) with a ValueError that is no JSONDecodeError.
 * Whether or not Rivumi's loaders catch it as a parse failure, the load that read the file
 * fails and yields nothing (rivumi.md §6), wherever the number sits: a key Rivumi ignores
 * (an unknown event of a plugin's `hooks`) included. A float of any length parses.
 */
const PYTHON_INT_MAX_STR_DIGITS = 4300;

/** The first integer literal of JSON text (already parsed) that Python's json refuses, with Python's words. */
export function pythonIntLimitError(text: string): { offset: number; message: string } | undefined {
  const number = /-?(\d+)(\.\d+)?([eE][-+]?\d+)?/y;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip a string: its digits are text.
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
      continue;
    }
    if (c !== 0x2d && (c < 0x30 || c > 0x39)) continue;
    number.lastIndex = i;
    const m = number.exec(text);
    if (!m) continue;
    const digits = (m[1] as string).length;
    if (!m[2] && !m[3] && digits > PYTHON_INT_MAX_STR_DIGITS)
      return {
        offset: i,
        message: `ValueError: Exceeds the limit (${PYTHON_INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`,
      };
    i = number.lastIndex - 1;
  }
  return undefined;
}
