import * as path from 'node:path';
import { MAX_MANIFEST_BYTES } from './formats/mcpJson';
import type { ManifestLabel } from './manifest';
import { manifestOfBundleRead } from './bundleManifest';
import { fileReadErrorText } from './fileReadError';
import { canonicalize, decodeUtf8, lstatEntry, readRegularFile } from '../../fs/safeFs';
import { rustFaultText } from '../../fs/rustIoErrorText';
import type { TakenRead } from '../../hashing/readAhead';
import { rootWasDirectory, type TreeRead } from '../../hashing/treeRead';
import type { Findings } from '../../diagnostics/findings';

/**
 * What the checks of a bundle's manifest file and root (codewhale.md §4.1) leave to the
 * rest of the load: the canonical root, the manifest's bytes and text, or, once a check has
 * said why the bundle is rejected, nothing but where the root resolved, if it did (an
 * invalid bundle names it).
 */
export type FileAndRoot =
  | { readonly ok: false; readonly canonicalRoot: string | undefined }
  | {
      readonly ok: true;
      /** A root that passed its checks was canonicalized: its real path. */
      readonly canonicalRoot: string;
      /** The job's read, when its walk found the root a directory: the content walk hashes it. */
      readonly bundleRead: TreeRead | undefined;
      readonly bytes: Buffer;
      readonly source: string;
    };

/**
 * §4.1: the manifest itself, never through a link, at most 1 MiB, UTF-8, in a root that is
 * a directory. `bundleRoot` is the bundle directory: the manifest's directory, or for the
 * Claude form (.claude-plugin/plugin.json) its parent.
 */
export function checkFileAndRoot(
  bundleRoot: string,
  label: ManifestLabel,
  manifestFile: string,
  jobRead: TakenRead | undefined,
  findings: Findings,
): FileAndRoot {
  // A read the job took whose walk found the root a directory answers the root's lstat and
  // realpath: it was read at the announced root, the discovery root's real path joined with
  // this directory's name, which is the real path of a directory listed there. Else the
  // disk answers, once; a root that is a link is not walked, and an invalid bundle names
  // where it leads.
  const taken = jobRead && rootWasDirectory(jobRead.read) ? jobRead : undefined;
  const rootEntry = taken ? undefined : lstatEntry(bundleRoot);
  // Undefined: the root is no directory (or its lstat failed), so it is not canonicalized.
  const resolved: ReturnType<typeof canonicalize> | undefined = taken
    ? { ok: true, path: taken.root }
    : rootEntry?.type === 'directory'
      ? canonicalize(bundleRoot)
      : undefined;
  const rejected = { ok: false, canonicalRoot: resolved?.ok ? resolved.path : undefined } as const;

  if (
    label === '.claude-plugin/plugin.json' &&
    lstatEntry(path.join(bundleRoot, '.claude-plugin')).type !== 'directory'
  ) {
    findings.inFile('codewhale.manifest.file', `${label} must be a regular file, not a symbolic link`, manifestFile);
    return rejected;
  }
  // With a taken read (a reader's, or the job's own), the manifest is among the files it
  // read, and the loader parses those bytes instead of opening the file a second time.
  const bundleRead = taken?.read;
  const read =
    (bundleRead && manifestOfBundleRead(bundleRead, label)) || readRegularFile(manifestFile, MAX_MANIFEST_BYTES);
  if (!read.ok) {
    const message =
      read.reason === 'too-large'
        ? `${label} exceeds the ${MAX_MANIFEST_BYTES}-byte review limit`
        : read.reason === 'io'
          ? fileReadErrorText(label, read)
          : `${label} must be a regular file, not a symbolic link`;
    findings.inFile('codewhale.manifest.file', message, manifestFile);
    return rejected;
  }
  // The root's own checks failing with an io error, in upstream's words with Rust's io error (manifest.rs
  // `validate_from_path`: `symlink_metadata(root)`, then `root.canonicalize()`): a root that changed since it
  // was listed, or that this user may not reach. An io failure at the bundle folder, as the content walk's
  // are: not a root that is no directory, and never a rejection without a reason.
  if (rootEntry?.error !== undefined) {
    const fault = `failed to inspect plugin root: ${rustFaultText(rootEntry.fault, rootEntry.error)}`;
    findings.inFile('codewhale.content.unreadable', fault, manifestFile);
    return rejected;
  }
  if (resolved?.ok === false) {
    const fault = `failed to canonicalize plugin root: ${rustFaultText(resolved.fault, resolved.error)}`;
    findings.inFile('codewhale.content.unreadable', fault, manifestFile);
    return rejected;
  }
  if (resolved === undefined) {
    findings.inFile('codewhale.manifest.root', 'plugin root must be a directory, not a symbolic link', manifestFile);
    return rejected;
  }
  const source = decodeUtf8(read.bytes);
  if (source === undefined) {
    findings.inFile('codewhale.manifest.file', `${label} must be valid UTF-8`, manifestFile);
    return rejected;
  }
  return { ok: true, canonicalRoot: resolved.path, bundleRead, bytes: read.bytes, source };
}
