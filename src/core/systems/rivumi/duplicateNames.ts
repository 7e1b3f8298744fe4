import type { Findings } from '../../diagnostics/findings';
import { FILE_START } from '../../model';
import type { RivumiPlugin, RivumiSkill } from './model';

/**
 * Names more than one loaded skill or plugin carries. Rivumi rejects no duplicate at load time
 * (rivumi.md §3.5): both load, and a selection by name picks the later skill (§3.6), so a
 * skill can stand in for a same-named one; said as a warning at the later file.
 */

export function warnDuplicates(skills: RivumiSkill[], plugins: RivumiPlugin[], findings: Findings): void {
  const seen = new Map<string, RivumiSkill>();
  for (const s of [...skills, ...plugins.flatMap((p) => p.skills)]) {
    if (s.state !== 'valid') continue;
    const earlier = seen.get(s.qualifiedName);
    if (earlier) {
      findings.inFile(
        'rivumi.skill.duplicate-name',
        `skill name ${s.qualifiedName} is also used by ${earlier.source}; both load, and a selection by name picks this later one`,
        s.file,
        FILE_START,
        {
          related: [{ file: earlier.file, range: FILE_START, message: `${s.qualifiedName} is first defined here` }],
        },
      );
    }
    seen.set(s.qualifiedName, s);
  }
  const names = new Map<string, RivumiPlugin>();
  for (const p of plugins) {
    if (p.state !== 'valid') continue;
    const earlier = names.get(p.name);
    if (earlier)
      findings.inFile(
        'rivumi.plugin.duplicate-name',
        `plugin name ${p.name} is also used by ${earlier.source}; Rivumi loads both`,
        p.file,
      );
    names.set(p.name, p);
  }
}
