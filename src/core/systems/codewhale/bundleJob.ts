import { loadCodewhaleBundle } from './bundle';
import { manifestOfRead, resolveManifest } from './bundleManifest';
import type { CodewhaleBundle } from './codewhaleBundle';
import type { HostFacts } from '../../host';
import type { ManifestLabel } from './manifest';
import type { Scope } from '../../model';
import * as path from 'node:path';
import { canonicalPath } from '../../fs/safeFs';
import { internalDiagnostic } from '../../diagnostics/faults';
import type { CacheSegment } from '../../cache/parseCacheSegment';
import type { TakenRead, TreeReadAhead } from '../../hashing/readAhead';
import { readBundleTree, type TreeRead } from '../../hashing/treeRead';

/** One candidate bundle directory of a discovery root. */
export interface BundleJob {
  readonly dir: string;
  readonly scope: Scope;
  readonly canonicalDiscoveryRoot: string;
  /** The parse cache of its discovery root, when the index has one. */
  readonly cache?: CacheSegment;
  /** Bundle trees read ahead, when the index has them. */
  readonly readAhead?: TreeReadAhead;
  /**
   * The bundle's read, taken by a caller that shows more of the bundle than the load
   * keeps (an invalid bundle's review: its files and content hash beside its
   * diagnostics), so what it shows comes from the one read the load parsed.
   */
  readonly read?: TreeRead;
}

/** Reads one bundle; the indexer's port for it (tests inject faults through it). */
export type BundleLoader = typeof loadCodewhaleBundle;

/**
 * The bundle in `job.dir`, or null when the directory holds no manifest (upstream skips
 * it silently). The fault boundary of one bundle: whatever the load throws becomes that
 * bundle's `skillgate.internal` error, never a failed index.
 */
export function runBundleJob(
  job: BundleJob,
  host: HostFacts,
  load: BundleLoader = loadCodewhaleBundle,
): CodewhaleBundle | null {
  let label: ManifestLabel | undefined;
  try {
    const taken = takenRead(job);
    label = manifestOfRead(taken.read) ?? resolveManifest(job.dir);
    return label
      ? load(job.dir, label, {
          scope: job.scope,
          canonicalDiscoveryRoot: job.canonicalDiscoveryRoot,
          host,
          ...(job.cache ? { cache: job.cache } : {}),
          taken,
        })
      : null;
  } catch (e) {
    return faultedBundle(job, label, e);
  }
}

/**
 * Where the index announces the job's bundle to the read-ahead, and takes its read: the
 * discovery root's real path joined with the directory's name, where a directory listed
 * in the root resolves.
 */
export function announcedRoot(job: BundleJob): string {
  return path.join(job.canonicalDiscoveryRoot, path.basename(job.dir));
}

/**
 * The job's read, before anything else of the bundle is asked: from the read-ahead when
 * it holds it, else read here and now with the same code. It answers the loader's checks
 * of its root, holds the manifest's bytes and, for a `plugin.json` bundle, which manifest
 * it has, so the loader asks the disk nothing more (`manifestOfRead`,
 * `loadCodewhaleBundle`): the loader's own walk came after a stat per label, an lstat and
 * a realpath of the root and a read of the manifest, eight system calls a bundle that the
 * index worker no longer makes (docs/read-ahead.md). The read holds every file of the
 * bundle until the load ends, as a reader's does; the walk's limits bound it.
 */
function takenRead(job: BundleJob): TakenRead {
  const root = announcedRoot(job);
  return { root, read: job.read ?? job.readAhead?.take(root) ?? readBundleTree(root) };
}

/** A bundle whose load threw: rejected (`manifest_invalid`), with the exception as its diagnostic. */
export function faultedBundle(job: BundleJob, label: ManifestLabel | undefined, error: unknown): CodewhaleBundle {
  const manifestFile = label ? path.join(job.dir, label) : undefined;
  const dirName = path.basename(job.dir);
  return {
    scope: job.scope,
    dir: job.dir,
    dirName,
    canonicalRoot: canonicalPath(job.dir),
    manifestFile,
    label,
    name: dirName,
    valid: false,
    files: [],
    directories: [],
    skills: [],
    when: { applicable: true, reasons: [] },
    diagnostics: [internalDiagnostic(manifestFile ?? job.dir, `the bundle ${dirName}`, error)],
    anchors: {},
    bundleFiles: [manifestFile ?? job.dir],
  };
}
