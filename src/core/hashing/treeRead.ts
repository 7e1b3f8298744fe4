import * as fs from 'node:fs';
import { entryOf } from '../fs/safeFs';
import { decodeRawName, decodeUtf8, osPath } from '../fs/rawNames';
import { rustIoErrorText } from '../fs/rustIoErrorText';
import { heldDirectoriesWork, heldPath, holdDirectory } from '../fs/heldDirectory';
import { directoryOpenFailure } from '../fs/directoryOpenFailure';

/** Upstream review limits for one bundle (codewhale.md §3, trust.md). */
export const MAX_HASHED_FILES = 4096;
export const MAX_HASHED_BYTES = 67108864;
/**
 * [Skillgate] Upstream counts files only; a bundle of a million empty directories
 * would still be walked. We stop at this many directory entries in all.
 */
export const MAX_WALKED_ENTRIES = 65536;

export const LIMIT_MESSAGE = `plugin bundle content exceeds the plugin review limit (${MAX_HASHED_FILES} files / ${MAX_HASHED_BYTES} bytes)`;

/** Skillgate's own limit, in its own words: naming the agent's file limit sent the user counting files that were within it. */
export const ENTRY_LIMIT_MESSAGE = `plugin bundle content exceeds Skillgate's walk limit (${MAX_WALKED_ENTRIES} directory entries; the agent counts files only), so it cannot be reviewed here`;

/** A directory entry's name: a string when it is valid UTF-8 (nearly always), else its raw bytes. */
export type Name = string | Buffer;

/** One step of the walk, in the order the content hash frames them (codewhale.md §7.2). */
export type TreeStep =
  | { readonly kind: 'directory'; readonly rel: Name }
  | {
      readonly kind: 'file';
      readonly rel: Name;
      readonly bytes: Buffer;
      readonly executable: boolean;
      /** The file's SHA-256 in hex, where the reader thread computed it (readAhead.ts). */
      readonly sha256?: string;
    }
  | { readonly kind: 'end' };

/**
 * Which failure stopped a walk, as the walk met it. Consumers pick their diagnostic by
 * this, never by the message's words: a message spells a path, and a path holds any words.
 * - `unreadable`: the root, a directory or a file could not be inspected, listed or read
 *   (upstream's `failed to inspect …` / `failed to read …`, with the io error).
 * - `root-not-directory`: the root is no directory (a link, a file…): upstream's
 *   `plugin root must be a directory, not a symbolic link` (codewhale.md §4.1).
 * - `symlink`: an entry is a symbolic link, listed as one or met by the open (ELOOP).
 * - `special-file`: an entry is neither a regular file nor a directory.
 * - `changed-length`: a file's length changed while it was read.
 * - `file-limit` / `byte-limit`: past upstream's review limit of MAX_HASHED_FILES files or
 *   MAX_HASHED_BYTES bytes (one message for both, as upstream words it).
 * - `entry-limit`: past Skillgate's own MAX_WALKED_ENTRIES directory entries.
 */
const TREE_FAILURE_KINDS = [
  'unreadable',
  'root-not-directory',
  'symlink',
  'special-file',
  'changed-length',
  'file-limit',
  'byte-limit',
  'entry-limit',
] as const;
export type TreeFailureKind = (typeof TREE_FAILURE_KINDS)[number];

/** Whether a value that crossed a thread (readAhead.ts) is a kind this walk names. */
export function isTreeFailureKind(value: unknown): value is TreeFailureKind {
  return (TREE_FAILURE_KINDS as readonly unknown[]).includes(value);
}

/** Why a walk stopped: which failure, a message with `{path}` already spelled, and the bundle-relative name it is about. */
export interface TreeFailure {
  readonly kind: TreeFailureKind;
  readonly message: string;
  readonly rel?: Name;
}

