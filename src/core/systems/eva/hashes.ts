import * as path from 'node:path';
import { byteOrder } from '../../hashing/capabilityPairs';
import { fileRecord, newHash, pathFrame, sha256Hex, u64le } from '../../hashing/framing';
import { MAX_HASHED_BYTES, MAX_HASHED_FILES } from '../../hashing/bundleContent';
import { osBytes, decodeRawName } from '../../fs/rawNames';
import { isInside, listDirectory, lstatEntry, readRegularFile } from '../../fs/safeFs';
import { readFailureText, rustFaultText } from '../../fs/rustIoErrorText';
import type { BundleFile } from '../../model';

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
}

export type CoveredSet =
  | { readonly ok: true; readonly files: readonly CoveredFile[] }
  | { readonly ok: false; readonly symlink: boolean; readonly message: string };

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
 */
export function coverDirectory(dir: string, projectRoot: string, home: string | null): CoveredSet {
  const out: CoveredFile[] = [];
  const stack: string[] = [dir];
  let walked = 0;
  while (stack.length) {
    const cur = stack.pop() as string;
    const listed = listDirectory(cur);
    // Io failures in Rust's words, as Eva's own are (eva-config lib.rs `io_error`).
    if (!listed.ok)
      return {
        ok: false,
        symlink: false,
        message: `failed to read skill directory: ${rustFaultText(listed.fault, listed.error)}`,
      };
    walked += listed.names.length;
    if (walked > MAX_HASHED_FILES * 16) return { ok: false, symlink: false, message: limitMessage() };
    for (const raw of listed.names) {
      const abs = path.join(cur, decodeRawName(raw));
      const entry = lstatEntry(abs);
      // An entry this user may not look at (a folder it may list but not search, 744) is not
      // skipped: left out, the content hash would not cover it and trust would outlive its change.
      if (entry.error !== undefined)
        return {
          ok: false,
          symlink: false,
          message: `failed to read covered file ${coveredName(abs, projectRoot, home)?.rel ?? abs}: ${rustFaultText(entry.fault, entry.error)}`,
        };
      if (entry.type === 'symlink')
        return {
          ok: false,
          symlink: true,
          message: 'a file covered by this skill is a symbolic link; it cannot be reviewed',
        };
      if (entry.type === 'directory') stack.push(abs);
      else if (entry.type === 'file') {
        const name = coveredName(abs, projectRoot, home);
        if (!name)
          return {
            ok: false,
            symlink: false,
            message: 'a covered file lies outside the project and the home directory',
          };
        out.push({ abs, ...name });
        if (out.length > MAX_HASHED_FILES) return { ok: false, symlink: false, message: limitMessage() };
      }
    }
  }
  return { ok: true, files: out };
}

function limitMessage(): string {
  return `skill content exceeds the review limit (${MAX_HASHED_FILES} files / ${MAX_HASHED_BYTES} bytes)`;
}

export type ContentHash =
  | {
      readonly ok: true;
      readonly contentHash: string;
      readonly files: readonly BundleFile[];
      /** Where each of `files` was read, in the same order (a file's `path` is named from its domain). */
      readonly read: readonly string[];
    }
  | { readonly ok: false; readonly symlink: boolean; readonly message: string };

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
  const sorted = [...unique.values()].sort(
    (a, b) => byteOrder(a.domain, b.domain) || Buffer.compare(osBytes(a.rel), osBytes(b.rel)),
  );
  if (sorted.length > MAX_HASHED_FILES) return { ok: false, symlink: false, message: limitMessage() };
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
    const entry = lstatEntry(f.abs);
    if (entry.type === 'missing') {
      h.update('M\0');
      h.update(pathFrame(f.domain, osBytes(f.rel)));
      continue;
    }
    const read = readRegularFile(f.abs, MAX_HASHED_BYTES - total);
    if (!read.ok) {
      if (read.reason === 'symlink')
        return {
          ok: false,
          symlink: true,
          message: 'a file covered by this skill is a symbolic link; it cannot be reviewed',
        };
      if (read.reason === 'too-large') return { ok: false, symlink: false, message: limitMessage() };
      return {
        ok: false,
        symlink: false,
        message: `failed to read covered file ${f.rel}: ${readFailureText(read)}`,
      };
    }
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
