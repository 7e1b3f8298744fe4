import { policyMaterial, type ActivationPolicy } from './activationPolicy';
import { pairsHash, type CapabilityPairs } from '../../hashing/capabilityPairs';

/** `SHA256(policy material ‖ key\0value\0 …)`, keys in byte order (codewhale.md §7.5). */
export function capabilityHash(policy: ActivationPolicy, pairs: CapabilityPairs): string {
  return pairsHash(policyMaterial(policy), pairs);
}

/** The historical v1 domain (no policy). Only for proving a v1 receipt never matches. */
export function capabilityHashV1(pairs: CapabilityPairs): string {
  return pairsHash('codewhale-plugin-capabilities-v1\0', pairs);
}
