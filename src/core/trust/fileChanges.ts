import * as path from 'node:path';
import { formatPatch, structuredPatch } from 'diff';
import { decodeUtf8, readRegularFile, type ReadResult } from '../fs/safeFs';
import { readFromUnit, type HashedUnit } from './unitFileRead';
import { sha256Hex } from '../hashing/framing';
import { byteOrder } from '../fs/rawNames';
import { displayText } from '../text/displayText';
import type { BundleFile } from '../model';
import type { Receipt } from './stateSchema';

export interface FileChange {
  /** The file's path; a directory's ends with `/` (an empty one: Codewhale's content hash counts it). */
  readonly path: string;
  readonly change: 'added' | 'removed' | 'modified';
  readonly before?: BundleFile;
  readonly after?: BundleFile;
  /** Unified diff against the reviewed copy, for text files up to 1 MiB with few enough changed lines to diff. */
  readonly unifiedDiff?: string;
  /**
   * Why there is no unified diff (binary, too large, too many changed lines, reviewed copy
   * missing), and a change the text diff cannot show: the executable bit, an empty directory.
   */
  readonly note?: string;
}

const MAX_DIFF_BYTES = 1048576;

/**
 * How much line diffing one review does, in edits (lines removed plus lines added): a
 * count, not a clock, so the review says the same on every machine. The bundle's author
 * picks the files, and the diff (Myers) costs about the square of a file's edits when
 * both sides hold lines: 20,000 lines rewritten as 10,000 others took 23 s, a 1 MiB file
 * of short lines hours. Such a file is diffed up to 1,000 edits, a rewrite of 500 lines
 * in full (at most about a tenth of a second past reading it). An added or removed file
 * costs only its length, so it has no limit of its own: a new script shows whole. The
 * review as a whole stops at 10,000 edits, as the bundle also picks how many files
 * change: ten diffs stopped at the limit take a few seconds, not the minutes of 4,096.
 */
const MAX_FILE_EDITS = 1000;
const MAX_REVIEW_EDITS = 10000;

/** What is left of the review's `MAX_REVIEW_EDITS`; each file's diff spends from it in turn. */
interface EditBudget {
  left: number;
}

/** The files added, removed or modified since the receipt, in byte order of their paths. */
export function fileChanges(
  receipt: Receipt,
  files: readonly BundleFile[],
  unit: HashedUnit,
  reviewedCopy: string | undefined,
): FileChange[] {
  const out: FileChange[] = [];
  const now = new Map(files.map((f) => [f.path, f]));
  const then = new Map(Object.entries(receipt.files).map(([p, f]) => [p, { path: p, ...f }]));
  const paths = [...new Set([...now.keys(), ...then.keys()])].sort(byteOrder);
  const budget: EditBudget = { left: MAX_REVIEW_EDITS };
  for (const p of paths) {
    const before = then.get(p);
    const after = now.get(p);
    if (before && after && before.sha256 === after.sha256 && before.executable === after.executable) continue;
    out.push(fileChange(p, before, after, unit, reviewedCopy, budget));
  }
  return out;
}

/** One changed file: its unified diff against the reviewed copy, or a note saying why there is none. */
function fileChange(
  p: string,
  before: BundleFile | undefined,
  after: BundleFile | undefined,
  unit: HashedUnit,
  reviewedCopy: string | undefined,
  budget: EditBudget,
): FileChange {
  const kind: FileChange['change'] = !before ? 'added' : !after ? 'removed' : 'modified';
  const base = { path: p, change: kind, ...(before ? { before } : {}), ...(after ? { after } : {}) };
  // The bit is said whatever the bytes are (binary, too large, no reviewed copy): no text diff shows it.
  const mode = executableBitChange(before, after);
  if (mode && before?.sha256 === after?.sha256) return { ...base, note: `only the executable bit changed (${mode})` };
  const modeNote = mode ? `executable bit changed (${mode})` : undefined;
  const withMode = (note: string) => (modeNote ? `${note}; ${modeNote}` : note);
  const { oldText, newText } = sideTexts(p, before, after, unit, reviewedCopy);
  const note = oldText.note ?? newText.note;
  if (note !== undefined || oldText.text === undefined || newText.text === undefined)
    return { ...base, note: withMode(note ?? 'no text diff') };
  // The bytes were hashed apart but read alike: the file changed while it was read.
  if (before && after && oldText.text === newText.text)
    return { ...base, note: modeNote ? `only the ${modeNote}` : CHANGED_WHILE_READ };
  const shown = patchWithinBudget(p, oldText.text, newText.text, budget);
  return 'unifiedDiff' in shown
    ? { ...base, ...shown, ...(modeNote ? { note: modeNote } : {}) }
    : { ...base, note: withMode(shown.note) };
}

