import * as path from 'node:path';
import type { ContentWalk, TreeFailureKind } from '../../hashing/bundleContent';
import type { DiagnosticCode } from '../../diagnostics/diagnosticCodes';
import type { Findings } from '../../diagnostics/findings';

/** The finding of a content walk that stopped (codewhale.md §4.8 step 2), at the file it stopped at. */
export function reportWalkFailure(
  walk: Extract<ContentWalk, { ok: false }>,
  dir: string,
  manifestFile: string,
  findings: Findings,
): void {
  // By the failure the walk met, never by the message's words: a message spells a path, which holds any words.
  findings.inFile(
    WALK_FAILURE_CODE[walk.kind],
    walk.message,
    walk.rel ? path.join(dir, walk.rel) : manifestFile,
    undefined,
    // A limit is the bundle's, at the file where the count ran out, which a new file walked first moves.
    PAST_A_LIMIT.has(walk.kind) ? { place: dir } : undefined,
  );
}

/**
 * The diagnostic of each way the content walk stops (treeRead.ts `TreeFailureKind`). A
 * root that is no directory when the walk reaches it (it changed after the loader's own
 * check, which says `codewhale.manifest.root`) is upstream's symbolic-link refusal.
 */
const WALK_FAILURE_CODE = {
  unreadable: 'codewhale.content.unreadable',
  'root-not-directory': 'codewhale.content.symlink',
  symlink: 'codewhale.content.symlink',
  'special-file': 'codewhale.content.special-file',
  'changed-length': 'codewhale.content.changed',
  'file-limit': 'codewhale.content.limit',
  'byte-limit': 'codewhale.content.limit',
  'entry-limit': 'codewhale.content.limit',
} as const satisfies Record<TreeFailureKind, DiagnosticCode>;

/**
 * The walk's stops that are about the whole bundle (its files or bytes counted past a limit), not
 * the file it stopped at: a symbolic link or a file that changed is that file's finding.
 */
const PAST_A_LIMIT: ReadonlySet<TreeFailureKind> = new Set(['file-limit', 'byte-limit', 'entry-limit']);
