import { portableRelative } from '../../fs/portablePath';
import type { Item } from '../../model';
import type { ReviewContract } from '../agentSystem';
import type { EvaItemDetail } from './item';
import { gateText, runtimeText } from './runtime';
import { runnerCoverageText } from './runner';
import { argvText } from '../../text/argvText';

/**
 * An Eva skill's contract as the review shows it (eva.md §3, §4): its kind and source,
 * the runtime gate against the assumed runtime, its schemas, each permission it asks for
 * beside what the policy grants and the file and key that decided it, its capabilities
 * and conflicts. Null for an item that is not an Eva skill unit.
 */
export function evaReviewContract(item: Item): ReviewContract | null {
  const eva = (item.detail as Partial<EvaItemDetail>).eva;
  if (!eva) return null;
  const rows: { label: string; value: string }[] = [
    { label: 'Eva-CLI decides', value: `${eva.evaDecision} (${eva.evaReasons.join(', ') || 'no reason'})` },
    { label: 'kind', value: `${eva.evaKind}, from ${eva.source} (trust level ${eva.trustLevel})` },
    { label: 'id', value: eva.skillId ? `${eva.id} (skill ${eva.skillId})` : eva.id },
  ];
  if (eva.skillPath) rows.push({ label: 'skill path', value: eva.skillPath });
  if (eva.script) rows.push({ label: 'script', value: eva.script });
  if (eva.scriptRequires)
    rows.push({
      label: 'Lua modules',
      value: 'the script calls require: the modules it loads are not covered by this trust',
    });
  // What it runs is the one thing a process-backed skill can do beyond its permissions: shown, and whether trust pins it.
  if (eva.runner)
    rows.push({
      label: 'runs',
      value: `${argvText([eva.runner.command, ...eva.runner.args])} (${runnerCoverageText(eva.runner.coverage)})`,
    });
  rows.push({
    label: 'runtime gate',
    value: `${eva.runtimeGate ? gateText(eva.runtimeGate) : 'none'} (assumed runtime: ${runtimeText(eva.assumedRuntime)})`,
  });
  rows.push({ label: 'input schema', value: eva.schemas.input }, { label: 'output schema', value: eva.schemas.output });
  for (const [name, p] of Object.entries(eva.effectivePermissions)) {
    const file =
      p.decidedBy.file && item.workspace ? portableRelative(item.workspace, p.decidedBy.file) : p.decidedBy.file;
    const decided = file ? `${file}: ${p.decidedBy.key}` : `built-in default (${p.decidedBy.key})`;
    rows.push({
      label: `permission ${name}`,
      value: `asks ${p.requested ? 'yes' : 'no'}, gets ${p.effective ? 'yes' : 'no'} — decided by ${decided}`,
    });
  }
  if (eva.effectiveTimeoutMs !== null) rows.push({ label: 'timeout', value: `${eva.effectiveTimeoutMs} ms` });
  rows.push(
    { label: 'capabilities', value: eva.capabilities.join(', ') || 'none' },
    { label: 'conflicts', value: eva.conflicts.join('; ') || 'none' },
  );
  return { title: 'Skill contract (Eva-CLI)', rows };
}
