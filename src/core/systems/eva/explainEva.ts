import { portableRelative } from '../../fs/portablePath';
import type { Item } from '../../model';
import type { AgentSection } from '../agentSystem';
import type { EvaItemDetail } from './item';
import { gateAdmits, gateText, runtimeText } from './runtime';
import { runnerCoverageText } from './runner';
import { argvText } from '../../text/argvText';

/**
 * `explain`'s Eva sections, after the decision and in the design's order (eva.md §4.7):
 * what Eva-CLI itself would do, the skill's source, schemas, runtime gate against the
 * assumed runtime, effective permissions with the policy key that decided each, and
 * capabilities and conflicts. Trust and diagnostics follow in the shared sections.
 */
export function explainEva(item: Item): AgentSection[] {
  const eva = (item.detail as Partial<EvaItemDetail>).eva;
  if (!eva) return [];
  const sections: AgentSection[] = [
    {
      title: `Eva-CLI would: ${eva.evaDecision}${eva.target ? ` (${eva.target})` : ''}`,
      lines: eva.evaReasons.map((r) => `reason: ${r}`),
    },
    {
      title: 'Eva source',
      lines: [
        `kind: ${eva.evaKind}, source: ${eva.source}, trust level: ${eva.trustLevel}`,
        `id: ${eva.id}${eva.skillId ? `, skill id: ${eva.skillId}` : ''}`,
        ...(eva.skillPath ? [`skill.path: ${eva.skillPath}`] : []),
        ...(eva.script ? [`lua.script: ${eva.script}`] : []),
        ...(eva.runner
          ? [
              `runs: ${argvText([eva.runner.command, ...eva.runner.args])}`,
              `${eva.runner.coverage === 'project-file' || eva.runner.coverage === 'missing' ? 'note' : 'warning'}: the command is ${runnerCoverageText(eva.runner.coverage)}`,
            ]
          : []),
        ...(eva.scriptRequires
          ? ['warning: the script calls require; the Lua modules it loads are not covered by this trust']
          : []),
      ],
    },
    { title: 'Schemas', lines: [`input: ${eva.schemas.input}`, `output: ${eva.schemas.output}`] },
    {
      title: 'Runtime gate',
      lines: [
        eva.runtimeGate
          ? `gate: ${gateText(eva.runtimeGate)} (${gateAdmits(eva.runtimeGate, eva.assumedRuntime) ? 'admits' : 'does not admit'} the assumed runtime)`
          : 'gate: none',
        `assumed runtime: ${runtimeText(eva.assumedRuntime)} (user settings skillgate.eva.* or --eva-runtime, --eva-team-worker, --eva-interactive)`,
      ],
    },
  ];
  const where = (file: string) => (item.workspace === null ? file : portableRelative(item.workspace, file));
  const permissions = Object.entries(eva.effectivePermissions).map(
    ([name, p]) =>
      `${name}: requested ${p.requested ? 'yes' : 'no'}, effective ${p.effective ? 'yes' : 'no'} (${p.decidedBy.key}${p.decidedBy.file ? ` in ${where(p.decidedBy.file)}` : ', built-in default'})`,
  );
  if (eva.effectiveTimeoutMs !== null) permissions.push(`timeout: ${eva.effectiveTimeoutMs} ms`);
  if (permissions.length) sections.push({ title: 'Permissions', lines: permissions });
  sections.push({
    title: 'Eva capabilities and conflicts',
    lines: [
      `capabilities: ${eva.capabilities.join(', ') || 'none'}`,
      `conflicts: ${eva.conflicts.join(', ') || 'none'}`,
    ],
  });
  return sections;
}
