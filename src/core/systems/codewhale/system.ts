import { CodewhaleIndex, type CodewhaleOptions } from './codewhaleIndex';
import { hashCodewhaleTarget, readCodewhaleInvalid, readCodewhaleSource } from './trustUnit';
import {
  codewhaleActivationLines,
  codewhaleInventoryAndPermissions,
  codewhaleReviewContract,
} from './reviewBundleLines';
import { codewhaleMcpEntry, codewhaleServerCard } from './reviewMcpEntry';
import type { AgentSystem } from '../agentSystem';

/**
 * Codewhale: plugin bundles under `.codewhale/plugins/` and the user's plugin root. It
 * loads a bundle only once it is trusted and enabled, so it has an enable switch.
 */
export const codewhale: AgentSystem<CodewhaleOptions> = {
  id: 'codewhale',
  label: 'Codewhale',
  icon: 'extensions',
  bundleIcon: 'package',
  workspaceRoots: ['.codewhale'],
  lookedFor: '.codewhale',
  noEnableSwitch: null,
  reasonText: {
    disabled_by_manifest:
      'Its manifest turns this MCP server off (enabled = false or disabled = true), so Codewhale does not start it.',
  },
  // Codewhale lists a bundle's `hooks` component but never activates it (activationPolicy.ts).
  hooks: null,
  unitLabel: () => 'Plugin bundle',
  trustUnitsInWords: 'Codewhale bundles',
  createIndex: (options, host) => new CodewhaleIndex(options, host),
  // Codewhale loads only enabled bundles, and of two with one name only the winner.
  loads: (item) => item.enabled === true && item.decision !== 'shadowed',
  readSource: readCodewhaleSource,
  readInvalid: readCodewhaleInvalid,
  hashTarget: hashCodewhaleTarget,
  hashTargetHint: 'a Codewhale bundle directory or its manifest',
  agentTrustCommand: (item) => `/plugin trust ${item.name} ${item.reviewToken}`,
  reviewAgainHint: (item) => `run \`skillgate review ${item.name}\` again`,
  // Its own review's words (`/plugin show`, codewhale.md §9.1), so a reviewer reading both sees the same lines,
  // and the review panel states the same facts in the same words.
  reviewLines: {
    lead: codewhaleInventoryAndPermissions,
    server: codewhaleMcpEntry,
    trail: codewhaleActivationLines,
    contract: codewhaleReviewContract,
    serverCard: codewhaleServerCard,
  },
};
