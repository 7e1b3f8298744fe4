import type { DocPath } from '../../documents/document';
import type { CheckFindings } from './checkFindings';
import type { SkillContract } from './contracts';
import { requestsWorkspaceWrite } from './effectivePermissions';
import type { EvaPolicy } from './policy';
import type { EvaRuntime } from './runtime';
import type { EvaDiagnosticCode } from './vocabulary';

/**
 * C10: the effective policy (eva.md §4.2). One `policy_denied` reason for the skill, and one
 * diagnostic per sub-check that denies; `admitted` is whether its gate admits the runtime (C9).
 */
export function checkPolicy(
  findings: CheckFindings,
  k: SkillContract,
  p: EvaPolicy,
  runtime: EvaRuntime,
  admitted: boolean,
): void {
  const policyFailures = policyChecks(k, p, runtime, admitted);
  if (policyFailures.length) findings.reason('policy_denied');
  for (const f of policyFailures) findings.note(f.code, f.message, f.field);
}

interface PolicyFailure {
  readonly code: EvaDiagnosticCode;
  readonly message: string;
  readonly field: DocPath;
}

/** C10 (a)–(h): one failure per sub-check that denies. */
function policyChecks(k: SkillContract, p: EvaPolicy, runtime: EvaRuntime, admitted: boolean): PolicyFailure[] {
  const out: PolicyFailure[] = [];
  if (p.failClosed)
    out.push({
      code: 'eva.policy.fail-closed',
      message: 'adapter_policy could not be read; every Eva skill is denied until it is fixed',
      field: [],
    });
  const kindField: DocPath = k.kind === 'lua_skill' ? ['kind'] : ['skill', 'kind'];
  if (k.kind !== 'runtime_worker' && p.denyKinds.includes(k.kind))
    out.push({
      code: 'eva.policy.kind-denied',
      message: `skill kind ${k.kind} is denied by adapter_policy.skill.deny_kinds`,
      field: kindField,
    });
  for (const cap of k.capabilities)
    if (p.denyCapabilities.includes(cap.name))
      out.push({
        code: 'eva.policy.capability-denied',
        message: `capability ${cap.name} is globally denied`,
        field: cap.field,
      });
  if (requestsWorkspaceWrite(k) && !p.defaults.writeWorkspace && !p.allowWriteWorkspace.includes(k.id)) {
    out.push({
      code: 'eva.policy.write-denied',
      message: `skill requests workspace write, which adapter_policy does not allow for ${k.id}`,
      field: k.kind === 'lua_skill' ? ['permissions', 'fs', 'write'] : ['permissions', 'write_workspace'],
    });
  }
  if (k.permissions.network && !p.defaults.network)
    out.push({
      code: 'eva.policy.network-denied',
      message: 'skill requests network access, which adapter_policy.defaults does not allow',
      field: ['permissions', 'network'],
    });
  if (k.permissions.shell && !p.defaults.shell)
    out.push({
      code: 'eva.policy.shell-denied',
      message: 'skill requests shell access, which adapter_policy.defaults does not allow',
      field: ['permissions', 'shell'],
    });
  const processFree = k.kind !== 'lua_skill' && k.entryType === 'codex_skill' && !k.runnerCommand && !k.topCommand;
  if (processFree && (k.permissions.env.length > 0 || k.hasCredentials))
    out.push({
      code: 'eva.policy.credentials',
      message: 'process-free Skill cannot consume provider credentials',
      field: k.permissions.env.length > 0 ? ['permissions', 'env'] : ['credentials'],
    });
  // (h) normal registration only: the mode that admits the runtime must be an allowed gate. A
  // runtime_worker never targets the normal registry (TeamRuntime or DisplayOnly, §4.2).
  if (k.kind !== 'runtime_worker' && admitted && !p.allowedRuntimeGates.includes(runtime.mode)) {
    out.push({
      code: 'eva.policy.gate-denied',
      message: `skill runtime gate ${runtime.mode} is not allowed`,
      field: k.gateField,
    });
  }
  return out;
}