/** What the walk of one bundle read, collected: its steps up to the first failure, and that failure. */
export interface TreeRead {
  readonly steps: readonly TreeStep[];
  readonly failure?: TreeFailure;
  /**
   * Every step framed as the content hash frames it, in order, where the reader thread
   * framed them (readAhead.ts): the walk hashes them in one update. Each file step's
   * bytes are a view into it.
   */
  readonly framed?: Buffer;
}

interface Frame {
  readonly abs: string | Buffer;
  readonly rel: Name;
  readonly children: Child[];
  next: number;
  /** The directory itself, held open (heldDirectory.ts): its entries are named against it. Closed when the frame is left. */
  readonly held?: number;
}

interface Child {
  readonly name: Name;
  /** The listing's own entry type (d_type): a link is never followed. */
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
}

/**
 * The input half of the content walk: a depth-first walk of the whole bundle in byte
 * order of names, each entry typed by the directory listing (no link is followed), each
 * file opened once without following a link. It decides nothing but the limits and
 * what cannot be read; each step goes to `visit` as it is read (`hashBundleContent`
 * frames and hashes it there, holding one file's bytes at a time), or is collected by
 * `readBundleTree` for the CLI's reader threads (readAhead.ts) and for an index's bundle
 * job where no reader holds the bundle (bundleJob.ts), so all read with this very code.
 * Iterative, so a deeply nested tree cannot overflow the stack.
 *
 * `O_NOFOLLOW` guards only a path's last component. Where this platform can
 * (heldDirectory.ts: Linux), each directory is held open while it is walked, listed
 * through its descriptor and its entries named against it, so a directory swapped for a
 * link after its parent was listed is never followed: it fails as the link it now is, as
 * upstream's lstat of each entry finds it (manifest.rs `hash_path`). Elsewhere (macOS,
 * Windows) entries are named by path, and that race remains. One descriptor per level of
 * the walk is open at a time, each closed on every way out.
 */
