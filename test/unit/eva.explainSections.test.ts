import { strict as assert } from 'node:assert';
import { A0, EvaFixture } from './helpers/evaFixture';
import { explainEva } from '../../src/core/systems/eva/explainEva';
import { evaReviewContract } from '../../src/core/systems/eva/reviewContract';
import type { Item } from '../../src/core/model';

/**
 * What `explain` and the review say about an Eva skill, in the design's order (eva.md §4.7):
 * what Eva-CLI itself would do and why; the source (kind, source, trust level, ids,
 * `skill.path` or script); schemas; the runtime gate against the assumed runtime; each
 * permission asked and granted with the policy file and key that decided it; capabilities
 * and conflicts.
 */
describe('Eva sections of explain and the review contract (eva.md §4.7)', () => {
  let f: EvaFixture;
  beforeEach(() => (f = new EvaFixture().p0()));
  afterEach(() => f.remove());

  const POLICY = 'config/policies/adapter.yaml';
  const permission = (name: string, asked: boolean) =>
    `${name}: requested ${asked ? 'yes' : 'no'}, effective no (adapter_policy.defaults.${name} in ${POLICY})`;
  const ASSUMED = 'normal, team worker: false, interactive: false';

  it('explains an adapter Eva registers, section by section', () => {
    f.adapter(A0);
    assert.deepEqual(explainEva(f.index().item('adapters/review.yaml')), [
      { title: 'Eva-CLI would: registered (AdapterRegistry)', lines: ['reason: registered'] },
      {
        title: 'Eva source',
        lines: [
          'kind: workflow_skill, source: project_adapter, trust level: Project',
          'id: review-skill, skill id: review',
        ],
      },
      { title: 'Schemas', lines: ['input: inline', 'output: inline'] },
      {
        title: 'Runtime gate',
        lines: [
          'gate: normal (admits the assumed runtime)',
          `assumed runtime: ${ASSUMED} (user settings skillgate.eva.* or --eva-runtime, --eva-team-worker, --eva-interactive)`,
        ],
      },
      {
        title: 'Permissions',
        lines: [
          permission('read_workspace', true),
          permission('write_workspace', false),
          permission('network', false),
          permission('shell', false),
          'timeout: 60000 ms',
        ],
      },
      { title: 'Eva capabilities and conflicts', lines: ['capabilities: workflow.review', 'conflicts: none'] },
    ]);
  });

  it('says when the gate does not admit the assumed runtime, and why Eva then only displays it', () => {
    f.adapter(A0);
    const sections = explainEva(
      f.index({ runtime: { mode: 'team', teamWorker: false, interactiveUser: false } }).item('adapters/review.yaml'),
    );
    assert.deepEqual(sections[0], {
      title: 'Eva-CLI would: display_only (DisplayOnly)',
      lines: ['reason: runtime_gate_mismatch'],
    });
    assert.equal(sections[3]?.lines[0], 'gate: normal (does not admit the assumed runtime)');
  });

  it("shows a lua_skill's script and its own id only", () => {
    f.l0();
    const item = f.index().item('capabilities/lint.yaml');
    assert.deepEqual(explainEva(item)[1], {
      title: 'Eva source',
      lines: [
        'kind: lua_skill, source: project_capability, trust level: Project',
        'id: lint-skill',
        'lua.script: config/skills/lint.lua',
      ],
    });
    const rows = evaReviewContract(item)?.rows ?? [];
    assert.deepEqual(
      rows.filter((r) => ['id', 'script', 'skill path'].includes(r.label)),
      [
        { label: 'id', value: 'lint-skill' },
        { label: 'script', value: 'config/skills/lint.lua' },
      ],
    );
  });

  it('gives the review the same contract as rows', () => {
    f.adapter(A0);
    const decided = (name: string) => `decided by ${POLICY}: adapter_policy.defaults.${name}`;
    assert.deepEqual(evaReviewContract(f.index().item('adapters/review.yaml')), {
      title: 'Skill contract (Eva-CLI)',
      rows: [
        { label: 'Eva-CLI decides', value: 'registered (registered)' },
        { label: 'kind', value: 'workflow_skill, from project_adapter (trust level Project)' },
        { label: 'id', value: 'review-skill (skill review)' },
        { label: 'runtime gate', value: `normal (assumed runtime: ${ASSUMED})` },
        { label: 'input schema', value: 'inline' },
        { label: 'output schema', value: 'inline' },
        { label: 'permission read_workspace', value: `asks yes, gets no — ${decided('read_workspace')}` },
        { label: 'permission write_workspace', value: `asks no, gets no — ${decided('write_workspace')}` },
        { label: 'permission network', value: `asks no, gets no — ${decided('network')}` },
        { label: 'permission shell', value: `asks no, gets no — ${decided('shell')}` },
        { label: 'timeout', value: '60000 ms' },
        { label: 'capabilities', value: 'workflow.review' },
        { label: 'conflicts', value: 'none' },
      ],
    });
  });

  it('has nothing to say about an item that is not an Eva skill', () => {
    const other = { detail: {} } as unknown as Item;
    assert.deepEqual(explainEva(other), []);
    assert.equal(evaReviewContract(other), null);
  });
});
