import * as path from 'node:path';
import type { Item } from '../../model';
import type { BoundSkill } from '../agentSystem';
import type { EvaItemDetail } from './item';
import { readContextOf } from './readContext';

/**
 * The skill an Eva unit binds, for the review's skills (AgentSystem.boundSkills): Eva has no
 * item for it, its capability model (eva.md §6.3) names it by `skill_id` alone. A skill
 * adapter wraps the skill `skill.id`, whose instructions are the file `skill.path` names
 * (eva.md §2.3; the seed, Skill实现方案.md "Design Position": "An external SKILL.md is a
 * workflow instruction package"); a lua_skill's logic is its `lua.script` (eva.md §2.5). Both
 * are covered by the content hash (eva.md §6.1), so the reviewer approves their bytes: the
 * review shows them, as it shows a Codewhale or Rivumi skill's text. Eva-CLI as shipped reads
 * neither (eva.md §0: no code reads `skill.path`; `transports/skill.rs` returns a controlled
 * envelope with the skill's id), which the description says.
 *
 * Display only: the capability pairs, and so the capability hash and every review token, are
 * computed apart (bundleTrust.ts `capabilityPairs`) and do not change.
 */
export function evaBoundSkills(item: Item): readonly BoundSkill[] {
  const eva = (item.detail as Partial<EvaItemDetail>).eva;
  if (!eva || item.workspace === null) return [];
  if (item.kind === 'skill-adapter') {
    const name = eva.skillId ?? eva.id;
    if (eva.skillPath === null)
      return [
        {
          name,
          description: 'no skill.path: the manifest names no file of instructions, so this review has no text to show',
          file: null,
          textLabel: INSTRUCTIONS,
        },
      ];
    return [
      {
        name,
        description: `the instructions skill.path names (${eva.skillPath}); Eva's design wraps them as this skill's workflow instruction package, Eva-CLI as shipped stores skill.path but does not read it`,
        file: namedFile(item.workspace, eva.skillPath),
        textLabel: INSTRUCTIONS,
      },
    ];
  }
  if (item.kind === 'lua-skill') {
    if (eva.script === null)
      return [
        {
          name: eva.id,
          description: 'no lua.script: the manifest names no script, so this review has no text to show',
          file: null,
          textLabel: SCRIPT,
        },
      ];
    return [
      {
        name: eva.id,
        description: `the Lua script lua.script names (${eva.script}); Eva's design runs it in its Lua capability runtime, Eva-CLI as shipped does not know lua_skill`,
        file: namedFile(item.workspace, eva.script),
        textLabel: SCRIPT,
      },
    ];
  }
  return [];
}

const INSTRUCTIONS = 'Show the instructions';
const SCRIPT = 'Show the Lua script';

/**
 * The absolute path of a file the decision displays (paths.ts `displayPath`): `~/…` under the
 * home the project was indexed with (readContext.ts, as its hash read it), a relative one under
 * the project folder as the items name it (givenFolder.ts), any other as it is. The review
 * finds the file among those it hashed by this path (review/unitText.ts), and shows no other.
 */
function namedFile(workspace: string, display: string): string | null {
  if (display.startsWith('~/')) {
    const home = readContextOf(workspace).home;
    return home === null ? null : path.join(home, display.slice(2));
  }
  return path.isAbsolute(display) ? display : path.join(workspace, display);
}
