import { loadCodewhaleBundle, resolveManifest, type CodewhaleBundle } from './bundle';
import type { HostFacts } from '../../host';
import type { ManifestLabel } from './manifest';
import type { Scope } from '../../model';
import * as path from 'node:path';
import { canonicalPath } from '../../fs/safeFs';
import { internalDiagnostic } from '../../diagnostics/faults';
import type { CacheSegment } from '../../cache/parseCache';
import type { TreeReadAhead } from '../../hashing/readAhead';

/** One candidate bundle directory of a discovery root. */
export interface BundleJob {
  readonly dir: string;
  readonly scope: Scope;
  readonly canonicalDiscoveryRoot: string;
  /** The parse cache of its discovery root, when the index has one. */
  readonly cache?: CacheSegment;
  /** Bundle trees read ahead, when the index has them. */
  readonly readAhead?: TreeReadAhead;
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
    label = resolveManifest(job.dir);
    return label
      ? load(job.dir, label, {
          scope: job.scope,
          canonicalDiscoveryRoot: job.canonicalDiscoveryRoot,
          host,
          ...(job.cache ? { cache: job.cache } : {}),
          ...(job.readAhead ? { readAhead: job.readAhead } : {}),
        })
      : null;
  } catch (e) {
    return faultedBundle(job, label, e);
  }
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
