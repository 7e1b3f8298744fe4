import type { Rng } from './random';
import type { GeneratedFile } from './rivumi';
import { CONTROL_STRINGS } from './payloads';

/**
 * Eva-CLI shapes added over the demo's Eva project (input.ts `evaDemo`): `kind: skill`
 * capability manifests, which Skillgate shows as bindings of their provider adapter
 * (eva.md §2.6), and user skill folders, of which Eva lists at most 500 per root (§1.3,
 * `max_files_per_dir`; past them `scan_limit_exceeded`, §4.2 C0).
 */

/** User skill folders made under the input's home: `~/.<root>/skills/u000/SKILL.md` and on. */
export interface EvaUserSkills {
  readonly root: 'codex' | 'agents';
  readonly count: number;
}

/** Eva's cap on skill folders per user root (eva.md §1.3; the core's `MAX_FILES_PER_DIR`). */
export const EVA_USER_CAP = 500;

/** The demo's adapters (examples/demo-workspace/config/adapters) plus the non-skill one this generator may add, and ids nothing declares. */
const PROVIDERS = [
  'review-skill', // registered (loaded, unreviewed): the binding follows it
  'summarize-skill', // rejected: the binding is inactive
  'team-planner', // display_only in the normal runtime: inactive
  'tool-adapter', // transport: stdio, when written: not a skill adapter, so no binding item
  'ghost', // no such adapter: Capability provider Adapter does not exist
  '__proto__',
];

/** A non-skill adapter a binding may name (eva.md §2.6: `eva.capability.skill-provider-not-skill`). */
const TOOL_ADAPTER = {
  id: 'tool-adapter',
  path: 'config/adapters/tool-adapter.yaml',
  text: 'id: tool-adapter\nname: Tool Adapter\nversion: 1.0.0\nenabled: true\ntransport: stdio\ncapabilities: [repo.read]\npermissions: {read_workspace: true}\nlimits: {timeout_ms: 1000}\nrouting: {priority: 5}\n',
};

function capability(rng: Rng): string {
  return rng.weighted<string>([
    [5, rng.pick(['workflow.review', 'workflow.plan', 'workflow.summarize', 'workflow.bind.deep'])],
    [3, rng.pick(['repo.review', 'code.review', 'workflowx.review', 'Workflow.review'])],
    [1, rng.pick(['shell.execute', 'workflow', 'workflow..review', 'workflow.'])],
    [1, `workflow.${rng.pick(CONTROL_STRINGS)}`],
  ]);
}

/** The provider lines: `default_provider`, `provider`, both (default_provider decides), or none. */
function providerLines(rng: Rng): string {
  const pick = () => rng.pick(PROVIDERS);
  return rng.weighted<string>([
    [6, `default_provider: ${pick()}\n`],
    [2, `provider: ${pick()}\n`],
    [1, `default_provider: ${pick()}\nprovider: ${pick()}\n`],
    [1, ''],
  ]);
}

function bindingText(rng: Rng, id: string): string {
  const enabled = rng.weighted<string>([
    [6, 'true'],
    [3, 'false'],
    [1, rng.pick(['yes', '"true"', '~'])],
  ]);
  const name = rng.bool(0.15) ? JSON.stringify(rng.pick(CONTROL_STRINGS)) : `Binding ${id}`;
  let text = `id: ${id}\nname: ${name}\nversion: 1.0.0\nenabled: ${enabled}\nkind: skill\ncapability: ${capability(rng)}\n`;
  text += providerLines(rng);
  if (rng.bool(0.3)) text += 'input_schema: {type: object}\noutput_schema: {type: object}\n';
  return text;
}

/**
 * One to three bindings under `config/capabilities/` (some in a subfolder, `.yml`, or
 * sharing an id, which shadows the later one; some with an adapter's id), and, when one
 * names it, mostly the non-skill adapter. Paths are workspace-relative.
 */
export function generateEvaBindings(rng: Rng): GeneratedFile[] {
  const files: GeneratedFile[] = [];
  const ids = ['rs', 'bind-a', 'bind-b', 'review-skill', 'lint-skill', 'Bad Id'];
  for (let i = 0, n = rng.range(1, 3); i < n; i++) {
    const id = rng.weighted<string>([
      [6, `b${i}`],
      [3, rng.pick(ids)],
    ]);
    const dir = rng.bool(0.2) ? 'config/capabilities/bound' : 'config/capabilities';
    files.push({ path: `${dir}/b${i}.${rng.bool(0.8) ? 'yaml' : 'yml'}`, text: bindingText(rng, id) });
  }
  // Mostly there when a binding names it (else that provider is missing, as `ghost` is).
  if (files.some((f) => f.text.includes(TOOL_ADAPTER.id)) && rng.bool(0.8))
    files.push({ path: TOOL_ADAPTER.path, text: TOOL_ADAPTER.text });
  return files;
}

/** How many user skill folders to make: mostly a few, rarely a few past Eva's cap (each a folder and a tiny SKILL.md). */
export function generateEvaUserSkills(rng: Rng): EvaUserSkills {
  const count = rng.weighted<number>([
    [30, rng.range(1, 3)],
    [1, EVA_USER_CAP + rng.range(1, 8)],
  ]);
  return { root: rng.bool(0.7) ? 'codex' : 'agents', count };
}

/** Folder `i`'s name: sorted as numbered, after the demo's `changelog`. */
export function evaUserSkillName(i: number): string {
  return `u${String(i).padStart(3, '0')}`;
}

/** Folder `i`'s SKILL.md. */
export function evaUserSkillText(i: number): string {
  return `---\nname: ${evaUserSkillName(i)}\ndescription: User skill ${i}.\n---\nBody.\n`;
}
