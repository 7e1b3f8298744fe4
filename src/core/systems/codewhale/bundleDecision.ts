import type { Gate } from '../../decisions/gates';
import { onlyReason } from '../../decisions/reasonList';
import type { Decision, Diagnostic, ReasonCode } from '../../model';
import type { CodewhaleBundle } from './codewhaleBundle';

/**
 * A bundle item's decision and reasons (decisions.md): rejected when invalid, shadowed
 * when a same-named bundle wins, else what its trust gate, `[when]`, its skills and its
 * compatibility say. Whatever the decision, every gate that holds follows its primary
 * reason (decisions.md "Reason codes"): a rejected or shadowed bundle is still not reviewed,
 * or changed since its review, and fixing the primary reason alone would not activate it.
 */
export function bundleDecision(
  b: CodewhaleBundle,
  shadowedBy: string | null,
  diagnostics: readonly Diagnostic[],
  gate: Gate,
): { readonly decision: Decision; readonly reasons: readonly ReasonCode[] } {
  const gateReasons: ReasonCode[] = [...gate.reasons];
  if (!b.when.applicable) gateReasons.push('not_applicable');
  // Any skill diagnostic fails Codewhale's trusted snapshot (codewhale.md §5.3, §8.6): it holds
  // whatever the gates say, so it is listed with them; trusting and enabling would not activate it.
  if (diagnostics.some((d) => d.code === 'codewhale.skill-invalid')) gateReasons.push('staged_skill_invalid');
  if (!b.valid) return { decision: 'rejected', reasons: ['manifest_invalid', ...gateReasons] };
  if (shadowedBy) return { decision: 'shadowed', reasons: ['name_conflict', ...gateReasons] };
  if (b.compatibility?.compatibility === 'unsupported')
    return { decision: 'display_only', reasons: ['unsupported_components', ...gateReasons] };
  if (gateReasons.length > 0) return { decision: 'disabled', reasons: gateReasons };
  return { decision: 'registered', reasons: onlyReason('active') };
}
