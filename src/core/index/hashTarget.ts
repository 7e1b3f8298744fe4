import * as path from 'node:path';
import { lstatEntry } from '../fs/safeFs';
import { currentHost } from '../host';
import { agentSystems } from '../systems/registry';
import type { HashOutcome } from '../systems/agentSystem';

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
  // A FIFO, socket or device is neither a bundle directory nor a manifest file: said so, not
  // "holds no manifest" as if it were an empty folder. (An lstat that failed is `other` with its error.)
  if (entry.type === 'other')
    return {
      ok: false,
      message:
        entry.error === undefined
          ? `${target} is neither a directory nor a regular file; give a bundle directory or a manifest file`
          : `${target} cannot be read: ${entry.error}`,
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
