import type { Findings } from '../../diagnostics/findings';
import type { HooksCoverage, SkillsCoverage } from './hashes';

/**
 * What trust cannot cover, said where the reviewer sees it (trust.md "Hashing"): each hook
 * argv element or plugin skill file the content hash leaves out is a finding at its place in
 * the file that names it. The coverage itself is worked out with the hashes (hashes.ts).
 */

/** Each hook argv element trust cannot cover is an error at that element (trust.md "Hook argv files, exactly"). */
export function reportCoverage(coverage: HooksCoverage, findings: Findings): HooksCoverage {
  for (const p of coverage.problems)
    findings.at(p.code, p.message, { file: p.hook.at.file, path: [...p.hook.at.path, 'command', p.argIndex] });
  return coverage;
}

/**
 * Each skill file trust cannot cover is an error at its path in the manifest, as an argv
 * element is (trust.md "Hashing"); Rivumi still loads the skill, so its decision stays.
 */
export function reportSkillCoverage(coverage: SkillsCoverage, manifest: string, findings: Findings): SkillsCoverage {
  for (const p of coverage.problems)
    findings.at('rivumi.plugin.skill-uncovered', p.message, { file: manifest, path: ['skills', p.index, 'path'] });
  return coverage;
}
