import type { Item } from '../../model';

/**
 * `explain`'s conflicts of a Rivumi skill or plugin whose name others carry (duplicateNames.ts):
 * Rivumi loads each of them and a selection by name picks the last in load order (rivumi.md §3.6,
 * decisions.md "Precedence and shadowing"), so each line names another carrier, where it is, and,
 * where one of the two is the last, which one a selection picks.
 */
export function sameNameConflicts(item: Item, at: (id: string) => string): string[] {
  const carriers = item.detail.sameName ?? [];
  const self = carriers.indexOf(item.id);
  if (self < 0) return [];
  const picked = carriers[carriers.length - 1];
  // Skills are selected by `enabled_skills`; the spec names no setting that selects a plugin.
  const selection = item.kind === 'plugin' ? 'a selection by name' : 'a selection by name (enabled_skills)';
  return carriers.flatMap((id, i) => {
    if (i === self) return [];
    const pick = id === picked ? 'that one' : item.id === picked ? 'this one' : null;
    return [
      `${item.kind} name ${item.qualifiedName} is also used by ${at(id)}, ${i < self ? 'earlier' : 'later'} in Rivumi's load order${pick ? `: ${selection} picks ${pick}` : ''}`,
    ];
  });
}
