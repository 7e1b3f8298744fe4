import { sha256Hex } from '../../hashing/framing';

/**
 * Codewhale's activation policy: which declared capability kinds can be activated.
 * The policy is part of every capability hash, so a receipt made under another policy
 * shows as `capabilities-changed` (codewhale.md §6, §7.4).
 */
export interface ActivationPolicy {
  readonly version: number;
  readonly supported: readonly CapabilityLabel[];
  readonly inactive: readonly CapabilityLabel[];
}

export type CapabilityLabel =
  | 'skills'
  | 'mcp-stdio'
  | 'mcp-remote'
  | 'commands'
  | 'agents'
  | 'hooks'
  | 'providers'
  | 'lsp'
  | 'native'
  | 'filesystem-roots'
  | 'lifecycle-mutation';

/** The policy Skillgate ships. */
export const POLICY_V3: ActivationPolicy = {
  version: 3,
  supported: ['skills', 'mcp-stdio', 'mcp-remote', 'commands', 'agents', 'hooks'],
  inactive: ['lsp', 'native', 'filesystem-roots', 'lifecycle-mutation'],
};

/** Upstream's current policy; kept to pin its digest, not used for decisions. */
export const POLICY_V5: ActivationPolicy = {
  version: 5,
  supported: ['skills', 'mcp-stdio', 'mcp-remote', 'commands', 'agents', 'hooks', 'providers'],
  inactive: ['lsp', 'native', 'filesystem-roots', 'lifecycle-mutation'],
};

const DOMAIN = 'codewhale-plugin-capabilities-v3\0';

export function policyMaterial(policy: ActivationPolicy): Buffer {
  let s = `${DOMAIN}policy-version\0${policy.version}\0`;
  for (const c of policy.supported) s += `supported\0${c}\0`;
  for (const c of policy.inactive) s += `inactive\0${c}\0`;
  return Buffer.from(s, 'utf8');
}

export function policyDigest(policy: ActivationPolicy): string {
  return sha256Hex(policyMaterial(policy));
}
