import type { CoveredFile, CoveredSet } from './hashes';
import type { NoteUncovered } from './uncovered';

/** A bundle's trust inputs as the index read them (eva.md §6.1). */
export interface EvaTrustUnit {
  readonly kind: 'skill-adapter' | 'lua-skill';
  readonly manifest: string;
  readonly covered: readonly CoveredFile[];
  /** The skill folder `skill.path` points into, covered whole (a file added there drops trust). */
  readonly coveredDirectories: readonly string[];
  readonly pairs: ReadonlyMap<string, string>;
}

/**
 * The covered set of a unit Skillgate cannot hash, named again with each path trust cannot cover
 * noted (bundleTrust.ts `coveredFiles`): only its review runs it, to list every file it covers
 * (coveredListing.ts), so the index pays nothing for it.
 */
export type CoverNoting = (note: NoteUncovered) => CoveredSet;
