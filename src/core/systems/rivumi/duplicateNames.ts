import type { Findings } from '../../diagnostics/findings';
import { FILE_START } from '../../model';
import type { RivumiFileState, RivumiPlugin, RivumiProject, RivumiSkill } from './model';

/**
 * Names more than one loaded skill or plugin carries. Rivumi rejects no duplicate at load time
 * (rivumi.md §3.5): both load, and a selection by name picks the later skill (§3.6), so a
 * skill can stand in for a same-named one; said as a warning at the later file, and by
 * `explain` on each of them (sameNameConflicts.ts).
 */

/** Each loaded skill or plugin whose name another carries, to every carrier of that name in load order. */
export type SameNamed<T> = ReadonlyMap<T, readonly T[]>;

/** Skills in Rivumi's load order (§3.5): project skills by file name, then each plugin's in manifest order. */
function skillsInLoadOrder(
  skills: readonly RivumiSkill[],
  plugins: readonly Pick<RivumiPlugin, 'skills'>[],
): RivumiSkill[] {
  return [...skills, ...plugins.flatMap((p) => p.skills)];
}

/**
 * The carriers of each name more than one carries. Only a file Rivumi reads and accepts carries
 * a name it loads: one past a cap, or invalid, carries none.
 */
function sameNamed<T extends { readonly state: RivumiFileState }>(
  inLoadOrder: readonly T[],
  nameOf: (t: T) => string,
): SameNamed<T> {
  const byName = new Map<string, T[]>();
  for (const t of inLoadOrder) {
    if (t.state !== 'valid') continue;
    const carriers = byName.get(nameOf(t));
    if (carriers) carriers.push(t);
    else byName.set(nameOf(t), [t]);
  }
  const out = new Map<T, readonly T[]>();
  for (const carriers of byName.values()) if (carriers.length > 1) for (const t of carriers) out.set(t, carriers);
  return out;
}

/** The same-named skills and plugins of one load (`plugins` in manifest order). */
export function sameNames(project: Pick<RivumiProject, 'skills' | 'plugins'>): {
  readonly skills: SameNamed<RivumiSkill>;
  readonly plugins: SameNamed<RivumiPlugin>;
} {
  return {
    skills: sameNamed(skillsInLoadOrder(project.skills, project.plugins), (s) => s.qualifiedName),
    plugins: sameNamed(project.plugins, (p) => p.name),
  };
}

export function warnDuplicates(skills: RivumiSkill[], plugins: RivumiPlugin[], findings: Findings): void {
  const same = sameNames({ skills, plugins });
  const listedBy = new Map<RivumiSkill, { plugin: RivumiPlugin; index: number }>();
  for (const plugin of plugins) plugin.skills.forEach((s, index) => listedBy.set(s, { plugin, index }));
  for (const s of skillsInLoadOrder(skills, plugins)) {
    const earlier = previous(same.skills, s);
    const listing = listedBy.get(s);
    // One manifest listing one file twice: the file shares no name with another, the listing repeats it.
    if (earlier && listing && earlier.file === s.file && listedBy.get(earlier)?.plugin === listing.plugin) {
      findings.at(
        'rivumi.skill.duplicate-name',
        `skill name ${s.qualifiedName} is listed twice by ${listing.plugin.source} (${s.source}); both load, the same file twice`,
        { file: listing.plugin.file, path: ['skills', listing.index, 'path'] },
      );
    } else if (earlier) {
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
  }
  for (const p of plugins) {
    const earlier = previous(same.plugins, p);
    if (earlier)
      findings.inFile(
        'rivumi.plugin.duplicate-name',
        `plugin name ${p.name} is also used by ${earlier.source}; Rivumi loads both`,
        p.file,
      );
  }
}

/** The carrier of the same name loaded just before `t`, if any. */
function previous<T>(same: SameNamed<T>, t: T): T | undefined {
  const carriers = same.get(t);
  const at = carriers?.indexOf(t) ?? -1;
  return at > 0 ? carriers?.[at - 1] : undefined;
}
