import type { Diagnostic } from '../../model';
import { readAndParse, scanRoot } from './manifestEntry';
import { readPolicy, type EvaPolicy, type PolicyDocument } from './policy';
import type { EvaProject } from './project';

/** A project's policy gate as its policy files build it, and the files the loader refuses, in path order. */
export interface ProjectPolicy {
  readonly policy: EvaPolicy;
  readonly failing: string[];
}

/** Policies (§3.3): files the loader refuses fail closed, as the policy gate could not be built. */
export function readProjectPolicy(
  project: EvaProject,
  policySchema: unknown,
  diagnostics: Diagnostic[],
): ProjectPolicy {
  const policyFiles = scanRoot(project, 'policy_dir', diagnostics);
  const policyDocs: PolicyDocument[] = [];
  const policyFailing: string[] = [];
  for (const abs of policyFiles) {
    const read = readAndParse(abs, project.maxManifestBytes);
    if ('doc' in read) policyDocs.push({ file: abs, document: read.doc });
    else {
      diagnostics.push(read.diagnostic);
      policyFailing.push(abs);
    }
  }
  const policyReading = readPolicy(policyDocs, policySchema);
  for (const d of policyReading.diagnostics) diagnostics.push(d);
  // A document the shipped loader refuses (an empty one, a padded domain key) leaves no policy
  // gate either: skipping it dropped the denials it holds. In path order, where the load stops.
  const refused = new Set([...policyFailing, ...policyReading.failing]);
  policyFailing.splice(0, policyFailing.length, ...policyFiles.filter((f) => refused.has(f)));
  const policy: EvaPolicy = policyFailing.length ? { ...policyReading.policy, failClosed: true } : policyReading.policy;
  return { policy, failing: policyFailing };
}
