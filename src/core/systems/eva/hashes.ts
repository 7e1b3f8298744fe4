import * as fs from 'node:fs';
import * as path from 'node:path';
import { byteOrder } from '../../hashing/capabilityPairs';
import { fileRecord, newHash, pathFrame, sha256Hex, u64le } from '../../hashing/framing';
import { MAX_HASHED_BYTES, MAX_HASHED_FILES } from '../../hashing/bundleContent';
import { osBytes, decodeRawName } from '../../fs/rawNames';
import { isInside, listDirectory, lstatEntry, readRegularFile, type ReadResult } from '../../fs/safeFs';
import { readFailureText, rustFaultText, rustIoErrorText } from '../../fs/rustIoErrorText';
import { heldPath } from '../../fs/heldDirectory';
import { beneathWorks, holdBase, holdBeneath, pastPathMax, readBeneath } from '../../fs/openBeneath';
import type { BundleFile } from '../../model';
import { LINK_MESSAGE, type NoteUncovered, type Uncovered } from './uncovered';

/**
 * Trust inputs of an Eva bundle (eva.md §6, a Skillgate decision): the covered files and
 * the content and capability hashes, in the length-framed SHA-256 form of the other
 * systems (hashing/framing.ts).
 */

export type CoveredDomain = 'eva-project-file' | 'eva-home-file';

/** One covered file: where it is, and how its path enters the hash. */
export interface CoveredFile {
  readonly abs: string;
  readonly domain: CoveredDomain;
  /** `/`-separated, relative to the project root or to `$HOME`. */
  readonly rel: string;
  /**
   * The covered directory whose walk found it (`coverDirectory`): it is read beneath that
   * directory, never through a link on the way (openBeneath.ts). None for a file named on its own.
   */
  readonly within?: string;
}

export type CoveredSet = { readonly ok: true; readonly files: readonly CoveredFile[] } | Uncovered;

/** Where a covered path is named from: its domain and relative path, or undefined when neither root holds it. */
export function coveredName(
  abs: string,
  projectRoot: string,
  home: string | null,
): { domain: CoveredDomain; rel: string } | undefined {
  if (isInside(projectRoot, abs)) return { domain: 'eva-project-file', rel: portable(path.relative(projectRoot, abs)) };
  if (home !== null && isInside(home, abs)) return { domain: 'eva-home-file', rel: portable(path.relative(home, abs)) };
  return undefined;
}

function portable(rel: string): string {
  return rel.split(path.sep).join('/');
}

/**
 * Every regular file under `dir`, recursively (a skill folder: what the skill tells the
 * agent to use is part of what is approved). A link anywhere refuses the whole set.
 *
 * `dir` is listed by its path (a skill folder may be a link: eva.md §8 Q7); where the
 * platform can (openBeneath.ts `beneathWorks`), each directory below it is then opened
 * against its parent, never through a link, and listed and its entries inspected through
 * that descriptor: a directory swapped for a link after its parent was listed is refused
 * as the link it now is, and no name from outside the folder is covered. Elsewhere the
 * walk names entries by path, as before. A descriptor is held while some directory found
 * in it waits to be walked: the walk is depth-first, so no more than its depth at a time.
 *
 * With `note` (a review's list: uncovered.ts `NoteUncovered`), each entry the set cannot cover is
 * noted and the walk goes on past it, within the same bounds: past one, that is noted and the
 * files found so far are the list.
 */