/** The executable bit's change (`- → x`), when both sides have the file and the bit differs. */
function executableBitChange(before: BundleFile | undefined, after: BundleFile | undefined): string | undefined {
  const bit = (f: BundleFile) => (f.executable ? 'x' : '-');
  return before && after && before.executable !== after.executable ? `${bit(before)} → ${bit(after)}` : undefined;
}

/** One side of a file's diff: its text, or a note saying why it has none. */
interface SideText {
  text?: string;
  note?: string;
}

/**
 * Each side is shown only as the bytes its hash names: the current file is read again here, and
 * text read after the review hashed it (rewritten in between, and back before the trust) is text
 * the review token does not cover.
 * The reviewed side is Skillgate's own copy in its state directory (never a workspace:
 * stateDirectory.ts), written read-only by Skillgate and re-hashed before use: read by its path.
 * The current side is the repository's, read as its hash read it (unitFileRead.ts).
 */
function sideTexts(
  p: string,
  before: BundleFile | undefined,
  after: BundleFile | undefined,
  unit: HashedUnit,
  reviewedCopy: string | undefined,
): { oldText: SideText; newText: SideText } {
  const oldText = before
    ? textOf(
        reviewedCopy ? readRegularFile(path.join(reviewedCopy, p), MAX_DIFF_BYTES) : undefined,
        before.sha256,
        REVIEWED_COPY_DIFFERS,
      )
    : { text: '' };
  const newText = after
    ? textOf(readFromUnit(unit, after, MAX_DIFF_BYTES), after.sha256, CHANGED_WHILE_READ)
    : { text: '' };
  return { oldText, newText };
}

/**
 * The unified diff of a file's two sides, made within its own edit limit and what is left of the
 * review's, or the note saying which limit left it without one.
 */
function patchWithinBudget(
  p: string,
  oldText: string,
  newText: string,
  budget: EditBudget,
): { unifiedDiff: string } | { note: string } {
  const oneSided = oldText === '' || newText === '';
  const fileEdits = oneSided ? Infinity : MAX_FILE_EDITS;
  const allowed = Math.min(budget.left, fileEdits);
  // The headers are lines of their own: a newline in a name must not start another (displayText.ts).
  // As git writes them, a/ the reviewed side and b/ the current one, with no tab-separated label
  // after the name (a terminal line escapes a tab, and the header would read `…\u{9}reviewed`).
  const patch =
    allowed > 0
      ? structuredPatch(displayText(`a/${p}`), displayText(`b/${p}`), oldText, newText, undefined, undefined, {
          context: 3,
          maxEditLength: allowed,
        })
      : undefined;
  // A diff stopped at the limit still did that much work.
  budget.left -= patch ? patch.hunks.reduce((n, h) => n + h.lines.filter(isEdit).length, 0) : allowed;
  if (patch) return { unifiedDiff: formatPatch(patch) };
  return {
    note:
      allowed < fileEdits
        ? 'too many changed lines in this review to show more: no text diff'
        : 'diff too large to show: no text diff',
  };
}

function isEdit(line: string): boolean {
  return line.startsWith('+') || line.startsWith('-');
}

const CHANGED_WHILE_READ = 'changed while it was read: review it again';
const REVIEWED_COPY_DIFFERS = 'the reviewed snapshot does not hold the reviewed bytes: no text diff';

// The notes keep the words users and tests know: "the reviewed snapshot" is the reviewed copy.
function textOf(read: ReadResult | undefined, sha256: string, otherBytes: string): SideText {
  if (!read) return { note: 'the reviewed snapshot is missing' };
  if (!read.ok)
    return {
      note:
        read.reason === 'too-large'
          ? 'larger than 1 MiB: no text diff'
          : read.reason === 'missing'
            ? 'the reviewed snapshot is missing'
            : 'unreadable',
    };
  if (sha256Hex(read.bytes) !== sha256) return { note: otherBytes };
  if (read.bytes.includes(0)) return { note: 'binary file: no text diff' };
  const text = decodeUtf8(read.bytes);
  return text === undefined ? { note: 'not UTF-8: no text diff' } : { text };
}
