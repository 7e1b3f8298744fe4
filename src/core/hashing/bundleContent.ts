import { frameStep, newHash, sha256Hex, u64le } from './framing';
import { display, walkBundleTree, type TreeFailureKind, type TreeRead, type TreeStep } from './treeRead';
import type { BundleFile } from '../model';

export { ENTRY_LIMIT_MESSAGE, LIMIT_MESSAGE, MAX_HASHED_BYTES, MAX_HASHED_FILES, MAX_WALKED_ENTRIES } from './treeRead';
export type { TreeFailureKind } from './treeRead';

/** A hashed file; a name that is not UTF-8 has `rawPath`, and `path` spells its bytes escaped (rawNames.ts). */
export type HashedFile = BundleFile;

export type ContentWalk =
  | {
      readonly ok: true;
      readonly contentHash: string;
      readonly files: readonly HashedFile[];
      readonly directories: readonly string[];
      /** Bytes of the files the caller asked to keep (by bundle-relative path): read once, parsed next. */
      readonly retained: ReadonlyMap<string, Buffer>;
    }
  | {
      readonly ok: false;
      /** Which failure stopped the walk (treeRead.ts): what a consumer decides by, never the message's words. */
      readonly kind: TreeFailureKind;
      readonly message: string;
      readonly rel?: string;
    };

const DOMAIN = 'codewhale-plugin-content-v2\0';

/**
 * Codewhale's content hash, domain v2 (codewhale.md §7.2): the manifest prefix, then a
 * depth-first walk of the whole bundle (treeRead.ts reads it), each directory and file
 * framed as Codewhale frames them. `retain` picks the files whose bytes the caller
 * parses next, so nothing is read twice. Handed the bundle's read (readAhead.ts: a
 * reader thread's, or the index job's own, taken before the manifest was parsed from it),
 * it hashes those steps and frames; else it reads here, streaming, one file's bytes at a
 * time (a copy's re-hash, an invalid bundle's review).
 */
export function hashBundleContent(
  root: string,
  label: string,
  manifest: Uint8Array,
  retain: (rel: string) => boolean,
  read?: TreeRead,
): ContentWalk {
  const h = newHash();
  h.update(DOMAIN);
  h.update(label);
  h.update('\0');
  h.update(u64le(manifest.length));
  h.update(manifest);
  const files: HashedFile[] = [];
  const directories: string[] = [];
  const retained = new Map<string, Buffer>();
  // What the loader keeps of each step: the file and directory lists and the bytes it parses next.
  const list = (step: TreeStep): void => {
    if (step.kind === 'directory') directories.push(display(step.rel));
    else if (step.kind === 'file') {
      const { rel, bytes, executable } = step;
      const relPath = display(rel);
      files.push({
        path: relPath,
        size: bytes.length,
        sha256: step.sha256 ?? sha256Hex(bytes),
        executable,
        ...(typeof rel === 'string' ? {} : { rawPath: rel }),
      });
      if (retain(relPath)) retained.set(relPath, bytes);
    }
  };
  // Another thread's read: its frames hashed in one update, its steps listed. Else the walk here, hashed as it reads.
  const failure = read
    ? read.failure
    : walkBundleTree(root, (step) => {
        frameStep(h, step);
        list(step);
      });
  if (read && !failure) {
    if (read.framed) h.update(read.framed);
    else for (const step of read.steps) frameStep(h, step);
    for (const step of read.steps) list(step);
  }
  if (failure) {
    const { kind, message, rel } = failure;
    return rel !== undefined ? { ok: false, kind, message, rel: display(rel) } : { ok: false, kind, message };
  }
  // Copies at their length: the lists grew by push, and the index keeps them with their slack otherwise.
  return { ok: true, contentHash: h.digest('hex'), files: files.slice(), directories: directories.slice(), retained };
}
