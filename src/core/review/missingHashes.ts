import { skillgateHashFailure } from '../trust/invalidBundle';
import type { Item } from '../model';

// Why a review has no hashes, and so no capabilities to compare with the last review, in
// words true of the unit. Two causes, which the review must not confuse:
// - its agent rejects the manifest (`manifest_invalid`): the manifest does not load, and the
//   refusal quotes the agent's error (for Codewhale a link in the bundle is one: its load
//   hashes the bundle and fails, codewhale.md §4.8, `component trees may not contain symbolic link`);
// - Skillgate's own hash failed while the agent reads the manifest and may load the unit
//   (an Eva skill with a link or a file past the cap in its folder: eva.md §6.1, Eva still
//   registers it). Eva-CLI hashes nothing, so the words are Skillgate's: its diagnostic's, or check's.

/** The capabilities' sentence when the agent rejects the manifest. */
export const CAPABILITIES_UNKNOWN =
  'The manifest does not load, so what this bundle can do cannot be read or compared with your review; see Diagnostics.';

/** Why a hash the review shows is not computable: the words after "not computable". */
export function hashesNotComputable(item: Item): string {
  return skillgateHashFailure(item) === null ? 'the manifest does not load' : 'Skillgate cannot hash this unit';
}

/** What the review says in place of the unit's capabilities, and of how they changed, when it has none. */
export function capabilitiesUnknown(item: Item): string {
  const why = skillgateHashFailure(item);
  return why === null
    ? CAPABILITIES_UNKNOWN
    : `Skillgate cannot hash this unit (${why}), so what it can do has no capability hash and cannot be compared with your review.`;
}
