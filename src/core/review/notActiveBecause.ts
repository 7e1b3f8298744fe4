import type { ReasonCode } from '../model';

/** A closed gate of a disabled bundle, in the words of a component or server that does not run. */
const NOT_ACTIVE_WORDS: Partial<Record<ReasonCode, string>> = {
  workspace_untrusted: 'VS Code Restricted Mode keeps it off',
  trust_store_unavailable: 'the trust store is unreadable',
  not_reviewed: 'the bundle is not trusted',
  content_changed: 'the bundle changed since your review',
  capabilities_changed: 'the bundle changed since your review',
  not_enabled: 'the bundle is not enabled',
  not_applicable: 'its [when] conditions do not match this host',
  staged_skill_invalid: 'a SKILL.md in it does not parse',
  disabled_by_manifest: 'its manifest turns it off',
};

/**
 * Why a component or server of a bundle that is not active will not run, in words: from the
 * bundle's own reasons, as the header lists them. A trusted, enabled bundle held off by
 * Restricted Mode or its `[when]` is never said to be "not enabled" beside an "enabled" pill.
 */
export function notActiveBecause(item: { readonly decision: string; readonly reasons: readonly ReasonCode[] }): string {
  if (item.decision === 'rejected') return 'the agent does not load this bundle (it is rejected)';
  if (item.decision === 'shadowed') return 'another bundle with this name wins';
  if (item.decision === 'display_only') return 'the agent only lists this bundle';
  const said = [...new Set(item.reasons.flatMap((r) => NOT_ACTIVE_WORDS[r] ?? []))];
  const untrusted = said.indexOf(NOT_ACTIVE_WORDS.not_reviewed as string);
  const off = said.indexOf(NOT_ACTIVE_WORDS.not_enabled as string);
  if (untrusted >= 0 && off >= 0) {
    said[untrusted] = 'the bundle is not trusted and enabled';
    said.splice(off, 1);
  }
  return said.length > 0 ? said.join('; ') : 'the bundle is not active';
}
