import { UNSAFE_BUT_NEWLINE } from '../text/displayText';

/**
 * `--json` and SARIF output: the values stay exactly what the repository holds (a parser
 * reads back the same strings), but the bytes on a terminal are safe. JSON.stringify
 * already escapes C0 controls and lone surrogates; a C1 control (U+009B is a one-byte
 * CSI to some terminals), a bidi or invisible character or U+2028 would pass raw, so
 * each is written as its `\uXXXX` escape, which JSON reads as the same character.
 */
export function jsonText(value: unknown): string {
  // Such characters occur only inside string literals; the only raw newline is indentation.
  return (
    JSON.stringify(value, rawBytesAsHex, 2).replace(UNSAFE_BUT_NEWLINE, (ch) =>
      Array.from({ length: ch.length }, (_, i) => `\\u${ch.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
    ) + '\n'
  );
}

/** A raw name's bytes (`rawPath`, a Buffer) as hex: JSON would otherwise spell a Buffer as a list of numbers. */
function rawBytesAsHex(this: unknown, key: string, value: unknown): unknown {
  const original = (this as Record<string, unknown>)[key];
  return Buffer.isBuffer(original) ? original.toString('hex') : value;
}
