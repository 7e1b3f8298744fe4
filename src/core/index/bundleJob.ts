import { loadCodewhaleBundle, resolveManifest, type CodewhaleBundle } from '../codewhale/bundle';
import type { HostFacts } from '../codewhale/host';
import type { Scope } from '../model';

/** One candidate bundle directory of a discovery root. */
export interface BundleJob {
  readonly dir: string;
  readonly scope: Scope;
  readonly canonicalDiscoveryRoot: string;
}

/** The bundle in `job.dir`, or null when the directory holds no manifest (upstream skips it silently). */
export function runBundleJob(job: BundleJob, host: HostFacts): CodewhaleBundle | null {
  const label = resolveManifest(job.dir);
  return label ? loadCodewhaleBundle(job.dir, label, { scope: job.scope, canonicalDiscoveryRoot: job.canonicalDiscoveryRoot, host }) : null;
}
