import { sha256Hex } from './framing';
import { byteOrder } from '../fs/rawNames';

/**
 * A capability inventory as hashed: key → value strings (codewhale.md §7.5). Each
 * agent's capability hash frames its pairs this way, under its own domain.
 */
export type CapabilityPairs = ReadonlyMap<string, string>;

/** `key\0value\0 …`, keys in UTF-8 byte order; `encode` turns the text into the bytes hashed (UTF-8 by default). */
export function pairBytes(
  pairs: CapabilityPairs,
  encode: (text: string) => Buffer = (text) => Buffer.from(text),
): Buffer {
  const sorted = [...pairs].sort(([a], [b]) => byteOrder(a, b));
  return encode(sorted.map(([k, v]) => `${k}\0${v}\0`).join(''));
}

/** `SHA256(domain ‖ pairs)`: the capability hash of one agent's domain. */
export function pairsHash(domain: string | Buffer, pairs: CapabilityPairs, encode?: (text: string) => Buffer): string {
  return sha256Hex(domain, pairBytes(pairs, encode));
}

// Byte order of the bytes a string stands for (fs/rawNames.ts): a lone surrogate is the byte
// it escapes, as the pairs are hashed, never the U+FFFD `Buffer.from` makes of it.
export { byteOrder };

/** Sort, deduplicate, join with `\n`: how sets enter a capability hash. */
export function joinSet(values: Iterable<string>): string {
  return [...new Set(values)].sort(byteOrder).join('\n');
}
