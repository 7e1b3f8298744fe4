import type { Decision } from '../../model';
import { EVA_REASONS, type EvaReason } from './vocabulary';

/** `duplicate_id_shadowed` always leads; the rest keep check order. */
export function primaryFirst(reasons: readonly EvaReason[]): EvaReason[] {
  return reasons.includes('duplicate_id_shadowed')
    ? ['duplicate_id_shadowed', ...reasons.filter((r) => r !== 'duplicate_id_shadowed')]
    : [...reasons];
}

/** The decision the primary reason implies; `capability_missing_schema` is display-only where shown rather than refused. */
export function decisionOf(reasons: readonly EvaReason[], missingSchemaDisplayOnly: boolean): Decision {
  const primary = reasons[0];
  if (primary === undefined || primary === 'registered') return 'registered';
  if (primary === 'capability_missing_schema' && missingSchemaDisplayOnly) return 'display_only';
  return EVA_REASONS[primary];
}
