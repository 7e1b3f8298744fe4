import type { CompatibilityReport } from './inventory';
import type { Manifest, Where } from './manifest';
import type { CapabilityLabel } from './activationPolicy';
import type { Findings } from '../../diagnostics/findings';
import { keyOf } from '../../documents/located';

/**
 * The `component-inactive` warning (codewhale.md §2.5 step 6), when some declared
 * capability is inactive under the policy; nothing otherwise.
 */
export function warnInactiveComponents(
  manifest: Manifest,
  manifestFile: string,
  compatibility: CompatibilityReport,
  findings: Findings,
): void {
  const inactive = compatibility.unsupportedLabels;
  if (inactive.length === 0) return;
  // Upstream's message, at the first inactive declaration; each one gets a sentence of ours.
  const places = inactive.map((label) => ({
    label,
    at: inactiveAt(manifest, label) ?? { file: manifestFile, path: [] },
  }));
  const related = places.map((p) => ({
    file: p.at.file,
    range: findings.rangeOf(p.at),
    message: INACTIVE_TEXT[p.label],
  }));
  findings.at(
    'codewhale.component-inactive',
    `compatibility ${compatibility.compatibility}; inactive components remain inventoried but are not activated: ${inactive.join(', ')}`,
    places[0]?.at ?? { file: manifestFile, path: [] },
    { related },
  );
}

/** Where a manifest declares a capability the policy leaves inactive (the key of its table or list). */
function inactiveAt(m: Manifest, label: CapabilityLabel): Where | undefined {
  switch (label) {
    case 'commands':
    case 'agents':
    case 'hooks':
    case 'lsp':
    case 'native': {
      const spec = m.components[label];
      return spec ? keyOf(spec.at) : undefined;
    }
    case 'filesystem-roots': {
      const first = m.filesystemRoots[0];
      return first ? { file: first.at.file, path: first.at.path.slice(0, -1), key: true } : undefined;
    }
    default:
      return undefined;
  }
}

/** Skillgate's explanation of each inactive capability (policy v3, codewhale.md §6.2). */
const INACTIVE_TEXT: Record<CapabilityLabel, string> = {
  skills: 'Codewhale does not load these skills under policy v3.',
  'mcp-stdio': 'Codewhale does not start these local MCP servers under policy v3.',
  'mcp-remote': 'Codewhale does not connect to these remote MCP servers under policy v3.',
  commands:
    'Codewhale lists these commands but never activates them under policy v3; remove the table if the bundle does not need them.',
  agents:
    'Codewhale lists these agents but never activates them under policy v3; remove the table if the bundle does not need them.',
  hooks:
    'Codewhale lists these hooks but never runs them under policy v3; remove the table if the bundle does not need them.',
  lsp: 'Codewhale lists these language servers but never starts them under policy v3; remove the table if the bundle does not need them.',
  native:
    'Codewhale lists this native extension but never loads it under policy v3; remove the table if the bundle does not need it.',
  'filesystem-roots':
    'Codewhale grants no extra filesystem roots under policy v3; remove filesystem_roots if the bundle does not need them.',
  providers: 'Codewhale loads no providers under policy v3.',
  'lifecycle-mutation':
    'Codewhale never lets a bundle change its own lifecycle under policy v3; remove lifecycle_mutation if the bundle does not need it.',
};
