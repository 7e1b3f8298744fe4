import { isInside } from '../../fs/safeFs';
import { FILE_START, type Diagnostic } from '../../model';
import { evaDiagnostic } from './diagnostics';
import type { ManifestEntry } from './manifestEntry';
import type { EvaProject } from './project';

/**
 * §4.5: the first file at which the shipped Eva-CLI stops, in its load order. Upstream lists every
 * root (adapters, capabilities, policies) before it reads any manifest: a directory it cannot list
 * stops it first.
 */
export function firstFailingFile(
  project: EvaProject,
  evaYamlFails: boolean,
  entries: readonly ManifestEntry[],
  policyFailing: readonly string[],
  diagnostics: readonly Diagnostic[],
): string | undefined {
  const unlisted = (['adapter_dir', 'capability_dir', 'policy_dir'] as const)
    .map((key) => project.roots[key] ?? project.unreadableRoots[key] ?? null)
    .flatMap((root) =>
      diagnostics.filter((d) => d.code === 'eva.scan.unreadable' && root !== null && isInside(root, d.file)),
    )[0]?.file;
  return evaYamlFails ? project.configFile : (unlisted ?? entries.find((e) => e.shipped)?.abs ?? policyFailing[0]);
}

/** The load stop at `firstFailing`, tied to the skill item whose manifest it is. */
export function loadAbortedDiagnostic(firstFailing: string, entries: readonly ManifestEntry[]): Diagnostic {
  const d = evaDiagnostic(
    firstFailing,
    FILE_START,
    'eva.project.load-aborted',
    'Eva-CLI stops loading this project at this file, so it would register no skill until it is fixed',
  );
  d.itemId =
    entries.find(
      (e) => e.abs === firstFailing && e.itemId !== null && (e.role === 'skill-adapter' || e.role === 'lua-skill'),
    )?.itemId ?? null;
  return d;
}
