import { lstatEntry, readRegularFile } from '../../fs/safeFs';
import { MAX_HASHED_BYTES } from '../../hashing/treeRead';
import type { CheckFindings } from './checkFindings';
import type { SkillContract } from './contracts';
import type { ResolvedPath } from './paths';

/**
 * C6: the Lua script exists as a regular file. One this user cannot look at is not known to be
 * missing: Eva run as a user who may read it loads it (and trust cannot cover it, so `check` fails).
 * Returns whether the script found names `require` (eva.md §6.1).
 */
export function checkLuaScript(findings: CheckFindings, k: SkillContract, script: ResolvedPath | null): boolean {
  if (!script?.allowed || !k.script || script.unreadable !== undefined) return false;
  const real = script.real;
  if (!script.exists || real === null || !isRegularFile(real)) {
    findings.reason('script_missing');
    findings.note('eva.lua.script-missing', 'Lua script does not exist', k.script.field);
    return false;
  }
  return callsRequire(real);
}

function isRegularFile(p: string): boolean {
  return lstatEntry(p).type === 'file';
}

/**
 * Whether the script names `require`, as a word (no parse: a mention anywhere is enough to
 * warn). What it loads is not knowable statically, so trust does not cover it.
 */
function callsRequire(p: string): boolean {
  // Read up to the covered-file cap: a larger script is not hashed either.
  const read = readRegularFile(p, MAX_HASHED_BYTES);
  return read.ok && /(^|[^A-Za-z0-9_])require([^A-Za-z0-9_]|$)/.test(read.bytes.toString('latin1'));
}
