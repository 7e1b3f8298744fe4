import * as path from 'node:path';
import { lstatEntry } from '../fs/safeFs';
import { currentHost } from '../host';
import { agentSystems } from '../systems/registry';
import type { HashOutcome } from '../systems/agentSystem';

export type { HashOutcome } from '../systems/agentSystem';

/** `skillgate hash <target>`: the trust unit of whichever agent recognises the target. */
export function hashTarget(target: string): HashOutcome {
  const abs = path.resolve(target);
  const entry = lstatEntry(abs);
  if (entry.type === 'missing') return { ok: false, message: `${target} does not exist`, diagnostics: [] };
  if (entry.type === 'symlink')
    return {
      ok: false,
      message: `${target} is a symbolic link; Skillgate never follows links into a bundle`,
      diagnostics: [],
    };
  const host = currentHost();
  for (const system of agentSystems()) {
    const outcome = system.hashTarget(abs, target, host);
    if (outcome) return outcome;
  }
  return {
    ok: false,
    message: `${target} is not a bundle: give ${agentSystems()
      .map((s) => s.hashTargetHint)
      .join(', or ')}`,
    diagnostics: [],
  };
}
