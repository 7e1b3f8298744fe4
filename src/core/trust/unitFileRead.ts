import * as path from 'node:path';
import { readBeneath } from '../fs/openBeneath';
import { leavesBase, portableRelative } from '../fs/portablePath';
import { osPath } from '../fs/rawNames';
import type { ReadResult } from '../fs/safeFs';
import type { BundleFile } from '../model';

/**
 * A unit whose files are read again: a BundleSource as trusting copies it, or the review
 * made of one (ReviewReport) as the panel and the diff show it.
 */
export interface HashedUnit {
  /** The directory the files' paths are relative to. */
  readonly root: string;
  /** The unit's manifest, as the agent reaches it (Item.path); none for a bare list of files. */
  readonly item: { readonly path: string | undefined };
  /** The unit's own reader, where its hash reads files apart from the root (agentSystem.ts BundleSource). */
  readonly readCovered?: (f: BundleFile, limit: number) => ReadResult;
}

/**
 * The unit's file `f` read now, at most `limit` bytes, as its hash read it: by the unit's own
 * reader when it has one (Eva's reads a skill folder's files beneath that folder, which Eva
 * follows when it is a link: eva.md §8 Q7, eva/trustUnit.ts `readAsHashed`), else beneath
 * the unit's root or its manifest's directory (`readUnitFile`). The one way trusting
 * (reviewedCopy.ts), the diff's current side (fileChanges.ts) and the panel's texts
 * (review/skillAndCommandViews.ts) read a unit's file: read beneath the root alone, an Eva folder that is
 * a link was refused, and the review showed nothing of the files Eva loads from it.
 */
export function readFromUnit(unit: HashedUnit, f: BundleFile, limit: number): ReadResult {
  if (unit.readCovered) return unit.readCovered(f, limit);
  return readUnitFile(unit.root, unit.item.path, f.rawPath ?? Buffer.from(osPath(f.path)), limit);
}

/**
 * A file of a trust unit read again for what the review shows (a diff's current side, a
 * skill's or command's text in the panel), one component at a time beneath the directory
 * its hash read it from, never through a link (openBeneath.ts). The hash read the bundle
 * beneath held directories; a read by the whole path afterwards followed a directory on the
 * way swapped for a link since (`skills -> /tmp/decoy`, and back once the review is shown),
 * and showed a person bytes from outside the bundle beside a token that binds the inside
 * ones. Such a directory now fails as the link it is (`symlink`), as a file that is itself
 * a link does: the review says of it what it says of one.
 *
 * `rel` is the file's path under `root` (the review's root: BundleFile paths), as raw
 * bytes. The directory it is read beneath is `root`, or below it the deepest directory the
 * file shares with the unit's `manifest`: the agent reaches its manifest by its path, links
 * and all, and its hash reads the unit's files from there: Rivumi follows a linked `.rivumi`
 * (rivumi.md §2 "Links") and hashes a plugin's skill files beneath `.rivumi/plugins`
 * (rivumi/hashes.ts `readCovered`); Codewhale's walk starts at the bundle's root, which
 * holds its manifest (treeRead.ts); Eva names covered files by their real paths under the
 * root (eva/trustUnit.ts). Where the platform cannot read beneath (`beneathWorks`), the
 * whole path is opened, as before.
 */
function readUnitFile(root: string, manifest: string | undefined, rel: Buffer, limit: number): ReadResult {
  const shared = manifest === undefined ? 0 : sharedDirectoryLength(rel, manifestDirectory(root, manifest));
  if (shared === 0) return readBeneath(root, rel, limit);
  const base = Buffer.concat([Buffer.from(osPath(root)), SLASH, rel.subarray(0, shared)]);
  return readBeneath(base, rel.subarray(shared + 1), limit);
}

/** The manifest's directory under `root` as raw bytes, or undefined when it is `root` itself or lies outside it. */
function manifestDirectory(root: string, manifest: string): Buffer | undefined {
  const dir = portableRelative(root, path.dirname(manifest));
  if (dir === '' || dir === '.' || leavesBase(dir) || dir.startsWith('../')) return undefined;
  return Buffer.from(osPath(dir));
}

/**
 * How many leading bytes of `rel` name the directories it shares with `dir`: whole
 * components only, never the file's own name, 0 for none.
 */
function sharedDirectoryLength(rel: Buffer, dir: Buffer | undefined): number {
  if (dir === undefined) return 0;
  let shared = 0;
  for (let end = rel.indexOf(SLASH_BYTE); end !== -1; end = rel.indexOf(SLASH_BYTE, end + 1)) {
    // `rel`'s directory up to `end` is `dir` or one of its ancestors: a whole component of both.
    if (end > dir.length || !rel.subarray(0, end).equals(dir.subarray(0, end))) break;
    if (end < dir.length && dir[end] !== SLASH_BYTE) break;
    shared = end;
  }
  return shared;
}

const SLASH_BYTE = 0x2f;
const SLASH = Buffer.from([SLASH_BYTE]);
