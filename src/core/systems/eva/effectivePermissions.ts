import type { SkillContract } from './contracts';
import type { EffectivePermission } from './item';
import type { EvaPolicy } from './policy';

/** Requested ∧ policy, with the policy file and key that decided each (for `explain`). */
export function effectivePermissions(k: SkillContract, p: EvaPolicy): Record<string, EffectivePermission> {
  const file = p.source;
  const def = (key: string) => ({ file, key: `adapter_policy.defaults.${key}` });
  const writeAllowed = p.defaults.writeWorkspace || p.allowWriteWorkspace.includes(k.id);
  const writes = requestsWorkspaceWrite(k);
  return {
    read_workspace: {
      requested: k.permissions.readWorkspace || k.permissions.fsRead.length > 0,
      effective:
        (k.permissions.readWorkspace || k.permissions.fsRead.length > 0) && p.defaults.readWorkspace && !p.failClosed,
      decidedBy: def('read_workspace'),
    },
    write_workspace: {
      requested: writes,
      effective: writes && writeAllowed && !p.failClosed,
      decidedBy: p.allowWriteWorkspace.includes(k.id)
        ? { file, key: 'adapter_policy.allow_write_workspace' }
        : def('write_workspace'),
    },
    network: {
      requested: k.permissions.network,
      effective: k.permissions.network && p.defaults.network && !p.failClosed,
      decidedBy: def('network'),
    },
    shell: {
      requested: k.permissions.shell,
      effective: k.permissions.shell && p.defaults.shell && !p.failClosed,
      decidedBy: def('shell'),
    },
  };
}

/** A lua_skill asks to write through `permissions.fs.write`, a skill adapter through `write_workspace`. */
export function requestsWorkspaceWrite(k: SkillContract): boolean {
  return k.kind === 'lua_skill' ? k.permissions.fsWrite.length > 0 : k.permissions.writeWorkspace;
}