export function walkBundleTree(
  root: string,
  visit: (step: TreeStep) => void,
  seams: WalkSeams = {},
): TreeFailure | undefined {
  let files = 0;
  let totalBytes = 0;
  let walked = 0;
  const stack: Frame[] = [];
  const holding = seams.holdDirectories ?? heldDirectoriesWork();
  const failed = (kind: TreeFailureKind, message: string, rel?: Name): TreeFailure =>
    rel !== undefined ? { kind, message, rel } : { kind, message };

  /**
   * Opens (where directories are held) and lists the directory `at` names: its path, or
   * its name against its held parent (`entryPath`). A failure's `rel` is left to the
   * caller (none for the root).
   */
  const enterDirectory = (abs: string | Buffer, at: string | Buffer, rel: Name): Stop | undefined => {
    let held: number | undefined;
    if (holding) {
      try {
        held = holdDirectory(at);
      } catch (e) {
        const failure = directoryOpenFailure(at, e);
        // Listed (or, the root, inspected) as a directory, a link by now: reported as a link found
        // there is, for upstream lstats each entry as it reaches it (manifest.rs `hash_path`).
        if (failure.kind === 'link') return rel.length === 0 ? ROOT_NOT_DIRECTORY : LINK;
        visit({ kind: 'directory', rel });
        return listingFailure(
          rel,
          rustIoErrorText(e),
          failure.kind === 'uninspectable' ? rustIoErrorText(failure.error) : undefined,
        );
      }
    }
    try {
      visit({ kind: 'directory', rel });
      const listed = listChildren(held === undefined ? at : heldPath(held));
      if (!listed.ok) return listingFailure(rel, listed.error, rel.length === 0 ? undefined : inspectError(at));
      walked += listed.children.length;
      if (walked > MAX_WALKED_ENTRIES) return { kind: 'entry-limit', message: ENTRY_LIMIT_MESSAGE };
      stack.push({ abs, rel, children: listed.children, next: 0, held });
      held = undefined;
      seams.listed?.(rel);
      return undefined;
    } finally {
      if (held !== undefined) fs.closeSync(held);
    }
  };

  /**
   * Why a directory could not be listed (or held), its `{path}` left for the caller. The bundle
   * root is named by its path, as upstream's `hash_path` names every entry: its relative name
   * is empty. Another entry that cannot be inspected either (`uninspectable`, the lstat's
   * error) fails there first, in those words (`inspectFailure`).
   */
  const listingFailure = (rel: Name, error: string, uninspectable?: string): Stop => ({
    kind: 'unreadable',
    message:
      rel.length === 0
        ? `failed to read component directory ${root}: ${error}`
        : uninspectable !== undefined
          ? `failed to inspect component {path}: ${uninspectable}`
          : `failed to read component directory {path}: ${error}`,
  });

  // The root itself may be a directory whose name is not UTF-8: walk from its exact bytes.
  const rootPath = osPath(root);
  const rootStat = safeLstat(rootPath);
  if (!rootStat.ok) return failed('unreadable', `failed to inspect plugin root: ${rootStat.error}`);
  if (rootStat.type !== 'directory') return failed(ROOT_NOT_DIRECTORY.kind, ROOT_NOT_DIRECTORY.message);
  seams.rootInspected?.();
  try {
    const rootError = enterDirectory(rootPath, rootPath, '');
    if (rootError) return failed(rootError.kind, rootError.message);

    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as Frame;
      if (frame.next >= frame.children.length) {
        visit(END);
        stack.pop();
        if (frame.held !== undefined) fs.closeSync(frame.held);
        continue;
      }
      const child = frame.children[frame.next++] as Child;
      const abs = join(frame.abs, child.name);
      const rel = frame.rel.length === 0 ? child.name : join(frame.rel, child.name);
      if (child.type === 'symlink') return failed(LINK.kind, atPath(LINK.message, rel), rel);
      if (child.type === 'directory') {
        const err = enterDirectory(abs, entryPath(frame, child.name, abs), rel);
        if (err) return failed(err.kind, atPath(err.message, rel), rel);
        continue;
      }
      if (child.type !== 'file')
        return failed('special-file', `component ${display(rel)} is neither a regular file nor directory`, rel);
      if (files + 1 > MAX_HASHED_FILES) return failed('file-limit', LIMIT_MESSAGE, rel);
      const budget = MAX_HASHED_BYTES - totalBytes;
      const read = readWhole(entryPath(frame, child.name, abs), budget);
      if (!read.ok) return failed(read.kind, atPath(read.message, rel), rel);
      files++;
      totalBytes += read.bytes.length;
      visit({ kind: 'file', rel, bytes: read.bytes, executable: read.executable });
    }
    return undefined;
  } finally {
    // Every directory still held: the walk failed, or `visit` threw.
    for (const frame of stack) if (frame.held !== undefined) fs.closeSync(frame.held);
  }
}

/**
 * Where a test may act between two of the walk's calls, as another process in the
 * repository could: a race no unit test can win by timing, made deterministic.
 */
export interface WalkSeams {
  /** After the root was found a directory, before it is opened or listed. */
  readonly rootInspected?: () => void;
  /** After the directory `rel` was listed, before any of its entries is opened. */
  readonly listed?: (rel: Name) => void;
  /** Whether to hold directories (heldDirectory.ts); by default, where this platform can. */
  readonly holdDirectories?: boolean;
}

/** The walk's steps collected, as the reader thread posts them. */
export function readBundleTree(root: string): TreeRead {
  const steps: TreeStep[] = [];
  const failure = walkBundleTree(root, (step) => steps.push(step));
  return failure ? { steps, failure } : { steps };
}

const END: TreeStep = { kind: 'end' };
const LINK: Stop = { kind: 'symlink', message: 'component trees may not contain symbolic link {path}' };
const ROOT_NOT_DIRECTORY: Stop = {
  kind: 'root-not-directory',
  message: 'plugin root must be a directory, not a symbolic link',
};

