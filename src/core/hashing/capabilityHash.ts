import { policyMaterial, type ActivationPolicy } from '../systems/codewhale/activationPolicy';
import { sha256Hex } from './framing';
import { osBytes } from '../fs/rawNames';

/** A capability inventory as hashed: key → value strings (codewhale.md §7.5). */
export type CapabilityPairs = ReadonlyMap<string, string>;

function pairBytes(pairs: CapabilityPairs, encode: (text: string) => Buffer = (text) => Buffer.from(text, 'utf8')): Buffer {
  const keys = [...pairs.keys()].sort(byteOrder);
  return encode(keys.map((k) => `${k}\0${pairs.get(k) ?? ''}\0`).join(''));
}

/** `SHA256(policy material ‖ key\0value\0 …)`, keys in byte order. */
export function capabilityHash(policy: ActivationPolicy, pairs: CapabilityPairs): string {
  return sha256Hex(policyMaterial(policy), pairBytes(pairs));
}

/** The historical v1 domain (no policy). Only for proving a v1 receipt never matches. */
export function capabilityHashV1(pairs: CapabilityPairs): string {
  return sha256Hex('codewhale-plugin-capabilities-v1\0', pairBytes(pairs));
}

/** Skillgate's Rivumi capability hash (trust.md): same pair framing, our own domain. */
export function rivumiCapabilityHash(pairs: CapabilityPairs): string {
  // Rivumi values (a hook's argv[0]) may hold surrogate escapes: hash them as the bytes Rivumi runs.
  return sha256Hex('skillgate-rivumi-capabilities-v1\0', pairBytes(pairs, osBytes));
}

export function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Sort, deduplicate, join with `\n`: how sets enter a capability hash. */
export function joinSet(values: Iterable<string>): string {
  return [...new Set(values)].sort(byteOrder).join('\n');
}
