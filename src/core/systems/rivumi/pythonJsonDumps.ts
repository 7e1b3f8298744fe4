import type { DocPath } from '../../documents/document';

/**
 * Python's `json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)`, as `rivumi
 * plugin install` writes the manifest (rivumi.md §5.6 step 7: values as given). A parsed
 * JavaScript value has lost what Python keeps, so each number is written from its literal
 * in the source text when `literalAt` has it: an integer exactly (Python's ints have no
 * 2^53 ceiling), any other number as Python's float `repr` (`5.0`, `1e-05`, `NaN`,
 * `Infinity`), never JSON.stringify's `5`, `0.00001` or `null`. A plugin's `hooks` object
 * is not validated at install (§5.2), so any JSON can sit there. Keys sort by code point,
 * as Python compares strings (JavaScript's sort compares UTF-16 units).
 */
export function pythonJsonDumps(
  value: unknown,
  literalAt: (at: DocPath) => string | undefined = () => undefined,
): string {
  const dump = (v: unknown, at: readonly (string | number)[], indent: string): string => {
    if (typeof v === 'number') return pythonNumber(v, literalAt(at));
    const inner = `${indent}  `;
    if (Array.isArray(v))
      return v.length === 0
        ? '[]'
        : `[\n${v.map((x, i) => inner + dump(x, [...at, i], inner)).join(',\n')}\n${indent}]`;
    if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v).sort(byCodePoint);
      if (keys.length === 0) return '{}';
      const props = keys.map(
        (k) => `${inner}${JSON.stringify(k)}: ${dump((v as Record<string, unknown>)[k], [...at, k], inner)}`,
      );
      return `{\n${props.join(',\n')}\n${indent}}`;
    }
    // Strings, booleans and null: JSON.stringify escapes what Python's ensure_ascii=False does.
    return JSON.stringify(v) ?? 'null';
  };
  return dump(value, [], '');
}

/** An integer literal (Python's json reads it with `int()`); anything else is a float. */
const INT_LITERAL = /^-?(?:0|[1-9]\d*)$/;

function pythonNumber(n: number, literal: string | undefined): string {
  if (literal !== undefined && INT_LITERAL.test(literal)) return BigInt(literal).toString();
  if (literal === undefined && Number.isSafeInteger(n)) return String(n);
  return pythonFloatRepr(n);
}

/**
 * Python's `repr(float)`: the shortest digits that read back (JavaScript's too), in fixed
 * notation with at least one decimal (`5.0`) while the decimal point sits within
 * -4 < decpt <= 16, else in exponent notation with a signed exponent of at least two
 * digits (`1e-05`, `1e+16`).
 */
export function pythonFloatRepr(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  if (n === 0) return `${sign}0.0`;
  const [mantissa, exponent] = Math.abs(n).toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const decpt = Number(exponent) + 1;
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
    if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
    return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  const e = decpt - 1;
  const head = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${head}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
}

function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (c) => c.codePointAt(0) as number);
  const y = Array.from(b, (c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
  return x.length - y.length;
}