/**
 * Linux's PATH_MAX (linux/limits.h: 4096 bytes with the terminating NUL): a longer path
 * fails `ENAMETOOLONG` before any component is looked up.
 */
const PATH_MAX = 4096;

/**
 * The path to hand `fs` for the entry `name` of `frame`, whose path is `abs`: its name
 * against the directory the frame holds, so that no component before it is looked up
 * again; its path where the frame holds none. Upstream names every entry by its path
 * (manifest.rs `hash_path`), so one past PATH_MAX fails with `File name too long`: such a
 * path is handed on as it is, to fail so (a path that long cannot reach a byte).
 */
function entryPath(frame: Frame, name: Name, abs: string | Buffer): string | Buffer {
  if (frame.held === undefined || pastPathMax(abs)) return abs;
  return heldPath(frame.held, name);
}

function pastPathMax(p: string | Buffer): boolean {
  // A well-formed string takes at most 3 UTF-8 bytes per UTF-16 unit: most paths need no count.
  if (typeof p === 'string' && p.length * 3 < PATH_MAX) return false;
  return (typeof p === 'string' ? Buffer.byteLength(p) : p.length) >= PATH_MAX;
}

/** A failure before its bundle-relative name is attached; a message may hold `{path}` still. */
interface Stop {
  readonly kind: TreeFailureKind;
  readonly message: string;
}

/**
 * True when the walk found its root a directory: its first step is the root's own. The
 * walk `lstat`s the root before anything else and never enters a link, so such a read
 * answers the loader's root check without the disk.
 */
export function rootWasDirectory(read: TreeRead): boolean {
  const first = read.steps[0];
  return first !== undefined && first.kind === 'directory' && first.rel === '';
}

/**
 * The file `rel` of a read, when the walk read it and it has at most `limit` bytes. The
 * walk read it as it reads every file — opened without following a link, a regular file,
 * read whole — which is how the loader reads a manifest (codewhale.md §4.1); anything
 * else (not read, a link, too large) is for the caller to read and report.
 */
export function fileOfRead(
  read: TreeRead,
  rel: string,
  limit: number,
): { readonly bytes: Buffer; readonly executable: boolean } | undefined {
  for (const step of read.steps) {
    if (step.kind !== 'file' || step.rel !== rel) continue;
    return step.bytes.length <= limit ? { bytes: step.bytes, executable: step.executable } : undefined;
  }
  return undefined;
}

/** A message's `{path}`, spelled for `rel`. */
function atPath(message: string, rel: Name): string {
  // A function, not a string: a replacement string reads `$&` and `$'` in a name as patterns.
  return message.replace('{path}', () => display(rel));
}

/**
 * Why an entry that could not be opened or listed cannot be inspected either, or undefined
 * when it can. Upstream lstats each entry before it opens or lists it (manifest.rs
 * `hash_path`'s `symlink_metadata`), so an entry of a folder this user may list but not
 * search fails there first, in those words; the walk types entries by the listing
 * instead, and asks only once the open or the listing failed.
 */
function inspectFailure(abs: string | Buffer): string | undefined {
  const error = inspectError(abs);
  return error === undefined ? undefined : `failed to inspect component {path}: ${error}`;
}

/** The lstat's error for `abs`, in Rust's words, or undefined when it can be inspected. */
function inspectError(abs: string | Buffer): string | undefined {
  const st = safeLstat(abs);
  return st.ok ? undefined : st.error;
}

/** The path string for a relative name: exact, with escaped bytes where a name is not UTF-8. */
export function display(rel: Name): string {
  return typeof rel === 'string' ? rel : decodeRawName(rel);
}

/**
 * One directory's entries in byte order of their names. Names are read as strings;
 * only a directory holding a name that is not valid UTF-8 (it decodes with U+FFFD)
 * is listed again as raw bytes, so such names hash as the OS bytes they are.
 */
