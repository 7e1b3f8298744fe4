import { readRegularFile } from '../fs/safeFs';
import { decodeUtf8 } from '../fs/rawNames';
import { portableRelative } from '../fs/portablePath';
import { readFromUnit } from '../trust/unitFileRead';
import type { ReviewReport } from '../trust/reviewBundle';
import type { BundleFile } from '../model';

/** A body larger than this is not shown, with a note: the file itself opens from Files. */
const MAX_BODY_BYTES = 65536;

/**
 * A text of the unit as the review shows it (a skill's, a command's, a script's): the decoded
 * text, unescaped (the caller escapes it for where it shows it), or a note said in its place.
 */
export type UnitText = { readonly text: string } | { readonly note: string };

/**
 * The text of `file` (absolute) read for the review, at most MAX_BODY_BYTES; undefined when it
 * cannot be read. A file the review hashed is read as its hash read it (unitFileRead.ts
 * `readFromUnit`: the unit's own reader, else beneath the bundle), so a directory swapped for a
 * link since shows no text, as a file that is a link shows none. Any other is read by its path
 * (a Rivumi skill reached through a link, which Rivumi loads and trust cannot cover), unless
 * `hashedOnly`: then only a file the review hashed is shown, never bytes no token binds.
 */
export function unitText(r: ReviewReport, file: string, hashedOnly = false): UnitText | undefined {
  const hashed = hashedFiles(r).get(portableRelative(r.root, file));
  if (!hashed && hashedOnly) return undefined;
  const read = hashed ? readFromUnit(r, hashed, MAX_BODY_BYTES) : readRegularFile(file, MAX_BODY_BYTES);
  if (!read.ok)
    return read.reason === 'too-large'
      ? { note: `(larger than ${MAX_BODY_BYTES / 1024} KiB: open the file from Files)` }
      : undefined;
  const text = decodeUtf8(read.bytes);
  return text === undefined ? { note: '(not UTF-8: open the file from Files)' } : { text };
}

/** The review's hashed files by path, made once per list: a panel reads a text per command of a bundle of thousands of files. */
function hashedFiles(r: ReviewReport): ReadonlyMap<string, BundleFile> {
  const files = r.files ?? NO_FILES;
  let byPath = BY_PATH.get(files);
  if (!byPath) BY_PATH.set(files, (byPath = new Map(files.map((f) => [f.path, f]))));
  return byPath;
}

const NO_FILES: readonly BundleFile[] = [];
const BY_PATH = new WeakMap<readonly BundleFile[], ReadonlyMap<string, BundleFile>>();
