import { osBytes } from '../../fs/rawNames';
import { pairsHash, type CapabilityPairs } from '../../hashing/capabilityPairs';

/** Skillgate's Rivumi capability hash (trust.md): Codewhale's pair framing, our own domain. */
export function rivumiCapabilityHash(pairs: CapabilityPairs): string {
  // Rivumi values (a hook's argv[0]) may hold surrogate escapes: hash them as the bytes Rivumi runs.
  return pairsHash('skillgate-rivumi-capabilities-v1\0', pairs, osBytes);
}