export function coverDirectory(
  dir: string,
  projectRoot: string,
  home: string | null,
  note?: NoteUncovered,
): CoveredSet {
  const out: CoveredFile[] = [];
  const holding = beneathWorks();
  const stack: Pending[] = [{ abs: dir }];
  const open = new Set<Held>();
  const release = (held: Held): void => {
    if (--held.waiting > 0) return;
    open.delete(held);
    fs.closeSync(held.fd);
  };
  let walked = 0;
  let noted = 0;
  const bound = (at: string): CoveredSet => {
    if (note === undefined) return PAST_THE_LIMIT;
    note(at, PAST_THE_LIMIT);
    return { ok: true, files: out };
  };
  // What stops the walk: the failure, or with a note nothing until the noted and the found pass the file bound.
  const meet = (at: string, failure: Uncovered): CoveredSet | undefined => {
    if (note === undefined) return failure;
    if (out.length + noted >= MAX_HASHED_FILES) return bound(at);
    note(at, failure);
    noted++;
    return undefined;
  };
  try {
    while (stack.length) {
      const cur = stack.pop() as Pending;
      let held: Held | undefined;
      if (holding) {
        try {
          held = { fd: cur.parent ? holdBeneath(cur.parent.fd, cur.name as Buffer) : holdBase(cur.abs), waiting: 1 };
          open.add(held);
        } catch (e) {
          // Found a directory in its parent's listing, a link by now: refused as a link found there is.
          const stop = meet(
            cur.abs,
            (e as NodeJS.ErrnoException).code === 'ELOOP' && cur.parent
              ? LINKED
              : { ok: false, cause: 'unreadable', message: `failed to read skill directory: ${rustIoErrorText(e)}` },
          );
          if (stop) return stop;
          continue;
        } finally {
          if (cur.parent) release(cur.parent);
        }
      }
      const listed = listDirectory(held ? heldPath(held.fd) : cur.abs);
      // Io failures in Rust's words, as Eva's own are (eva-config lib.rs `io_error`).
      if (!listed.ok) {
        const stop = meet(cur.abs, {
          ok: false,
          cause: 'unreadable',
          message: `failed to read skill directory: ${rustFaultText(listed.fault, listed.error)}`,
        });
        if (stop) return stop;
        if (held) release(held);
        continue;
      }
      walked += listed.names.length;
      if (walked > MAX_HASHED_FILES * 16) return bound(cur.abs);
      for (const raw of listed.names) {
        const abs = path.join(cur.abs, decodeRawName(raw));
        // A path past PATH_MAX is inspected by its path, to fail `File name too long` as before.
        const entry = lstatEntry(held && !pastPathMax(abs) ? heldPath(held.fd, raw) : abs);
        // An entry this user may not look at (a folder it may list but not search, 744) is not
        // skipped: left out, the content hash would not cover it and trust would outlive its change.
        const failure: Uncovered | undefined =
          entry.error !== undefined
            ? {
                ok: false,
                cause: 'unreadable',
                message: `failed to read covered file ${coveredName(abs, projectRoot, home)?.rel ?? abs}: ${rustFaultText(entry.fault, entry.error)}`,
              }
            : entry.type === 'symlink'
              ? LINKED
              : undefined;
        if (failure) {
          const stop = meet(abs, failure);
          if (stop) return stop;
        } else if (entry.type === 'directory') {
          stack.push(held ? { abs, parent: held, name: raw } : { abs });
          if (held) held.waiting++;
        } else if (entry.type === 'file') {
          const name = coveredName(abs, projectRoot, home);
          if (!name) {
            const stop = meet(abs, OUTSIDE);
            if (stop) return stop;
          } else if (out.length + noted >= MAX_HASHED_FILES) return bound(abs);
          else out.push({ abs, ...name, within: dir });
        }
      }
      coverSeams.listed?.(cur.abs);
      if (held) release(held);
    }
  } finally {
    // Every directory still held: the walk was refused, or failed.
    for (const held of open) fs.closeSync(held.fd);
  }
  return { ok: true, files: out };
}

/** A directory `coverDirectory` found and has not walked yet: where, and its name in the held parent. */
interface Pending {
  readonly abs: string;
  readonly parent?: Held;
  readonly name?: Buffer;
}

/** A directory held open, with how many uses wait for it: its own walk, and each directory found in it. */
interface Held {
  readonly fd: number;
  waiting: number;
}

const LINKED: Uncovered = { ok: false, cause: 'symlink', message: LINK_MESSAGE };

/** Past 4096 files or 64 MiB (trust.md limits): one sentence for either, as `check` and the review show it. */
const PAST_THE_LIMIT: Uncovered = {
  ok: false,
  cause: 'limit',
  message: `skill content exceeds the review limit (${MAX_HASHED_FILES} files / ${MAX_HASHED_BYTES} bytes)`,
};

/**
 * A covered file neither the project nor the home holds, so no name for the hash (`coveredName`):
 * a skill under a `~/.codex/skills` that leads elsewhere, named by its real path.
 */
export const OUTSIDE: Uncovered = {
  ok: false,
  cause: 'outside',
  message: 'a covered file lies outside the project and the home directory',
};

/**
 * Where a test may act between two of the walk's calls, as another process in the
 * repository could (treeRead.ts `WalkSeams`): a race no unit test can win by timing.
 */
export const coverSeams: {
  /** After the directory `abs` was listed and its entries inspected, before any directory in it is opened. */
  listed?: (abs: string) => void;
} = {};

