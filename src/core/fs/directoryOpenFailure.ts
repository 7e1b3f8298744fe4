import * as fs from 'node:fs';

/**
 * Why a directory could not be held: the one decision of every walk that opens a directory
 * without following a link at its last component (`O_DIRECTORY | O_NOFOLLOW`) and names what
 * lies under it against the descriptor — Codewhale's content walk (treeRead.ts, by
 * `holdDirectory`) and the opens beneath a directory (openBeneath.ts `holdBeneath`: Eva's
 * covered folders, the reads of Eva's and Rivumi's hashes and of the review).
 *
 * Such an open was of an entry found a directory (its parent's listing, or the root's
 * inspection); when it fails, the entry is looked at once more (`lstat`, which follows no
 * link) to tell the failures apart:
 * - `link`: it is a symbolic link by now, swapped in after it was found a directory. Under
 *   `O_NOFOLLOW` a link at the last component fails ELOOP, or ENOTDIR as Linux answers with
 *   `O_DIRECTORY` (open(2)); the lstat tells that from a file there, which fails ENOTDIR as
 *   well. Each caller reports it as the link it now is, as the agents do: Codewhale lstats
 *   each entry as it reaches it (manifest.rs `hash_path`, `symlink_metadata`), and a path
 *   through a link on the way is one a read under `O_NOFOLLOW` refuses (ELOOP).
 * - `uninspectable`: it cannot be looked at either: vanished (ENOENT), its directory may not
 *   be searched (EACCES), its path is too long. `error` is the lstat's, the words upstream's
 *   lstat, which comes first there, fails with.
 * - `refused`: it is there and no link: no directory any more, or one this user may not open.
 *   `error` is the open's own.
 * The lstat follows whatever error the open gave, not only the two a link gives: an entry
 * that is a link when it is looked at is reported as one, as a walk that lstats each entry
 * first (upstream's) would have found it.
 */
export type DirectoryOpenFailure =
  | { readonly kind: 'link' }
  | { readonly kind: 'uninspectable'; readonly error: unknown }
  | { readonly kind: 'refused'; readonly error: unknown };

/**
 * Which failure `error`, thrown by opening the directory `at` names (a path as `fs` takes it:
 * its exact bytes, through a held directory or not), was. Never follows a link, never throws.
 */
export function directoryOpenFailure(at: string | Buffer, error: unknown): DirectoryOpenFailure {
  let now: fs.Stats;
  try {
    now = fs.lstatSync(at);
  } catch (e) {
    return { kind: 'uninspectable', error: e };
  }
  return now.isSymbolicLink() ? { kind: 'link' } : { kind: 'refused', error };
}
