import type { DecideContext } from './decide';
import type { ManifestEntry } from './manifestEntry';
import { resolveNamedPath } from './paths';
import type { ProjectAdapterRef } from './userSkills';
import { isMapping, manifestRoot } from './yamlValue';

/**
 * A skill adapter as user-item shadowing needs it (§4.3 rule 4: "whatever that adapter's own
 * decision"): read from its `skill` mapping, so that an adapter that breaks a schema or
 * contract rule, whose `skill.path` the decision never resolved, still wraps the folder it names.
 */
export function adapterRef(
  e: ManifestEntry,
  resolvedSkillPaths: ReadonlyMap<string, string>,
  ctx: DecideContext,
): ProjectAdapterRef | undefined {
  const root = e.doc && manifestRoot(e.doc);
  const value = isMapping(root) ? root : undefined;
  const skill = value && isMapping(value['skill']) ? value['skill'] : undefined;
  if (!skill) return undefined;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  const declared = text(skill['path']);
  let resolvedSkillPath = resolvedSkillPaths.get(e.itemId as string) ?? null;
  if (resolvedSkillPath === null && declared !== null && !declared.includes('\0')) {
    const p = resolveNamedPath(declared, ctx.projectRoot, ctx.home, ctx.skillPathRoots);
    resolvedSkillPath = p.real ?? p.resolved;
  }
  return {
    itemId: e.itemId as string,
    id: e.id ?? e.rel,
    skillSource: text(skill['source']),
    skillId: text(skill['id']),
    resolvedSkillPath,
  };
}