export type ContentHash =
  | {
      readonly ok: true;
      readonly contentHash: string;
      readonly files: readonly BundleFile[];
      /** Where each of `files` was read, in the same order (a file's `path` is named from its domain). */
      readonly read: readonly string[];
    }
  | Uncovered;

/**
 * `SHA256("skillgate-eva-skill-content-v1\0" ‖ kind ‖ "\0" ‖ u64(len) ‖ manifest ‖ records)`,
 * records sorted by (domain, raw bytes of rel): a present file as Codewhale's file
 * record, a missing one as `M\0 ‖ PATH(domain, rel)` so that its appearance drops trust.
 */
export function evaContentHash(
  kind: 'skill-adapter' | 'lua-skill',
  manifestBytes: Uint8Array,
  covered: readonly CoveredFile[],
): ContentHash {
  const unique = new Map<string, CoveredFile>();
  for (const f of covered) unique.set(`${f.domain}\0${f.rel}`, f);
  const sorted = [...unique.values()].sort(hashOrder);
  if (sorted.length > MAX_HASHED_FILES) return PAST_THE_LIMIT;
  const h = newHash();
  h.update('skillgate-eva-skill-content-v1\0');
  h.update(kind);
  h.update('\0');
  h.update(u64le(manifestBytes.length));
  h.update(manifestBytes);
  const files: BundleFile[] = [];
  const readFrom: string[] = [];
  let total = 0;
  for (const f of sorted) {
    const read = readCovered(f, MAX_HASHED_BYTES - total);
    if (read === 'missing') {
      h.update('M\0');
      h.update(pathFrame(f.domain, osBytes(f.rel)));
      continue;
    }
    if (!read.ok) return unreadCovered(f, read);
    total += read.bytes.length;
    fileRecord(h, osBytes(f.rel), read.executable, read.bytes, f.domain);
    files.push({
      path: f.domain === 'eva-home-file' ? `~/${f.rel}` : f.rel,
      size: read.bytes.length,
      sha256: sha256Hex(read.bytes),
      executable: read.executable,
    });
    readFrom.push(f.abs);
  }
  return { ok: true, contentHash: h.digest('hex'), files, read: readFrom };
}

/** The order the content hash reads covered files in: by domain, then the raw bytes of the relative path (eva.md §6.2). */
export function hashOrder(a: CoveredFile, b: CoveredFile): number {
  return byteOrder(a.domain, b.domain) || Buffer.compare(osBytes(a.rel), osBytes(b.rel));
}

/** Why a covered file's read stops the hash: a link at its place, past the bytes the hash reads, or its read failed. */
export function unreadCovered(f: CoveredFile, read: ReadResult & { readonly ok: false }): Uncovered {
  if (read.reason === 'symlink') return LINKED;
  if (read.reason === 'too-large') return PAST_THE_LIMIT;
  return { ok: false, cause: 'unreadable', message: `failed to read covered file ${f.rel}: ${readFailureText(read)}` };
}

/**
 * A covered file's bytes, or `missing` when it is not there: one `coverDirectory` found is
 * read beneath its covered directory (openBeneath.ts), so a directory on the way swapped
 * for a link since the walk is refused as a link, never followed; as a path that is gone
 * or leads through a file is (ENOENT is missing; ENOTDIR fails to read, as `lstat` raises
 * it). A file named on its own is read by its path, as before.
 */
export function readCovered(f: CoveredFile, limit: number): ReadResult | 'missing' {
  const rel = f.within === undefined ? undefined : path.relative(f.within, f.abs);
  if (rel === undefined || rel === '' || rel.split(path.sep)[0] === '..' || path.isAbsolute(rel)) {
    if (lstatEntry(f.abs).type === 'missing') return 'missing';
    return readRegularFile(f.abs, limit);
  }
  const read = readBeneath(f.within as string, osBytes(portable(rel)), limit);
  return !read.ok && read.reason === 'missing' && read.fault?.code === 'ENOENT' ? 'missing' : read;
}

/** The capability pairs of §6.3; list values are sorted, deduplicated and joined with `\n`. */
export type EvaCapabilityPairs = ReadonlyMap<string, string>;

/** `SHA256("skillgate-eva-capabilities-v1\0" ‖ key\0value\0 …)`, keys in byte order (codewhale.md §7.5 pair framing). */
export function evaCapabilityHash(pairs: EvaCapabilityPairs): string {
  const keys = [...pairs.keys()].sort(byteOrder);
  return sha256Hex(
    'skillgate-eva-capabilities-v1\0',
    osBytes(keys.map((k) => `${k}\0${pairs.get(k) ?? ''}\0`).join('')),
  );
}