function listChildren(abs: string | Buffer): { ok: true; children: Child[] } | { ok: false; error: string } {
  try {
    const entries = fs.readdirSync(abs, { encoding: 'utf8', withFileTypes: true });
    if (entries.some((e) => e.name.includes('\ufffd'))) {
      const raw = fs.readdirSync(abs, { encoding: 'buffer', withFileTypes: true });
      return { ok: true, children: inByteOrder(raw.map((e) => child(e, decodeUtf8(e.name) ?? e.name))) };
    }
    return { ok: true, children: inByteOrder(entries.map((e) => child(e, e.name))) };
  } catch (e) {
    return { ok: false, error: rustIoErrorText(e) };
  }
}

function child(e: fs.Dirent<string> | fs.Dirent<Buffer>, name: Name): Child {
  const type = e.isSymbolicLink() ? 'symlink' : e.isDirectory() ? 'directory' : e.isFile() ? 'file' : 'other';
  return { name, type };
}

/** Upstream walks in byte order of names; for ASCII names that is plain string order. */
function inByteOrder(children: Child[]): Child[] {
  if (children.every((c) => typeof c.name === 'string' && ASCII.test(c.name)))
    return children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const keyed = children.map((c) => ({ c, key: typeof c.name === 'string' ? Buffer.from(c.name, 'utf8') : c.name }));
  return keyed.sort((a, b) => Buffer.compare(a.key, b.key)).map((k) => k.c);
}

const ASCII = /^[\x00-\x7f]*$/;

/** `a/b`, staying a string unless either side holds raw bytes. */
function join(dir: string | Buffer, name: Name): string | Buffer {
  if (typeof dir === 'string' && typeof name === 'string') return dir + '/' + name;
  return Buffer.concat([
    typeof dir === 'string' ? Buffer.from(dir) : dir,
    SLASH,
    typeof name === 'string' ? Buffer.from(name) : name,
  ]);
}

const SLASH = Buffer.from('/');

function safeLstat(p: string | Buffer): { ok: true; type: string } | { ok: false; error: string } {
  try {
    return { ok: true, type: entryOf(fs.lstatSync(p)).type };
  } catch (e) {
    return { ok: false, error: rustIoErrorText(e) };
  }
}

/**
 * Opens without following a link (O_NOFOLLOW: a file swapped for a link fails here),
 * takes size and mode from the open descriptor, refuses a file past the remaining
 * byte budget before reading it, and reads once into size + 1 bytes: a file that
 * grows or shrinks while it is read is refused.
 */
function readWhole(
  p: string | Buffer,
  budget: number,
): { ok: true; bytes: Buffer; executable: boolean } | ({ ok: false } & Stop) {
  let fd: number;
  try {
    fd = fs.openSync(p, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      return { ok: false, kind: 'symlink', message: 'component trees may not contain symbolic link {path}' };
    return {
      ok: false,
      kind: 'unreadable',
      message: inspectFailure(p) ?? `failed to read component file {path}: ${rustIoErrorText(e)}`,
    };
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile())
      return { ok: false, kind: 'special-file', message: 'component {path} is neither a regular file nor directory' };
    if (st.size > budget) return { ok: false, kind: 'byte-limit', message: LIMIT_MESSAGE };
    const buf = Buffer.allocUnsafe(st.size + 1);
    let total = 0;
    for (;;) {
      const n = fs.readSync(fd, buf, total, buf.length - total, null);
      total += n;
      // A short read of a regular file means end of file.
      if (n === 0 || total === buf.length || total >= st.size) break;
    }
    if (total !== st.size)
      return {
        ok: false,
        kind: 'changed-length',
        message: 'component file {path} changed length while being reviewed',
      };
    return { ok: true, bytes: buf.subarray(0, total), executable: (st.mode & 0o111) !== 0 };
  } catch (e) {
    return { ok: false, kind: 'unreadable', message: `failed to read component file {path}: ${rustIoErrorText(e)}` };
  } finally {
    fs.closeSync(fd);
  }
}
