import { FILE_START, type Diagnostic } from '../../model';
import { evaDiagnostic } from './diagnostics';
import type { EvaDiagnosticCode } from './vocabulary';

/**
 * Why Skillgate cannot hash what an Eva skill covers (eva.md §6.1: "past them, or for a symlink
 * anywhere in the covered set, or a covered path that is `path_not_allowed`, the bundle has no
 * hashes and cannot be trusted (Eva still registers it …, with the diagnostic saying why it
 * cannot be trusted)"). Eva-CLI hashes nothing, so every cause is Skillgate's own; each has the
 * diagnostic that says it, so `validate` and the Problems panel say what `check` and the review
 * say (the unit's `notCovered`).
 * - `symlink`: a link in the covered set, or on the way to it;
 * - `limit`: past 4096 files or 64 MiB (hashing/bundleContent.ts `MAX_HASHED_*`);
 * - `unreadable`: a covered file or folder this user cannot inspect, list or read (Eva run by a
 *   user who may read it takes it, so it is never left out of the hash instead);
 * - `outside`: a covered file that lies outside both the project and the home, which are what a
 *   covered path is named from (reached where `~/.codex/skills` leads elsewhere, eva.md §3.5);
 * - `not-allowed`: a named path outside its allowed roots, which Eva itself refuses
 *   (`path_not_allowed`): decide.ts says it as `eva.path.not-allowed`, so no second diagnostic.
 */
export type UncoveredCause = 'symlink' | 'limit' | 'unreadable' | 'outside' | 'not-allowed';

/** A covered set or content hash that failed: why, and the sentence `notCovered` keeps. */
export interface Uncovered {
  readonly ok: false;
  readonly cause: UncoveredCause;
  readonly message: string;
}

const CODE: Readonly<Record<UncoveredCause, EvaDiagnosticCode | null>> = {
  symlink: 'eva.trust.symlink',
  limit: 'eva.trust.limit',
  unreadable: 'eva.trust.unreadable',
  outside: 'eva.trust.outside',
  'not-allowed': null,
};

/**
 * Where the covered set of a unit Skillgate cannot hash is named again for its review
 * (coveredListing.ts): each path trust cannot cover is noted with why, and the set is named on
 * past it (a link is not followed, a folder that cannot be listed is not entered), so that the
 * review lists every file it can. Without one, the first such path refuses the set: the hash
 * fails closed.
 */
export type NoteUncovered = (at: string, failure: Uncovered) => void;

/** The link's sentence, one for every place a link is met (it names no path: the review lists the files). */
export const LINK_MESSAGE = 'a file covered by this skill is a symbolic link; it cannot be reviewed';

/**
 * The diagnostic that says why the unit of `manifest` has no hashes, at the manifest's first
 * line (eva.md §5 `eva.trust.symlink`: "the manifest, first line"); undefined when Eva's own
 * diagnostic says it. Its message is the unit's `notCovered` and what follows from it, so the
 * three say one thing; the manifest is its stable place (no `Diagnostic.place` needed).
 */
export function uncoveredDiagnostic(manifest: string, failure: Uncovered): Diagnostic | undefined {
  const code = CODE[failure.cause];
  if (code === null) return undefined;
  // A link's sentence is eva.md §5's, whatever the link led to.
  const message = failure.cause === 'symlink' ? LINK_MESSAGE : `${failure.message}; it cannot be reviewed`;
  return evaDiagnostic(manifest, FILE_START, code, message);
}
